package analysis

import (
	"math"
	"math/rand/v2"
	"testing"

	"sabot/rules"
)

// The two dealer computations (the list of final hands and the DAG of draw
// states) are built differently and must agree.
func TestDealerGraphMatchesFinals(t *testing.T) {
	for _, name := range []string{"vegas-s17", "vegas-h17"} {
		p := rules.MustLookup(name)
		for _, decks := range []int{1, 6} {
			p.Decks = decks
			for up := 0; up < kinds; up++ {
				m, g := newDealerModel(p, up), newDealerGraph(p, up)
				s := FullShoe(p)
				s[up]--
				s[3] -= 2 // some removal
				s[tenIdx]--
				var a, b [outcomes]float64
				var scratch []float64
				m.dist(&s, &a)
				g.dist(&s, &b, &scratch)
				sum := 0.0
				for k := range a {
					sum += a[k]
					if math.Abs(a[k]-b[k]) > 1e-13 {
						t.Errorf("%s %d decks up %s outcome %s: finals %.15f graph %.15f", name, decks, kindName[up], outcomeNames[k], a[k], b[k])
					}
				}
				if math.Abs(sum-1) > 1e-12 {
					t.Errorf("%s up %s: probabilities sum to %v", name, kindName[up], sum)
				}
			}
		}
	}
}

// dist4 gives dist's numbers bit for bit, for shoes that run out of a kind
// too.
func TestDealerGraphLanes(t *testing.T) {
	p := rules.MustLookup("family")
	for up := 0; up < kinds; up++ {
		g := newDealerGraph(p, up)
		full := FullShoe(p)
		full[up]--
		shoes := []Counts{full, full, full}
		shoes[1][tenIdx] -= 10
		shoes[2][5], shoes[2][6], shoes[2][aceIdx] = 0, 1, 0
		var outs [3][outcomes]float64
		var scratch dist4Buf
		g.dist4(shoes, []*[outcomes]float64{&outs[0], &outs[1], &outs[2]}, &scratch)
		var buf []float64
		for i := range shoes {
			var want [outcomes]float64
			g.dist(&shoes[i], &want, &buf)
			if want != outs[i] {
				t.Errorf("up %s shoe %d: dist4 %v, dist %v", kindName[up], i, outs[i], want)
			}
		}
	}
}

// The AVX2 kernels (graph_amd64.s) give the Go code's numbers bit for bit:
// every profile's graphs at several deck counts, shoes from full to nearly
// empty, kinds run out, one to four lanes.
func TestStatesAVX2(t *testing.T) {
	if !useAVX2 {
		t.Log("this processor has no AVX2: dist4 runs the Go code only")
		return
	}
	rng := rand.New(rand.NewPCG(17, 2))
	for _, name := range rules.Names() {
		for _, decks := range []int{1, 2, 6, 8} {
			p := rules.MustLookup(name)
			p.Decks = decks
			for up := 0; up < kinds; up++ {
				g := newDealerGraph(p, up)
				full := FullShoe(p)
				full[up]--
				var scratch dist4Buf // one for every trial: dist4 leaves it ready
				for trial := 0; trial < 8; trial++ {
					shoes := make([]Counts, 1+rng.IntN(lanes))
					for i := range shoes {
						shoes[i] = full
						drawn := rng.IntN(full.Total())
						switch trial {
						case 0:
							drawn = 0
						case 1: // fewer cards left than the dealer may draw
							drawn = full.Total() - 1 - rng.IntN(6)
						}
						for shoes[i].Total() > full.Total()-drawn {
							if k := rng.IntN(kinds); shoes[i][k] > 0 {
								shoes[i][k]--
							}
						}
					}
					var got, want [lanes][outcomes]float64
					outs := func(o *[lanes][outcomes]float64) []*[outcomes]float64 {
						var ps []*[outcomes]float64
						for i := range shoes {
							ps = append(ps, &o[i])
						}
						return ps
					}
					g.dist4(shoes, outs(&got), &scratch)
					leftZero(t, g, &scratch)
					useAVX2 = false
					g.dist4(shoes, outs(&want), &scratch)
					leftZero(t, g, &scratch)
					useAVX2 = true
					if got != want {
						t.Fatalf("%s %d decks up %s shoes %v: AVX2 %v, Go %v", name, decks, kindName[up], shoes, got, want)
					}
				}
			}
		}
	}
}

