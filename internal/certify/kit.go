package certify

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"sabot/analysis"
	"sabot/rules"
)

// Meta is what the kit says of itself: the binary, the source, the profile,
// when and how it was made.
type Meta struct {
	Profile     string `json:"profile"`
	Description string `json:"description"`
	ProfileHash string `json:"profile_hash"` // rules.Profile.Hash: every option
	GameHash    string `json:"game_hash"`    // rules.Profile.GameHash: the options that change a round
	Version     string `json:"version"`
	Commit      string `json:"source_commit"`
	CommitTime  string `json:"source_commit_time,omitempty"`
	CommitFrom  string `json:"source_commit_from"` // the binary's own build information (its VCS stamp)
	Modified    bool   `json:"source_modified"`
	Go          string `json:"go"`
	// Executable is the binary that made the kit, as it knows itself.
	Executable Executable `json:"executable"`
	Created    time.Time  `json:"created"`
	Command    string     `json:"command"` // the command line that made the kit
	Seed       string     `json:"seed"`    // the master seed of the randomness tests and the simulation (hex)
}

// Executable identifies the binary that made a kit: its own SHA-256, its
// Go build settings (runtime/debug.BuildInfo) and whether it is the
// documented reproducible build of a clean commit, with the command that
// rebuilds it.
type Executable struct {
	SHA256       string            `json:"sha256"`
	Bytes        int64             `json:"bytes"`
	Settings     map[string]string `json:"build_settings"`
	Reproducible bool              `json:"reproducible"`
	NotWhy       string            `json:"reproducible_not,omitempty"`
	Build        string            `json:"build_command"` // run at Commit with the Go release Go
}

// Identified reports whether the kit names a binary a laboratory can
// rebuild byte for byte: a VCS stamp of a clean commit, the documented
// build, and the executable's hash.
func (m Meta) Identified() bool { return m.Executable.Reproducible && m.Executable.SHA256 != "" }

// SimRun is one simulation of the kit.
type SimRun struct {
	Rounds     int64      `json:"rounds"`
	Continuous bool       `json:"continuous"`
	EV         float64    `json:"ev"`
	SE         float64    `json:"se"`
	CI95       [2]float64 `json:"ci95"`
	SD         float64    `json:"sd"` // per round played, in units
	Command    string     `json:"command"`
}

// SimCheck is the simulation check: the return by simulation against the
// exact figure, and the cut card's effect.
type SimCheck struct {
	Strategy string  `json:"strategy"`
	Exact    float64 `json:"exact_ev_td"` // edge's td EV
	// Continuous deals every round from a full shoe (a continuous
	// shuffler), the exact analysis's model; Shoe deals the profile's
	// shoe procedure, cut card and burns.
	Continuous SimRun  `json:"continuous"`
	Shoe       SimRun  `json:"shoe"`
	Z          float64 `json:"z"` // (continuous − exact) / SE
	Pass       bool    `json:"pass"`
	// CutCardEffect is the shoe's EV less the exact, with its SE.
	CutCardEffect   float64 `json:"cut_card_effect"`
	CutCardEffectSE float64 `json:"cut_card_effect_se"`
	LabScale        bool    `json:"lab_scale"` // at least 10⁹ rounds each
}

// SimZLimit is the simulation check's bound on |z|: 3.29, a two-sided 99.9 %
// interval of the exact figure.
const SimZLimit = 3.29

// ScenarioRun is one forced-card scenario run through the engine.
type ScenarioRun struct {
	Name    string          `json:"name"`
	Source  string          `json:"source"`
	Input   json.RawMessage `json:"input"`
	Output  json.RawMessage `json:"output,omitempty"`
	Refused string          `json:"refused,omitempty"`
	Expect  json.RawMessage `json:"expect,omitempty"`
	Agrees  bool            `json:"agrees"`
	Detail  string          `json:"detail,omitempty"`
}

// Kit is a certification kit for one profile.
type Kit struct {
	Meta           Meta
	Profile        *rules.Profile
	EdgeTD         []byte // `sabot edge PROFILE --json`
	EdgeCD         []byte // `sabot edge PROFILE --strategy cd --json`
	TD, CD         *Edge
	Contributions  []Contribution
	Net            *analysis.NetResult // the distribution of a round's net; nil: not computed
	StrategyCSV    string
	Sim            *SimCheck
	Battery        *Battery // the card tests, seeds from the master seed (rerun)
	LiveBattery    *Battery // the same, seeds from crypto/rand (the live path)
	BatteryCmd     string
	NIST           *NISTRun      // nil: not run
	Dieharder      *DieharderRun // nil: not run (DieharderNote says why)
	DieharderSuite string        // full (-a) or quick
	DieharderNote  string
	Scenarios      []ScenarioRun
	ScenarioDirs   []string
}

