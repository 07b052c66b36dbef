package certify

import (
	"bytes"
	"flag"
	"fmt"
	"go/format"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"sabot/rules"
)

// labKit is a kit whose every test ran at a laboratory's size and passed.
func labKit() *Kit {
	p := *rules.MustLookup("venice")
	p.MinBet, p.MaxBet = 10_00, 5_000_00
	k := &Kit{
		Profile:        &p,
		Meta:           Meta{Profile: "venice", Executable: Executable{SHA256: "ab12", Reproducible: true, Build: "go build"}},
		TD:             &Edge{},
		Battery:        &Battery{Decks: 6, Shoes: LabShoes, Tests: []Test{{Name: "position", Pass: true}}},
		LiveBattery:    &Battery{Decks: 6, Shoes: LabShoes, Tests: []Test{{Name: "position", Pass: true}}},
		Dieharder:      &DieharderRun{Tests: []DieharderTest{{Name: "diehard_birthdays", Assessment: "PASSED"}}, Passed: 1},
		DieharderSuite: "full",
		NIST:           &NISTRun{Sequences: LabNIST, Results: []NISTResult{{Test: "frequency", Pass: true}}},
		Sim: &SimCheck{Pass: true, Continuous: SimRun{Rounds: LabRounds, Continuous: true}, Shoe: SimRun{Rounds: LabRounds},
			LabScale: true},
		Scenarios: []ScenarioRun{{Name: "a.json", Agrees: true}},
	}
	k.TD.TD.RTP = 0.99
	return k
}

func status(t *testing.T, k *Kit, topic string) Requirement {
	t.Helper()
	for _, r := range Compliance(k).Requirements {
		if r.Topic == topic {
			return r
		}
	}
	t.Fatalf("no line %q", topic)
	return Requirement{}
}

// TestComplianceDowngradesShrunkTests: a line the kit's own tests support
// says "met" only when its test ran at a laboratory's size; skipped or
// shrunk, it says "partly" and why; failed, "not met".
func TestComplianceDowngradesShrunkTests(t *testing.T) {
	for _, topic := range []string{"RNG: randomness", "Return to player", "Software identification", "Forced outcomes and test mode", "Game rules"} {
		if r := status(t, labKit(), topic); r.Status != "met" {
			t.Errorf("a laboratory's kit: %s is %q (%s)", topic, r.Status, r.How)
		}
	}
	for _, c := range []struct {
		name, topic, status, why string
		change                   func(k *Kit)
	}{
		{"dieharder none", "RNG: randomness", "partly", "dieharder was not run", func(k *Kit) { k.Dieharder, k.DieharderSuite, k.DieharderNote = nil, "", "--dieharder none" }},
		{"dieharder quick", "RNG: randomness", "partly", "a subset", func(k *Kit) { k.DieharderSuite = "quick" }},
		{"100 shoes", "RNG: randomness", "partly", "100 shoes", func(k *Kit) { k.Battery.Shoes = 100 }},
		{"no live path", "RNG: randomness", "partly", "live seeding path", func(k *Kit) { k.LiveBattery = nil }},
		{"live card tests fail", "RNG: randomness", "not met", "", func(k *Kit) { k.LiveBattery.Tests[0].Pass = false }},
		{"no NIST", "RNG: randomness", "partly", "NIST SP 800-22 was not run", func(k *Kit) { k.NIST = nil }},
		{"NIST on 2 sequences", "RNG: randomness", "partly", "2 sequences", func(k *Kit) { k.NIST.Sequences = 2 }},
		{"NIST fails", "RNG: randomness", "not met", "", func(k *Kit) { k.NIST.Results[0].Pass = false }},
		{"card tests fail", "RNG: randomness", "not met", "", func(k *Kit) { k.Battery.Tests[0].Pass = false; k.Battery.Shoes = 100 }},
		{"dieharder fails", "RNG: randomness", "not met", "", func(k *Kit) { k.Dieharder.Failed = 1 }},
		{"no simulation", "Return to player", "partly", "not run", func(k *Kit) { k.Sim = nil }},
		{"short simulation", "Return to player", "partly", "200,000 rounds", func(k *Kit) {
			k.Sim.Continuous.Rounds, k.Sim.Shoe.Rounds, k.Sim.LabScale = 200_000, 200_000, false
		}},
		{"simulation off", "Return to player", "not met", "standard errors", func(k *Kit) { k.Sim.Pass, k.Sim.Z = false, 4.1 }},
		{"binary not reproducible", "Software identification", "partly", "no VCS stamp", func(k *Kit) {
			k.Meta.Executable.Reproducible, k.Meta.Executable.NotWhy = false, "the binary carries no VCS stamp"
		}},
		{"placeholder limits", "Game rules", "partly", "placeholders", func(k *Kit) { k.Profile = rules.MustLookup("venice") }},
		{"no scenarios", "Forced outcomes and test mode", "partly", "0 of 0", func(k *Kit) { k.Scenarios = nil }},
		{"a scenario disagrees", "Forced outcomes and test mode", "partly", "0 of 1", func(k *Kit) { k.Scenarios[0].Agrees = false }},
	} {
		k := labKit()
		c.change(k)
		r := status(t, k, c.topic)
		if r.Status != c.status || !strings.Contains(r.How, c.why) {
			t.Errorf("%s: %s is %q (%s); want %q saying %q", c.name, c.topic, r.Status, r.How, c.status, c.why)
		}
	}
}

