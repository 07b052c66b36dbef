package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"sabot/rules"
)

func runCmd(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := Run(context.Background(), args, strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

// runSub runs the CLI as a subprocess (the test binary, TestMain's
// runMainEnv): the analyses it makes stay out of this process's analysis
// cache, which other tests (TestEdgeText's progress) expect cold.
func runSub(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	return runSubIn(t, "", args...)
}

// runSubIn is runSub in the folder dir ("": this one).
func runSubIn(t *testing.T, dir string, args ...string) (int, string, string) {
	t.Helper()
	a, _ := json.Marshal(args)
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), runMainEnv+"="+string(a))
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Fatal(err)
	}
	return cmd.ProcessState.ExitCode(), out.String(), errb.String()
}

// TestCertifyKit makes the kit of every built-in profile (in a subprocess,
// as `sabot edge` below) with a small simulation and no dieharder (internal/certify's TestDieharder runs its
// short subset) and checks it: every file of the manifest is there with its
// SHA-256; the PAR sheet's figures are `sabot edge`'s, byte for byte
// (edge-td.json, edge-cd.json) and number for number (par-sheet.json); the
// PDFs are PDFs; the rules are written in the seed's language; every
// scenario agrees; the checks pass.
func TestCertifyKit(t *testing.T) {
	t.Parallel()
	for _, name := range rules.Names() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			// Sizes that make every file of the kit, not a laboratory's:
			// nothing here reads the figures' precision (the simulation's
			// check and the card tests hold at any size; internal/certify
			// tests them), and six kits of 200,000 rounds and 2,000 shoes
			// took 560 s of a busy two-core machine.
			code, out, errs := runSub(t, "certify", name, "--out", dir, "--rounds", "20000", "--shoes", "400", "--nist", "2", "--live-shoes", "0",
				"--dieharder", "none", "--seed", "11", "--scenarios", "../../scenario/testdata/contract")
			if code != 0 {
				t.Fatalf("exit %d: %s\n%s", code, errs, out)
			}
			var man struct {
				Profile     string `json:"profile"`
				ProfileHash string `json:"profile_hash"`
				Seed        string `json:"seed"`
				Files       []struct {
					Path   string `json:"path"`
					SHA256 string `json:"sha256"`
				} `json:"files"`
			}
			readJSON(t, filepath.Join(dir, "manifest.json"), &man)
			if man.Profile != name || man.ProfileHash != rules.MustLookup(name).Hash() || len(man.Seed) != 64 {
				t.Errorf("manifest: %+v", man)
			}
			have := map[string]bool{}
			for _, f := range man.Files {
				b, err := os.ReadFile(filepath.Join(dir, f.Path))
				if err != nil {
					t.Fatal(err)
				}
				h := sha256.Sum256(b)
				if hex.EncodeToString(h[:]) != f.SHA256 {
					t.Errorf("%s: SHA-256 differs from the manifest's", f.Path)
				}
				if strings.HasSuffix(f.Path, ".pdf") && (!bytes.HasPrefix(b, []byte("%PDF-")) || !bytes.Contains(b, []byte("%%EOF"))) {
					t.Errorf("%s is not a PDF", f.Path)
				}
				have[f.Path] = true
			}
			want := []string{"par-sheet.pdf", "par-sheet.json", "edge-td.json", "edge-cd.json", "strategy.csv", "rules-en.html", "rules-en.pdf",
				"randomness.json", "randomness.pdf", "simulation.json", "scenarios.json", "compliance.json", "compliance.html", "compliance.pdf"}
			if lang := map[string]string{"argentina": "es", "spain": "es", "family": "es", "venice": "it"}[name]; lang != "" {
				want = append(want, "rules-"+lang+".html", "rules-"+lang+".pdf", "annex.json", "annex.html", "annex.pdf")
			}
			for _, w := range want {
				if !have[w] {
					t.Errorf("the kit lacks %s", w)
				}
			}

			// The figures are edge's.
			var edgeTD string
			for _, c := range []struct {
				file string
				args []string
			}{{"edge-td.json", []string{"edge", name, "--json"}}, {"edge-cd.json", []string{"edge", name, "--strategy", "cd", "--json"}}} {
				code, edge, errs := runSub(t, c.args...)
				if code != 0 {
					t.Fatalf("%v: exit %d: %s", c.args, code, errs)
				}
				if c.file == "edge-td.json" {
					edgeTD = edge
				}
				kit, _ := os.ReadFile(filepath.Join(dir, c.file))
				if string(kit) != edge {
					t.Errorf("%s differs from `sabot %s`", c.file, strings.Join(c.args, " "))
				}
			}
			var edge, par map[string]any
			json.Unmarshal([]byte(edgeTD), &edge)
			readJSON(t, filepath.Join(dir, "par-sheet.json"), &par)
			td := par["td"].(map[string]any)
			for _, k := range []string{"rtp", "house_edge", "ev", "house_edge_td", "house_edge_cd"} {
				if td[k] != edge[k] {
					t.Errorf("par-sheet.json td.%s = %v, edge says %v", k, td[k], edge[k])
				}
			}
			// The contributions add up to edge's EV (the lines of a profile's
			// own bets are included in those above them).
			sum := 0.0
			for _, c := range par["contributions_td"].([]any) {
				m := c.(map[string]any)
				if note, _ := m["note"].(string); !strings.HasPrefix(note, "the option's effect") {
					sum += m["contribution"].(float64)
				}
			}
			if ev := edge["ev"].(float64); abs(sum-ev) > 1e-12 {
				t.Errorf("the contributions add up to %v, edge's EV is %v", sum, ev)
			}
			// The distribution of a round's net sums to 1 and its mean is
			// edge's EV, td and cd.
			net, _ := par["net_result"].(map[string]any)
			for _, s := range []string{"td", "cd"} {
				d, _ := net[s].(map[string]any)
				outs, _ := d["outcomes"].([]any)
				mass, mean := 0.0, 0.0
				for _, o := range outs {
					m := o.(map[string]any)
					mass += m["p"].(float64)
					mean += m["p"].(float64) * m["net"].(float64)
				}
				if ev := edge[s].(map[string]any)["ev"].(float64); len(outs) < 6 || abs(mass-1) > 1e-12 || abs(mean-ev) > 1e-12 {
					t.Errorf("par-sheet.json net_result.%s: %d outcomes, their probabilities sum to %v, their mean %v, edge's EV %v", s, len(outs), mass, mean, ev)
				}
			}

			// The PDF prints them: its text (poppler's pdftotext) holds edge's
			// RTP and house edge, td and cd.
			if _, err := exec.LookPath("pdftotext"); err != nil && os.Getenv("CI") == "" {
				t.Skip("pdftotext is not installed (apt-get install poppler-utils): the PDF's text is not read back here; CI (.ci/run) reads it")
			}
			text, err := exec.Command("pdftotext", filepath.Join(dir, "par-sheet.pdf"), "-").Output()
			if err != nil {
				t.Fatalf("pdftotext (Debian's poppler-utils, which .ci/run installs): %v", err)
			}
			for _, k := range []string{"rtp", "house_edge"} {
				for _, s := range []string{"td", "cd"} {
					v := edge[s].(map[string]any)[k].(float64)
					if want := fmt.Sprintf("%.4f %%", 100*v); !strings.Contains(string(text), want) {
						t.Errorf("par-sheet.pdf lacks edge's %s %s, %s", s, k, want)
					}
				}
			}

			// The randomness report has the card tests (the live path's not
			// asked: crypto/rand's are not repeatable, and at α = 0.001 one of
			// the 81 tests of nine kits would fail a run in twelve;
			// internal/certify TestLiveShoesPassTheCardTests runs them) and
			// NIST SP 800-22's 15 tests in their 188 lines (each template, state
			// and statistic its own).
			var rnd struct {
				Tests []struct{ Name string } `json:"card_tests"`
				Live  []struct{ Name string } `json:"card_tests_live"`
				NIST  *struct {
					Sequences int               `json:"sequences"`
					Results   []json.RawMessage `json:"results"`
				} `json:"nist_sp800_22"`
			}
			readJSON(t, filepath.Join(dir, "randomness.json"), &rnd)
			if len(rnd.Live) != 0 || len(rnd.Tests) < 8 || rnd.NIST == nil || rnd.NIST.Sequences != 2 || len(rnd.NIST.Results) != 188 { // certify.NISTLines
				t.Errorf("randomness.json: %d card tests, %d on the live path, NIST %+v", len(rnd.Tests), len(rnd.Live), rnd.NIST)
			}

			var sc struct {
				Scenarios, Agree int
			}
			readJSON(t, filepath.Join(dir, "scenarios.json"), &sc)
			if sc.Scenarios == 0 || sc.Agree != sc.Scenarios {
				t.Errorf("scenarios: %d of %d agree", sc.Agree, sc.Scenarios)
			}
			if lang := map[string]string{"argentina": "es", "venice": "it"}[name]; lang != "" {
				b, _ := os.ReadFile(filepath.Join(dir, "rules-"+lang+".html"))
				word := map[string]string{"es": "Reglamento del juego", "it": "Regolamento del gioco"}[lang]
				if !strings.Contains(string(b), word) || !strings.Contains(string(b), "«") {
					t.Errorf("rules-%s.html: no title in the seed's language or no quotation of the seed", lang)
				}
				// The regulation is cited by its title and section, not by a
				// file name; the limits are stated, and said to be
				// placeholders (the kit is made with the profile's defaults).
				cite := map[string]string{"es": "«Reglamento del juego &#34;Black Jack&#34;», DESARROLLO DEL JUEGO, n. 2", "it": "«Black Jack — Come si gioca (Casinò di Venezia)», REGOLE GENERALI"}[lang]
				if !strings.Contains(string(b), cite) || strings.Contains(string(b), ".txt") {
					t.Errorf("rules-%s.html: the regulation is not cited as %s, or a seed file is named", lang, cite)
				}
				if !strings.Contains(string(b), "1.000.000,00") || !strings.Contains(string(b), map[string]string{"es": "límites provisionales", "it": "limiti provvisori"}[lang]) {
					t.Errorf("rules-%s.html: the limits are not stated as placeholders", lang)
				}
			}
		})
	}
}