// leftZero checks that dist4 left its probabilities and accumulators zero
// for its next call.
func leftZero(t *testing.T, g *dealerGraph, b *dist4Buf) {
	t.Helper()
	for i, l := range b.lanes[:len(g.states)+g.classes*(kinds+1)] {
		if l != (lane{}) {
			t.Fatalf("dist4 left %v at %d of its probabilities and accumulators", l, i)
		}
	}
}

// FuzzDist4AVX2 compares the AVX2 kernels with the Go code on shoes made
// from the input: a profile, a deck count, an up card, and for each lane
// the cards removed of each kind.
//
//	go test -run '^$' -fuzz FuzzDist4AVX2 ./analysis/
func FuzzDist4AVX2(f *testing.F) {
	f.Add([]byte{4, 6, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0})
	f.Add([]byte{3, 1, 0, 3, 3, 3, 3, 3, 3, 3, 3, 3, 15, 1, 2, 3, 4, 0, 0, 0, 0, 0, 9})
	f.Add([]byte{0, 8, 9, 30, 30, 30, 30, 30, 30, 30, 30, 30, 120})
	f.Fuzz(func(t *testing.T, in []byte) {
		if !useAVX2 || len(in) < 3+kinds {
			return
		}
		names := rules.Names()
		p := rules.MustLookup(names[int(in[0])%len(names)])
		p.Decks = 1 + int(in[1])%8
		up := int(in[2]) % kinds
		full := FullShoe(p)
		if full[up]--; full[up] < 0 {
			return
		}
		var shoes []Counts
		for rest := in[3:]; len(rest) >= kinds && len(shoes) < lanes; rest = rest[kinds:] {
			s := full
			for k := range s {
				s[k] = max(0, s[k]-int(rest[k]))
			}
			shoes = append(shoes, s)
		}
		g := newDealerGraph(p, up)
		var got, want [lanes][outcomes]float64
		gp, wp := make([]*[outcomes]float64, len(shoes)), make([]*[outcomes]float64, len(shoes))
		for i := range shoes {
			gp[i], wp[i] = &got[i], &want[i]
		}
		var scratch dist4Buf
		g.dist4(shoes, gp, &scratch)
		useAVX2 = false
		defer func() { useAVX2 = true }()
		g.dist4(shoes, wp, &scratch)
		for i := range shoes {
			for k := range got[i] {
				if math.Float64bits(got[i][k]) != math.Float64bits(want[i][k]) && !(math.IsNaN(got[i][k]) && math.IsNaN(want[i][k])) {
					t.Fatalf("%s %d decks up %s shoe %v: AVX2 %v, Go %v", p.Name, p.Decks, kindName[up], shoes[i], got[i], want[i])
				}
			}
		}
	})
}

// remTable keeps what a map would, through growth and reset.
func TestRemTable(t *testing.T) {
	var tab remTable
	want := map[pack]int32{}
	rng := rand.New(rand.NewPCG(3, 4))
	for round := 0; round < 3; round++ {
		for i := 0; i < 20000; i++ {
			k := pack(rng.Uint64() & (1<<40 - 1))
			if i%7 == 0 {
				k = pack(i % 50) // small keys, 0 among them
			}
			if _, ok := want[k]; ok {
				continue
			}
			v := int32(rng.IntN(1 << 20))
			want[k] = v
			tab.put(k, v)
		}
		for k, v := range want {
			if got, ok := tab.get(k); !ok || got != v {
				t.Fatalf("round %d key %x: got %d %v, want %d", round, k, got, ok, v)
			}
		}
		if _, ok := tab.get(pack(1 << 45)); ok {
			t.Fatal("a key never stored is found")
		}
		tab.reset()
		clear(want)
		if _, ok := tab.get(0); ok {
			t.Fatal("key 0 found after reset")
		}
	}
}
