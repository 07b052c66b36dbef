#include "textflag.h"

// func setupAVX2(sh *[lanes]*Counts, masks []uint16, ms *lane, heldMax *[kinds]int, stride int, w, inv *lane, ninv int)
//
// dealerGraph.setup4, the four shoes in the lanes of a YMM register. The
// counts of each kind are converted to float64 once (cnt, on the stack);
// every other number is a sum or difference of small integers, exact, so
// equal to setup4's float64 of the integer result; inv is 1/x for x the
// cards left, 0 where none is.
//
// Registers: R8-R11 the shoes, then SI, CX, DX, R12, R13 as noted, AX and
// BX scratch, Y6 ones, Y7 n (cards in each shoe), Y2 zero.
TEXT ·setupAVX2(SB), NOSPLIT, $320-80
	MOVQ sh+0(FP), AX
	MOVQ 0(AX), R8
	MOVQ 8(AX), R9
	MOVQ 16(AX), R10
	MOVQ 24(AX), R11
	VXORPD Y2, Y2, Y2
	VXORPD Y7, Y7, Y7
	MOVQ $0x3FF0000000000000, AX // 1.0
	VMOVQ AX, X6
	VBROADCASTSD X6, Y6

	// cnt[r] (at 0(SP), 32 bytes each) = the four counts of kind r.
	XORQ CX, CX
	MOVQ SP, DI

cnt:
	VCVTSI2SDQ (R8)(CX*8), X0, X0
	VCVTSI2SDQ (R9)(CX*8), X1, X1
	VCVTSI2SDQ (R10)(CX*8), X3, X3
	VCVTSI2SDQ (R11)(CX*8), X4, X4
	VUNPCKLPD X1, X0, X0 // shoes 0, 1
	VUNPCKLPD X4, X3, X3 // shoes 2, 3
	VINSERTF128 $1, X3, Y0, Y0
	VMOVUPD Y0, (DI)
	VADDPD Y0, Y7, Y7
	ADDQ $32, DI
	INCQ CX
	CMPQ CX, $10
	JLT  cnt

	// ms[i] = the sum of cnt over the kinds of masks[i]: SI the mask,
	// CX past the last, R12 ms[i].
	MOVQ masks_base+8(FP), SI
	MOVQ masks_len+16(FP), CX
	LEAQ (SI)(CX*2), CX
	MOVQ ms+32(FP), R12

mask:
	CMPQ SI, CX
	JAE  wtab
	MOVWQZX (SI), AX
	VXORPD Y0, Y0, Y0

maskkind:
	TESTQ AX, AX
	JE    maskdone
	BSFQ AX, BX
	SHLQ $5, BX
	VADDPD (SP)(BX*1), Y0, Y0
	LEAQ -1(AX), BX
	ANDQ BX, AX
	JMP  maskkind

maskdone:
	VMOVUPD Y0, (R12)
	ADDQ $32, R12
	ADDQ $2, SI
	JMP  mask

wtab:
	// w[r*stride+m] = cnt[r] - m for m = 0 … heldMax[r]: SI heldMax,
	// DX the stride in bytes, R12 the row, R13 its entry, CX = r.
	MOVQ heldMax+40(FP), SI
	MOVQ stride+48(FP), DX
	SHLQ $5, DX
	MOVQ w+56(FP), R12
	XORQ CX, CX
	MOVQ SP, DI

wrow:
	VMOVUPD (DI), Y0
	MOVQ (SI)(CX*8), AX
	MOVQ R12, R13

wm:
	VMOVUPD Y0, (R13)
	VSUBPD Y6, Y0, Y0
	ADDQ $32, R13
	DECQ AX
	JGE  wm
	ADDQ DX, R12
	ADDQ $32, DI
	INCQ CX
	CMPQ CX, $10
	JLT  wrow

	// inv[k] = 1/(n - k) where n > k, else 0: Y5 = n - k.
	MOVQ inv+64(FP), R12
	MOVQ ninv+72(FP), CX
	VMOVAPD Y7, Y5