// TestCertifyRefused: bad input exits 2 with one line.
func TestCertifyRefused(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	os.WriteFile(file, nil, 0o644)
	for _, args := range [][]string{
		{"certify", "vegas-s17"},
		{"certify", "nowhere", "--out", dir},
		{"certify", "vegas-s17", "--out", dir, "--dieharder", "some"},
		{"certify", "vegas-s17", "--out", dir, "--seed", "xyz"},
		{"certify", "vegas-s17", "--out", dir, "--shoes", "3"},
		{"certify", "vegas-s17", "--out", dir, "--nist", "-1"},
		{"certify", "vegas-s17", "--out", dir, "--live-shoes", "5"},
		{"certify", "vegas-s17", "--out", file},
		{"certify", "vegas-s17", "-o", "decks=0", "--out", dir},
		{"certify", "rng"},
	} {
		code, _, errs := runCmd(t, args...)
		if code != 2 || errs == "" || strings.Count(strings.TrimSpace(errs), "\n") != 0 {
			t.Errorf("%v: exit %d, stderr %q: want 2 and one line", args, code, errs)
		}
	}
}

// TestCertifyRNG: `sabot certify rng` writes the shoe generator's stream.
func TestCertifyRNG(t *testing.T) {
	t.Parallel()
	code, a, _ := runCmd(t, "certify", "rng", "--seed", "7", "--bytes", "64")
	_, b, _ := runCmd(t, "certify", "rng", "--seed", "7", "--bytes", "32")
	if code != 0 || len(a) != 64 || a[:32] != b {
		t.Errorf("exit %d, %d bytes", code, len(a))
	}
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

// Run outside the repository, `sabot certify` finds the contract's
// scenarios built into the binary (it wrote "scenarios: 0 of 0"); given a
// folder with none of the profile's, it refuses to write a kit without
// them, unless told --scenarios none.
func TestCertifyFindsTheContractAnywhere(t *testing.T) {
	t.Parallel()
	elsewhere, out := t.TempDir(), t.TempDir()
	n := 0
	files, _ := filepath.Glob("../../scenario/testdata/contract/vegas-s17-*.json")
	for _, f := range files {
		b, _ := os.ReadFile(f)
		if strings.Contains(string(b), `"profile": "vegas-s17"`) {
			n++
		}
	}
	if n == 0 {
		t.Fatal("no vegas-s17 scenario in the contract")
	}
	code, stdout, errs := runSubIn(t, elsewhere, "certify", "vegas-s17", "--out", out, "--rounds", "0", "--shoes", "100", "--nist", "2", "--live-shoes", "0", "--dieharder", "none", "--seed", "11")
	if want := fmt.Sprintf("scenarios: %d of %d agree", n, n); code != 0 || !strings.Contains(stdout, want) {
		t.Errorf("exit %d, stdout %q, stderr %q: want %q", code, stdout, errs, want)
	}
	var sc struct {
		Dirs []string `json:"dirs"`
	}
	readJSON(t, filepath.Join(out, "scenarios.json"), &sc)
	if len(sc.Dirs) != 1 || !strings.Contains(sc.Dirs[0], "built into sabot") {
		t.Errorf("scenarios.json names %q", sc.Dirs)
	}
	code, _, errs = runCmd(t, "certify", "vegas-s17", "--out", t.TempDir(), "--scenarios", elsewhere)
	// The refusal is one line, the last (a note on the binary's build may
	// come before it).
	lines := strings.Split(strings.TrimSpace(errs), "\n")
	if last := lines[len(lines)-1]; code != 2 || !strings.HasPrefix(last, "certify: no forced-card scenario of profile vegas-s17") {
		t.Errorf("a folder without the profile's scenarios: exit %d, stderr %q", code, errs)
	}
}
