package scenario

import (
	"bytes"
	"encoding/json"
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

var writeContract = flag.Bool("write-contract", false, "rewrite testdata/contract from the rule tests' rounds")

// contractFile is a scenario file with its expectation, in the format of
// shared/scenarios (checked there by check-scenarios.py as well).
type contractFile struct {
	Profile   string         `json:"profile"`
	Options   map[string]any `json:"options,omitempty"`
	Cards     string         `json:"cards"`
	Bets      []Bet          `json:"bets"`
	Decisions []Decision     `json:"decisions"`
	Expect    map[string]any `json:"expect"`
}

// TestContractFiles plays every file of testdata/contract and checks its
// expectation. The files are the rule tests' rounds written out with
// -write-contract, so that CI also checks them through the binary.
func TestContractFiles(t *testing.T) {
	if *writeContract {
		writeContractFiles(t)
	}
	files, _ := filepath.Glob(filepath.Join("testdata", "contract", "*.json"))
	if len(files) < 20 {
		t.Fatalf("only %d contract files (go test ./scenario -write-contract)", len(files))
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var doc struct {
			Expect struct {
				Net         map[string]int64 `json:"net"`
				DealerTotal *int             `json:"dealer_total"`
				Error       bool             `json:"error"`
				Void        *bool            `json:"void"`
			} `json:"expect"`
		}
		if err := json.Unmarshal(data, &doc); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		in, err := Parse(data)
		var out *Output
		if err == nil {
			p, perr := in.ResolveProfile("")
			if err = perr; err == nil {
				out, err = Run(in, p)
			}
		}
		name := filepath.Base(f)
		if doc.Expect.Error {
			if err == nil {
				t.Errorf("%s: want an error", name)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		for k, v := range doc.Expect.Net {
			if out.Net[k] != v {
				t.Errorf("%s: net[%s] %d, want %d", name, k, out.Net[k], v)
			}
		}
		if doc.Expect.DealerTotal != nil && out.Dealer.Total != *doc.Expect.DealerTotal {
			t.Errorf("%s: dealer %d, want %d", name, out.Dealer.Total, *doc.Expect.DealerTotal)
		}
		if doc.Expect.Void != nil && out.Void != *doc.Expect.Void {
			t.Errorf("%s: void %v", name, out.Void)
		}
	}
}

func writeContractFiles(t *testing.T) {
	dir := filepath.Join("testdata", "contract")
	os.MkdirAll(dir, 0o755)
	all := [][]round{argentinaRounds, spainRounds, veniceRounds, familyRounds, vegasRounds}
	for _, rounds := range all {
		for _, rd := range rounds {
			in := rd.input(t)
			f := contractFile{Profile: rd.profile, Options: rd.options, Cards: rd.cards, Bets: in.Bets, Decisions: in.Decisions, Expect: map[string]any{}}
			if f.Decisions == nil {
				f.Decisions = []Decision{}
			}
			if rd.err != "" {
				f.Expect["error"] = true
			} else {
				if rd.net != "" {
					net := map[string]int64{}
					for _, kv := range strings.Fields(rd.net) {
						k, v, _ := strings.Cut(kv, "=")
						n, _ := strconv.ParseInt(v, 10, 64)
						net[k] = n
					}
					f.Expect["net"] = net
				}
				if rd.dealer != 0 {
					f.Expect["dealer_total"] = rd.dealer
				}
				if rd.void {
					f.Expect["void"] = true
				}
				if len(f.Expect) == 0 {
					continue
				}
			}
			b, _ := json.MarshalIndent(f, "", "  ")
			name := slug(rd.profile + "-" + rd.name)
			if err := os.WriteFile(filepath.Join(dir, name+".json"), append(b, '\n'), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}

func slug(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
			dash = false
		} else if !dash {
			b.WriteByte('-')
			dash = true
		}
	}
	return strings.Trim(b.String(), "-")
}

// The contract built into the binary is the folder's, file for file.
func TestContractEmbedded(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "contract", "*.json"))
	if err != nil || len(files) < 100 {
		t.Fatalf("contract: %d files, %v", len(files), err)
	}
	for _, f := range files {
		want, _ := os.ReadFile(f)
		got, err := fs.ReadFile(Contract(), filepath.Base(f))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s: embedded copy differs (%v)", f, err)
		}
	}
}
