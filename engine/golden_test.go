package engine

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"sabot/card"
	"sabot/rules"
	"sabot/shoe"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// TestDealOrderGolden pins the deal order for fixed seeds: the shoe's shuffle,
// cut, cut card and burns (AR-07, AR-08, EG-02, EG-03), then the order in
// which cards reach boxes and dealer in each profile (AR-09, ES-12, VE-05).
// A change to any of them shows as a diff; `go test ./engine -update`
// rewrites the files after a deliberate change.
func TestDealOrderGolden(t *testing.T) {
	for _, name := range rules.Names() {
		t.Run(name, func(t *testing.T) {
			p := rules.MustLookup(name)
			var out bytes.Buffer
			for _, seed := range []uint64{1, 2} {
				s := shoe.New(p.Decks, shoe.SeedFromUint64(seed))
				burned, err := s.Prepare(p.ShoeProcedure(), 0)
				if err != nil {
					t.Fatal(err)
				}
				fmt.Fprintf(&out, "seed %d: burned [%s], %d cards left\n", seed, card.Format(burned), s.Remaining())
				r := New(p)
				for round := 1; round <= 3; round++ {
					r.Reset(s)
					r.PlaceBet("ana", 1, 100)
					r.PlaceBet("bo", 2, 100)
					r.Start()
					mustPlay(t, r, simple)
					fmt.Fprintf(&out, "round %d:", round)
					for _, e := range r.Events() {
						switch e.Kind {
						case EvCard:
							who := "dealer"
							if e.Box > 0 {
								who = fmt.Sprintf("%d/%d", e.Box, e.Hand)
							}
							down := ""
							if e.FaceDown {
								down = "(down)"
							}
							fmt.Fprintf(&out, " %s:%s%s", who, e.Card, down)
						case EvAction:
							fmt.Fprintf(&out, " [%s]", e.Action)
						}
					}
					nets, _ := r.Net()
					fmt.Fprintf(&out, " => ana %d bo %d\n", nets["ana"], nets["bo"])
				}
			}
			path := filepath.Join("testdata", "deal-order-"+name+".golden")
			if *update {
				if err := os.WriteFile(path, out.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test ./engine -update to create it)", err)
			}
			if !bytes.Equal(out.Bytes(), want) {
				t.Errorf("deal order differs from %s:\ngot:\n%s\nwant:\n%s", path, out.Bytes(), want)
			}
		})
	}
}