// File is one file of the kit with its SHA-256.
type File struct {
	Path   string `json:"path"`
	SHA256 string `json:"sha256"`
	Bytes  int    `json:"bytes"`
	What   string `json:"what"`
}

// Write writes the kit to dir and returns its files, the manifest last.
func (k *Kit) Write(dir string) ([]File, error) {
	if err := os.MkdirAll(filepath.Join(dir, "scenarios"), 0o755); err != nil {
		return nil, err
	}
	var files []File
	put := func(name, what string, data []byte) error {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			return err
		}
		h := sha256.Sum256(data)
		files = append(files, File{Path: name, SHA256: hex.EncodeToString(h[:]), Bytes: len(data), What: what})
		return nil
	}
	js := func(v any) []byte {
		b, _ := json.MarshalIndent(v, "", "  ")
		return append(b, '\n')
	}
	steps := []func() error{
		func() error {
			return put("edge-td.json", "`sabot edge PROFILE --json`: the exact analysis, basic strategy", k.EdgeTD)
		},
		func() error {
			return put("edge-cd.json", "`sabot edge PROFILE --strategy cd --json`: the exact analysis, composition-dependent play", k.EdgeCD)
		},
		func() error {
			return put("strategy.csv", "the basic strategy card (`sabot strategy PROFILE --format csv`)", []byte(k.StrategyCSV))
		},
		func() error { return put("par-sheet.json", "the PAR sheet's figures", js(k.parJSON())) },
		func() error {
			b, err := k.parPDF()
			if err != nil {
				return err
			}
			return put("par-sheet.pdf", "the PAR sheet", b)
		},
	}
	for _, lang := range k.languages() {
		lang := lang
		steps = append(steps, func() error {
			doc, err := k.rulesDoc(lang)
			if err != nil {
				return err
			}
			if err := put("rules-"+lang+".html", "the rules document ("+langName[lang]+"), HTML", []byte(doc.HTML())); err != nil {
				return err
			}
			b, err := doc.PDF(k.Meta)
			if err != nil {
				return err
			}
			return put("rules-"+lang+".pdf", "the rules document ("+langName[lang]+"), PDF", b)
		})
	}
	steps = append(steps,
		func() error { return put("randomness.json", "the randomness tests' results", js(k.randomnessJSON())) },
		func() error {
			b, err := k.randomnessPDF()
			if err != nil {
				return err
			}
			return put("randomness.pdf", "the randomness report", b)
		},
	)
	if k.Dieharder != nil {
		steps = append(steps, func() error {
			return put("dieharder.txt", "dieharder's own report on the shoe generator's raw output", []byte(k.Dieharder.Output))
		})
	}
	if k.Sim != nil {
		steps = append(steps, func() error { return put("simulation.json", "the simulation check", js(k.Sim)) })
	}
	steps = append(steps, func() error {
		for _, s := range k.Scenarios {
			if err := put("scenarios/"+s.Name, "a forced-card scenario: input, output, expectation ("+s.Source+")", js(s)); err != nil {
				return err
			}
		}
		return put("scenarios.json", "the forced-card scenarios' summary", js(k.scenarioSummary()))
	}, func() error {
		m := Compliance(k)
		if err := put("compliance.json", "the compliance matrix (GLI-19, GLI-11)", js(m)); err != nil {
			return err
		}
		if err := put("compliance.html", "the compliance matrix, HTML", []byte(ComplianceHTML(k.Meta, m))); err != nil {
			return err
		}
		b, err := CompliancePDF(k.Meta, m)
		if err != nil {
			return err
		}
		if err := put("compliance.pdf", "the compliance matrix, PDF", b); err != nil {
			return err
		}
		a := JurisdictionAnnex(k)
		if a == nil {
			return nil
		}
		if err := put("annex.json", "the jurisdiction annex: each requirement of the regulation and its evidence", js(a)); err != nil {
			return err
		}
		if err := put("annex.html", "the jurisdiction annex, HTML", []byte(AnnexHTML(k.Meta, a))); err != nil {
			return err
		}
		b, err = AnnexPDF(k.Meta, a)
		if err != nil {
			return err
		}
		return put("annex.pdf", "the jurisdiction annex, PDF", b)
	})
	for _, s := range steps {
		if err := s(); err != nil {
			return nil, err
		}
	}
	sort.Slice(files, func(i, j int) bool { return files[i].Path < files[j].Path })
	// The manifest lists every file but itself and SHA256SUMS; SHA256SUMS
	// covers every file, the manifest included: one checksum file for all.
	man := struct {
		Format string `json:"format"`
		Meta
		Files []File `json:"files"`
	}{"sabot-certification-kit/2", k.Meta, files}
	mb := js(man)
	if err := os.WriteFile(filepath.Join(dir, "manifest.json"), mb, 0o644); err != nil {
		return nil, err
	}
	mh := sha256.Sum256(mb)
	all := append(append([]File(nil), files...), File{Path: "manifest.json", SHA256: hex.EncodeToString(mh[:]), Bytes: len(mb)})
	sort.Slice(all, func(i, j int) bool { return all[i].Path < all[j].Path })
	var sums strings.Builder
	for _, f := range all {
		fmt.Fprintf(&sums, "%s  %s\n", f.SHA256, f.Path)
	}
	if err := os.WriteFile(filepath.Join(dir, "SHA256SUMS"), []byte(sums.String()), 0o644); err != nil {
		return nil, err
	}
	return files, nil
}

