package analysis

import "unsafe"

// useAVX2 selects statesAVX2 for dist4's forward pass: the processor has
// AVX2 and the operating system saves its registers.
var useAVX2 = hasAVX2()

func hasAVX2() bool {
	if max, _, _, _ := cpuid(0, 0); max < 7 {
		return false
	}
	_, _, c, _ := cpuid(1, 0)
	const osxsave, avx = 1 << 27, 1 << 28
	if c&osxsave == 0 || c&avx == 0 {
		return false
	}
	if eax, _ := xgetbv(); eax&6 != 6 { // XMM and YMM state enabled
		return false
	}
	_, b, _, _ := cpuid(7, 0)
	return b&(1<<5) != 0
}

// setupAVX2 is dealerGraph.setup4 in 256-bit instructions (graph_amd64.s):
// the counts are converted once and summed as float64s, exact.
//
//go:noescape
func setupAVX2(sh *[lanes]*Counts, masks []uint16, ms *lane, heldMax *[kinds]int, stride int, w, inv *lane, ninv int)

// statesAVX2 is dealerGraph.states4 with one 256-bit instruction per four
// lanes (graph_amd64.s). It reads the graph's indices unchecked: the graph
// is built consistent (newDealerGraph, TestStatesAVX2), and prob, acc, w
// and inv are dist4's slices of the sizes it computes.
//
//go:noescape
func statesAVX2(states []dState, edges []dEdge, held []dHeld, prob, acc, w, inv *lane)

// classesAVX2 is dealerGraph.classes4 in 256-bit instructions
// (graph_amd64.s), its indices unchecked as statesAVX2's.
//
//go:noescape
func classesAVX2(acc *lane, nc int, gstart []int32, groups []dGroup, masks []uint16, ms *lane, res *[outcomes]lane)

func cpuid(eaxArg, ecxArg uint32) (eax, ebx, ecx, edx uint32)

func xgetbv() (eax, edx uint32)

// The assembly reads these layouts at fixed offsets: a change to the
// structs fails to compile here.
const (
	_ = -uint(unsafe.Sizeof(dState{}) ^ 24)
	_ = -uint(unsafe.Offsetof(dState{}.e1) ^ 4)
	_ = -uint(unsafe.Offsetof(dState{}.h0) ^ 8)
	_ = -uint(unsafe.Offsetof(dState{}.h1) ^ 12)
	_ = -uint(unsafe.Offsetof(dState{}.acc) ^ 16)
	_ = -uint(unsafe.Offsetof(dState{}.size) ^ 20)
	_ = -uint(unsafe.Sizeof(dEdge{}) ^ 8)
	_ = -uint(unsafe.Offsetof(dEdge{}.w) ^ 4)
	_ = -uint(unsafe.Sizeof(dHeld{}) ^ 16)
	_ = -uint(unsafe.Offsetof(dHeld{}.r) ^ 8)
	_ = -uint(unsafe.Sizeof(lane{}) ^ 32)
	_ = -uint(unsafe.Sizeof(dGroup{}) ^ 4)
	_ = -uint(unsafe.Offsetof(dGroup{}.mask) ^ 2)
	_ = -uint(outcomes ^ 8)
	_ = -uint(kinds ^ 10)
)