// TestCitationsAreTheSeeds: every rule's citation (title, section, point)
// is where its words stand in the seed file: the line begins the
// quotation, the section heading is above it, and the numbered point is
// the nearest above it.
func TestCitationsAreTheSeeds(t *testing.T) {
	dir := "../webapi/testdata/seeds" // the seeds, as internal/webapi TestSeedTexts reads them
	if _, err := os.Stat(dir); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("the seeds (%s): %v", dir, err)
		}
		t.Skip("the seeds are not at " + dir)
	}
	norm := func(s string) string { return strings.Join(strings.Fields(strings.ReplaceAll(s, "*", "")), " ") }
	for id, c := range citations {
		b, err := os.ReadFile(filepath.Join(dir, c.Source))
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(b), "\n")
		if c.Title() == "" || c.Line < 1 || c.Line > len(lines) {
			t.Errorf("%s: %+v: no title or a line outside %s", id, c, c.Source)
			continue
		}
		at := norm(lines[c.Line-1])
		if c.Line < len(lines) {
			at += " " + norm(lines[c.Line])
		}
		if !strings.Contains(at, c.Words) {
			t.Errorf("%s: line %d of %s does not hold %q", id, c.Line, c.Source, c.Words)
		}
		section, point := -1, ""
		for i := c.Line - 1; i >= 0; i-- {
			l := strings.TrimSpace(lines[i])
			if point == "" && section < 0 {
				if f := strings.Fields(strings.TrimPrefix(l, "- ")); len(f) > 0 && strings.HasSuffix(f[0], ")") && strings.Trim(f[0], "0123456789)") == "" {
					point = strings.TrimSuffix(f[0], ")")
				}
			}
			if c.Section != "" && i < c.Line-1 && strings.TrimSuffix(l, ":") == c.Section {
				section = i
				break
			}
		}
		if c.Section != "" && section < 0 {
			t.Errorf("%s: no heading %q above line %d of %s", id, c.Section, c.Line, c.Source)
		}
		// The Argentine seed's point 9) reads "Ocada" (the scan took "9) c"
		// for "O"): AR-12's point is the one between 8) and 10).
		if id == "AR-12" && strings.HasPrefix(strings.TrimSpace(lines[c.Line-1]), "- Ocada") {
			point = "9"
		}
		if c.Point != "" && point != c.Point {
			t.Errorf("%s: the point above line %d is %q, the citation says %q", id, c.Line, point, c.Point)
		}
	}
	if len(citations) < 60 {
		t.Errorf("%d citations", len(citations))
	}
}