func (k *Kit) parJSON() any {
	return struct {
		Profile       string         `json:"profile"`
		ProfileHash   string         `json:"profile_hash"`
		TD            *Edge          `json:"td"`
		CD            *Edge          `json:"cd"`
		Contributions []Contribution `json:"contributions_td"`
		// Net: the distribution of a round's net result (analysis.NetDistributions).
		Net        *analysis.NetResult `json:"net_result,omitempty"`
		SDCheck    *SDCheck            `json:"sd_check,omitempty"`
		SDPerRound *SimRun             `json:"sd_per_round_from,omitempty"`
		Simulation *SimCheck           `json:"simulation,omitempty"`
		Strategy   []StrategyGrid      `json:"basic_strategy"`
		// Departures: the option values that break a rule of the
		// profile's own regulation (rules.Departure), absent where none.
		Departures []string `json:"departures,omitempty"`
	}{k.Meta.Profile, k.Meta.ProfileHash, k.TD, k.CD, k.Contributions, k.Net, k.sdCheck(), k.sdRun(), k.Sim, k.grids(), k.departures()}
}

// SDCheck sets the exact standard deviation of basic strategy's round (the
// net distribution's) beside the simulation's (continuous shuffle, as the
// exact model deals).
type SDCheck struct {
	Exact     float64 `json:"exact_sd_td"`
	Simulated float64 `json:"simulated_sd_td"`
	Rounds    int64   `json:"rounds"`
}

func (k *Kit) sdCheck() *SDCheck {
	if k.Net == nil || k.Sim == nil {
		return nil
	}
	return &SDCheck{Exact: k.Net.TD.SD, Simulated: k.Sim.Continuous.SD, Rounds: k.Sim.Continuous.Rounds}
}

func (k *Kit) sdRun() *SimRun {
	if k.Sim == nil {
		return nil
	}
	return &k.Sim.Continuous
}

func (k *Kit) grids() []StrategyGrid {
	g, _ := Grids(k.StrategyCSV)
	return g
}

func (k *Kit) scenarioSummary() any {
	type row struct {
		Name    string `json:"name"`
		Source  string `json:"source"`
		Agrees  bool   `json:"agrees"`
		Refused string `json:"refused,omitempty"`
	}
	var rows []row
	agree := 0
	for _, s := range k.Scenarios {
		rows = append(rows, row{s.Name, s.Source, s.Agrees, s.Refused})
		if s.Agrees {
			agree++
		}
	}
	return struct {
		Dirs      []string `json:"dirs"`
		Scenarios int      `json:"scenarios"`
		Agree     int      `json:"agree"`
		Rows      []row    `json:"rows"`
	}{k.ScenarioDirs, len(k.Scenarios), agree, rows}
}

// header is the line at the head of every page.
func header(m Meta) string {
	c := m.Commit
	if len(c) > 12 {
		c = c[:12]
	}
	return fmt.Sprintf("sabot certification kit · %s · profile %.12s · source %s", m.Profile, m.ProfileHash, c)
}

func pct(x float64) string { return fmt.Sprintf("%.4f %%", 100*x) }

func (k *Kit) departures() []string {
	var out []string
	for _, d := range k.Profile.Departures() {
		out = append(out, d.String())
	}
	return out
}