inv:
	TESTQ CX, CX
	JE    setdone
	VCMPPD $0x1e, Y2, Y5, Y3 // n - k > 0
	VDIVPD Y5, Y6, Y4
	VANDPD Y3, Y4, Y4
	VMOVUPD Y4, (R12)
	VSUBPD Y6, Y5, Y5
	ADDQ $32, R12
	DECQ CX
	JMP  inv

setdone:
	VZEROUPPER
	RET

// func statesAVX2(states []dState, edges []dEdge, held []dHeld, prob, acc, w, inv *lane)
//
// dealerGraph.states4, four lanes per YMM register. For each state i:
//
//	pr = prob[i]; if every lane is 0, next state; prob[i] = 0
//	pr *= inv[size]
//	for each edge: prob[to] += pr * w[w]
//	a = acc[acc:]; a[kinds] += pr
//	for each held: a[r] += pr * m
//
// Each lane sees exactly the scalar operations of states4 (a product, then
// a sum; no fused multiply-add), so the numbers are the same bit for bit.
//
// Registers: SI the state, CX past the last state, DI prob, BX prob[i],
// R8 edges, R9 held, R10 acc, R11 w, R12 inv, DX and R13 the current and
// end pointers of an edge or held list, AX and R14 scratch, Y0 pr, Y2 zero.
TEXT ·statesAVX2(SB), NOSPLIT, $0-104
	MOVQ states_base+0(FP), SI
	MOVQ states_len+8(FP), CX
	MOVQ edges_base+24(FP), R8
	MOVQ held_base+48(FP), R9
	MOVQ prob+72(FP), DI
	MOVQ acc+80(FP), R10
	MOVQ w+88(FP), R11
	MOVQ inv+96(FP), R12
	IMULQ $24, CX
	ADDQ SI, CX
	MOVQ DI, BX
	VXORPD Y2, Y2, Y2

state:
	CMPQ SI, CX
	JAE  done
	VMOVUPD (BX), Y0
	VCMPPD $0, Y2, Y0, Y3 // lanes equal to 0
	VMOVMSKPD Y3, AX
	CMPL AX, $15
	JEQ  next
	VMOVUPD Y2, (BX) // left zero for the next call
	MOVBQZX 20(SI), AX // size
	SHLQ $5, AX
	VMULPD (R12)(AX*1), Y0, Y0

	// Edges: DX from &edges[e0] to &edges[e1].
	MOVLQSX 0(SI), DX
	MOVLQSX 4(SI), R13
	LEAQ (R8)(DX*8), DX
	LEAQ (R8)(R13*8), R13

edge:
	CMPQ DX, R13
	JAE  total
	MOVLQSX 0(DX), AX  // to
	MOVLQSX 4(DX), R14 // w
	SHLQ $5, AX
	SHLQ $5, R14
	VMULPD (R11)(R14*1), Y0, Y1
	VADDPD (DI)(AX*1), Y1, Y1
	VMOVUPD Y1, (DI)(AX*1)
	ADDQ $8, DX
	JMP  edge

total:
	// AX = &acc[st.acc]; a[kinds] += pr.
	MOVLQSX 16(SI), AX
	SHLQ $5, AX
	ADDQ R10, AX
	VADDPD 320(AX), Y0, Y1
	VMOVUPD Y1, 320(AX)

	// Held: DX from &held[h0] to &held[h1].
	MOVLQSX 8(SI), DX
	MOVLQSX 12(SI), R13
	SHLQ $4, DX
	SHLQ $4, R13
	ADDQ R9, DX
	ADDQ R9, R13