// TestRuleTestsAreCurrent: the annexes' table of the tests named by each
// rule ID (ruletests_gen.go) is the module's tests as they are: a test
// renamed, removed or added under a rule ID fails here until the table is
// written again (go test ./internal/certify -run TestRuleTestsAreCurrent
// -update-rule-tests).
func TestRuleTestsAreCurrent(t *testing.T) {
	want := scanRuleTests(t, "../..")
	if *updateRuleTests {
		if err := os.WriteFile("ruletests_gen.go", renderRuleTests(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	for id, ts := range want {
		if !slices.Equal(ts, ruleTests[id]) {
			t.Errorf("%s: the tests named by it are %v; the annexes' table says %v (-update-rule-tests writes it)", id, ts, ruleTests[id])
		}
	}
	for id := range ruleTests {
		if _, ok := want[id]; !ok {
			t.Errorf("%s: the annexes' table names %v; no test is named by it now (-update-rule-tests writes it)", id, ruleTests[id])
		}
	}
}

var updateRuleTests = flag.Bool("update-rule-tests", false, "write ruletests_gen.go from the module's tests")

// ruleTestName is a test named by rule IDs: TestDecisionTimeout_VE06,
// TestShoeOfEachProfile_AR01_VE01_FAM01_EG02_EG03.
var ruleTestName = regexp.MustCompile(`(?m)^func (Test[A-Za-z0-9]*((?:_(?:AR|ES|EG|VE|FAM|PON)[0-9]{2})+))\(`)

// scanRuleTests reads every test file of the module under root and lists,
// by rule ID, the tests named by it as "package TestName", sorted.
func scanRuleTests(t *testing.T, root string) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, filepath.Dir(path))
		pkg := filepath.ToSlash(rel)
		if pkg == "." {
			pkg = "sabot"
		}
		for _, m := range ruleTestName.FindAllStringSubmatch(string(data), -1) {
			for _, raw := range strings.Split(strings.TrimPrefix(m[2], "_"), "_") {
				i := strings.IndexAny(raw, "0123456789")
				id := raw[:i] + "-" + raw[i:]
				out[id] = append(out[id], pkg+" "+m[1])
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for id := range out {
		slices.Sort(out[id])
		out[id] = slices.Compact(out[id])
	}
	return out
}

func renderRuleTests(m map[string][]string) []byte {
	var b bytes.Buffer
	b.WriteString("// Code generated from the tests' names (a test named by a rule ID, e.g. TestDecisionTimeout_VE06); DO NOT EDIT by hand:\n")
	b.WriteString("// TestRuleTestsAreCurrent checks it against the tests and writes it again with -update-rule-tests.\n\npackage certify\n\n")
	b.WriteString("// ruleTests are the tests named by each rule ID: \"package TestName\".\nvar ruleTests = map[string][]string{\n")
	ids := slices.Sorted(maps.Keys(m))
	for _, id := range ids {
		fmt.Fprintf(&b, "\t%q: {", id)
		for i, pt := range m[id] {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "%q", pt)
		}
		b.WriteString("},\n")
	}
	b.WriteString("}\n")
	src, err := format.Source(b.Bytes())
	if err != nil {
		panic(err)
	}
	return src
}

// TestJurisdictionAnnexMapsEveryRule: the annex has a line for every rule
// of the profile's regulation, cited by title, section and point; a
// scenario that agrees is evidence for the rules its name cites, one that
// disagrees is not.
func TestJurisdictionAnnexMapsEveryRule(t *testing.T) {
	k := labKit()
	k.Scenarios = []ScenarioRun{{Name: "venice-ve-06-ve-15-stand-on-21.json", Agrees: true}, {Name: "venice-ve-18-below.json", Agrees: false}}
	a := JurisdictionAnnex(k)
	if a == nil || !strings.Contains(a.Regulator, "ADM") || len(a.Regulation) != 1 || !strings.Contains(a.Regulation[0], "Come si gioca") {
		t.Fatalf("annex: %+v", a)
	}
	rows := map[string]AnnexRow{}
	for _, r := range a.Rows {
		rows[r.Rule] = r
		if !strings.HasPrefix(r.Citation, "«Black Jack — Come si gioca (Casinò di Venezia)»") {
			t.Errorf("%s cited as %q", r.Rule, r.Citation)
		}
	}
	for _, id := range []string{"VE-01", "VE-06", "VE-15", "VE-18", "VE-22"} {
		if _, ok := rows[id]; !ok {
			t.Errorf("no line for %s", id)
		}
	}
	if r := rows["VE-06"]; r.Status != "shown" || len(r.Scenarios) != 1 || r.Citation != "«Black Jack — Come si gioca (Casinò di Venezia)», Il tavolo da gioco" {
		t.Errorf("VE-06: %+v", r)
	}
	if r := rows["VE-18"]; len(r.Scenarios) != 0 {
		t.Errorf("VE-18: a scenario that disagrees is evidence: %+v", r)
	}
	if p := rules.MustLookup("vegas-s17"); JurisdictionAnnex(&Kit{Profile: p}) != nil {
		t.Error("a reference profile has an annex")
	}
	ar := rules.MustLookup("argentina")
	for _, r := range JurisdictionAnnex(&Kit{Profile: ar}).Rows {
		if r.Rule == "AR-04" && r.Citation != "«Reglamento del juego \"Black Jack\"», DESARROLLO DEL JUEGO, n. 2" {
			t.Errorf("AR-04 cited as %q", r.Citation)
		}
	}
}