held:
	CMPQ DX, R13
	JAE  next
	VBROADCASTSD 0(DX), Y1 // m
	MOVQ 8(DX), R14        // r
	SHLQ $5, R14
	VMULPD Y1, Y0, Y1
	VADDPD (AX)(R14*1), Y1, Y1
	VMOVUPD Y1, (AX)(R14*1)
	ADDQ $16, DX
	JMP  held

next:
	ADDQ $24, SI
	ADDQ $32, BX
	JMP  state

done:
	VZEROUPPER
	RET

// func classesAVX2(acc *lane, nc int, gstart []int32, groups []dGroup, masks []uint16, ms *lane, res *[outcomes]lane)
//
// dealerGraph.classes4, four lanes per YMM register. For each class c with
// a = acc[c*(kinds+1):] and t = a[kinds] not 0 in every lane, for each of
// its groups: v = ms[mask] * t, minus a[r] for each kind r of the mask in
// increasing order, added to res[out]; a[kinds] and each a[r] read are
// left zero.
//
// Registers: SI acc of the class, CX classes left, DX gstart, R8 groups,
// R9 masks, R10 ms, R11 res, R12 and R13 the current and end group, AX the
// kinds of the mask, BX and R14 scratch, Y0 t, Y1 v, Y2 zero.
TEXT ·classesAVX2(SB), NOSPLIT, $0-104
	MOVQ acc+0(FP), SI
	MOVQ nc+8(FP), CX
	MOVQ gstart_base+16(FP), DX
	MOVQ groups_base+40(FP), R8
	MOVQ masks_base+64(FP), R9
	MOVQ ms+88(FP), R10
	MOVQ res+96(FP), R11
	VXORPD Y2, Y2, Y2

class:
	TESTQ CX, CX
	JE    cdone
	VMOVUPD 320(SI), Y0 // t = a[kinds]
	VCMPPD $0, Y2, Y0, Y3
	VMOVMSKPD Y3, AX
	CMPL AX, $15
	JEQ  cnext
	VMOVUPD Y2, 320(SI) // cleared as read, as classes4
	MOVLQSX 0(DX), R12
	MOVLQSX 4(DX), R13
	LEAQ (R8)(R12*4), R12
	LEAQ (R8)(R13*4), R13

group:
	CMPQ R12, R13
	JAE  cnext
	MOVWQZX 2(R12), BX // mask index
	MOVWQZX (R9)(BX*2), AX // its kinds
	SHLQ $5, BX
	VMULPD (R10)(BX*1), Y0, Y1

kind:
	TESTQ AX, AX
	JE    kdone
	BSFQ AX, BX
	SHLQ $5, BX
	VSUBPD (SI)(BX*1), Y1, Y1
	VMOVUPD Y2, (SI)(BX*1)
	LEAQ -1(AX), BX
	ANDQ BX, AX
	JMP  kind

kdone:
	MOVBQZX 0(R12), BX // out
	ANDQ $7, BX
	SHLQ $5, BX
	VADDPD (R11)(BX*1), Y1, Y1
	VMOVUPD Y1, (R11)(BX*1)
	ADDQ $4, R12
	JMP  group

cnext:
	ADDQ $352, SI // kinds+1 lanes
	ADDQ $4, DX
	DECQ CX
	JMP  class

cdone:
	VZEROUPPER
	RET

// func cpuid(eaxArg, ecxArg uint32) (eax, ebx, ecx, edx uint32)
TEXT ·cpuid(SB), NOSPLIT, $0-24
	MOVL eaxArg+0(FP), AX
	MOVL ecxArg+4(FP), CX
	CPUID
	MOVL AX, eax+8(FP)
	MOVL BX, ebx+12(FP)
	MOVL CX, ecx+16(FP)
	MOVL DX, edx+20(FP)
	RET

// func xgetbv() (eax, edx uint32)
TEXT ·xgetbv(SB), NOSPLIT, $0-8
	MOVL $0, CX
	XGETBV
	MOVL AX, eax+0(FP)
	MOVL DX, edx+4(FP)
	RET
