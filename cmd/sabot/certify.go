package main

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"sabot/analysis"
	"sabot/internal/certify"
	"sabot/rules"
	"sabot/scenario"
	"sabot/shoe"
	"sabot/sim"
)

// labRounds is a laboratory's simulation: 10⁹ rounds.
const labRounds = certify.LabRounds

func newCertifyCmd(e *env) *cobra.Command {
	var (
		pf          profileFlags
		out, seedS  string
		rounds      int64
		shoes       int
		dieharder   string
		scenarioDir []string
		workers     int
		nist        int
		liveShoes   int
	)
	c := &cobra.Command{
		Use:   "certify PROFILE --out DIR",
		Short: "Write a profile's certification kit: PAR sheet, rules, randomness report, simulation check, forced-card evidence, compliance matrix, manifest",
		Long: `certify writes the kit a testing laboratory and a regulator receive for one
profile (docs/certification.md): the PAR sheet (PDF, JSON; the figures of
'sabot edge'), the rules document in the seed's language and in English (HTML,
PDF), the randomness report (the shuffle's card tests and dieharder on the
generator's raw output), the simulation check (10^9 rounds by default), every
public forced-card scenario of the profile, the compliance matrix against GLI-19
and GLI-11, and a manifest with every file's SHA-256.`,
		Args: profileArg,
		RunE: func(cmd *cobra.Command, args []string) error {
			if out == "" {
				return refused("certify: give --out DIR, the folder the kit is written to")
			}
			if rounds < 0 || shoes < 100 {
				return refused("certify: --rounds must be 0 or more and --shoes at least 100")
			}
			if nist < 0 {
				return refused("certify: --nist must be 0 or more sequences")
			}
			if liveShoes == -1 {
				liveShoes = shoes
			}
			if liveShoes != 0 && liveShoes < 100 {
				return refused("certify: --live-shoes must be 0 (none) or at least 100")
			}
			var suite [][]string
			switch dieharder {
			case "full":
				suite = certify.FullDieharder
			case "quick":
				suite = certify.QuickDieharder
			case "none":
			default:
				return refused("certify: --dieharder %q: want full, quick or none", dieharder)
			}
			seed, err := parseKitSeed(seedS)
			if err != nil {
				return err
			}
			p, err := pf.resolve(args[0])
			if err != nil {
				return err
			}
			if fi, err := os.Stat(out); err == nil && !fi.IsDir() {
				return refused("certify: --out %s is a file, not a folder", out)
			}
			ctx := cmd.Context()
			note := func(format string, a ...any) { fmt.Fprintf(e.stderr, "certify: "+format+"\n", a...) }
			k := &certify.Kit{Profile: p}
			bi := readBuildInfo()
			k.Meta = certify.Meta{Profile: p.Name, Description: p.Description, ProfileHash: p.Hash(), GameHash: p.GameHash(),
				Version: bi.Version, Commit: bi.Commit, CommitTime: bi.Time, CommitFrom: "the binary's own build information (Go's VCS stamp)", Modified: bi.Modified, Go: bi.Go,
				Executable: certify.Executable{SHA256: bi.SHA256, Bytes: bi.Bytes, Settings: bi.Settings, Reproducible: bi.Reproducible, NotWhy: bi.Why, Build: bi.Build},
				Created:    time.Now().UTC().Truncate(time.Second), Command: kitCommand(args[0], pf.options, out, rounds, shoes, nist, liveShoes, dieharder, seed, scenarioDir),
				Seed: hex.EncodeToString(seed[:])}
			if !bi.Reproducible {
				note("the binary is not the reproducible build: %s", bi.Why)
			}

			// The forced-card scenarios: the contract's, built into the
			// binary (found wherever the command runs), and the shared
			// folder's where it is; or the folders given; or none, said so.
			var sets []scenarioSet
			switch {
			case len(scenarioDir) == 1 && scenarioDir[0] == "none":
			case len(scenarioDir) > 0:
				for _, d := range scenarioDir {
					sets = append(sets, scenarioSet{fsys: os.DirFS(d), dir: d, label: d})
				}
			default:
				sets = append(sets, scenarioSet{fsys: scenario.Contract(), label: scenario.ContractDir + " (built into sabot)", source: scenario.ContractDir})
				if fi, err := os.Stat(sharedScenarios); err == nil && fi.IsDir() {
					sets = append(sets, scenarioSet{fsys: os.DirFS(sharedScenarios), dir: sharedScenarios, label: sharedScenarios})
				}
			}
			for _, s := range sets {
				k.ScenarioDirs = append(k.ScenarioDirs, s.label)
			}
			if k.Scenarios, err = runScenarios(sets, p); err != nil {
				return err
			}
			if len(k.Scenarios) == 0 && len(sets) > 0 {
				return refused("certify: no forced-card scenario of profile %s in %s: a kit needs them; give --scenarios DIR, or --scenarios none to write the kit without", p.Name, strings.Join(k.ScenarioDirs, ", "))
			}

			// The exact analysis: `sabot edge`'s own code and output.
			note("the exact analysis (sabot edge)")
			res, err := analysis.Analyze(ctx, p, analysis.Options{})
			if err != nil {
				return analysisFailed(err)
			}
			for _, kind := range []analysis.StrategyKind{analysis.TotalDependent, analysis.CompositionDependent} {
				effects, err := analysis.Effects(ctx, p, kind, analysis.Options{})
				if err != nil {
					return analysisFailed(err)
				}
				var b bytes.Buffer
				if err := writeEdgeJSON(&b, p, res, kind, effects, false); err != nil {
					return failed("certify: %v", err)
				}
				var ed certify.Edge
				if err := json.Unmarshal(b.Bytes(), &ed); err != nil {
					return failed("certify: edge's JSON: %v", err)
				}
				if kind == analysis.TotalDependent {
					k.EdgeTD, k.TD = b.Bytes(), &ed
				} else {
					k.EdgeCD, k.CD = b.Bytes(), &ed
				}
			}
			k.Contributions = certify.Contributions(p, res, k.TD)
			note("the distribution of a round's net result")
			if k.Net, err = analysis.NetDistributions(ctx, p); err != nil {
				return analysisFailed(err)
			}
			card := *res.Basic
			card.Profile = p.Name
			var csvb bytes.Buffer
			if err := card.WriteCSV(&csvb); err != nil {
				return failed("certify: %v", err)
			}
			k.StrategyCSV = csvb.String()

			// The simulation check.
			if rounds > 0 {
				note("the simulation: 2 × %d rounds", rounds)
				if k.Sim, err = simCheck(ctx, p, res, k.TD.TD.EV, rounds, binary.LittleEndian.Uint64(seed[:8]), workers, args[0], pf.options); err != nil {
					return err
				}
			}

			// Randomness.
			note("the shuffle's card tests: %d shoes", shoes)
			k.Battery = certify.RunBattery(certify.NewReplayShuffler(p.Decks, p.ShoeProcedure(), seed), p.Decks, shoes)
			if liveShoes > 0 {
				note("the card tests again on the live seeding path (crypto/rand): %d shoes", liveShoes)
				k.LiveBattery = certify.RunBattery(certify.NewLiveShuffler(p.Decks, p.ShoeProcedure()), p.Decks, liveShoes)
			}
			k.BatteryCmd = fmt.Sprintf("sabot certify %s --out DIR --seed %s --shoes %d --rounds 0 --dieharder none   # randomness.json's card_tests",
				shellJoin(append([]string{args[0]}, optionArgs(pf.options)...)), hex.EncodeToString(seed[:]), shoes)
			if nist > 0 {
				note("NIST SP 800-22: %d sequences of 10^6 bits", nist)
				k.NIST = certify.RunNIST(nist, seed)
			}
			if suite != nil {
				note("dieharder (%s)", dieharder)
				k.DieharderSuite = dieharder
				k.Dieharder, err = certify.RunDieharderSuite(ctx, seed, suite, certify.RawStream, "sabot certify rng --seed "+hex.EncodeToString(seed[:]))
				if errors.Is(err, certify.ErrNoDieharder) {
					return failed("certify: %v; or --dieharder none", err)
				}
				if err != nil {
					return failed("certify: %v", err)
				}
			} else {
				k.DieharderNote = "--dieharder none"
			}

			files, err := k.Write(out)
			if err != nil {
				return failed("certify: %v", err)
			}
			w := e.stdout
			fmt.Fprintf(w, "kit for %s in %s: %d files and manifest.json\n", p.Name, out, len(files))
			fmt.Fprintf(w, "RTP %s (td), %s (cd)\n", pctText(k.TD.TD.RTP), pctText(k.TD.CD.RTP))
			if k.Sim != nil {
				fmt.Fprintf(w, "simulation: %s ± %.4f %% over %d rounds, z = %+.2f: %s\n", pctText(1+k.Sim.Continuous.EV), 100*k.Sim.Continuous.SE, k.Sim.Continuous.Rounds, k.Sim.Z, passText(k.Sim.Pass))
			}
			fmt.Fprintf(w, "card tests (%d shoes): %s\n", shoes, passText(k.Battery.Pass()))
			if k.LiveBattery != nil {
				fmt.Fprintf(w, "card tests on the live seeding path (%d shoes of crypto/rand seeds): %s\n", liveShoes, passText(k.LiveBattery.Pass()))
			}
			if k.NIST != nil {
				fmt.Fprintf(w, "NIST SP 800-22 (%d sequences): %s\n", k.NIST.Sequences, passText(k.NIST.Pass()))
			}
			if k.Dieharder != nil {
				fmt.Fprintf(w, "dieharder: %d tests, %d passed, %d weak, %d failed: %s\n", len(k.Dieharder.Tests), k.Dieharder.Passed, k.Dieharder.Weak, k.Dieharder.Failed, passText(k.Dieharder.Pass()))
			}
			agree := 0
			for _, s := range k.Scenarios {
				if s.Agrees {
					agree++
				}
			}
			if len(k.Scenarios) == 0 {
				fmt.Fprintf(w, "scenarios: none (--scenarios none)\n")
			} else {
				fmt.Fprintf(w, "scenarios: %d of %d agree with their expectation\n", agree, len(k.Scenarios))
			}
			if !k.Battery.Pass() || (k.LiveBattery != nil && !k.LiveBattery.Pass()) || (k.NIST != nil && !k.NIST.Pass()) || (k.Dieharder != nil && !k.Dieharder.Pass()) || (k.Sim != nil && !k.Sim.Pass) || agree != len(k.Scenarios) {
				return failed("certify: a check failed: the kit says which")
			}
			return nil
		},
	}
	pf.add(c)
	f := c.Flags()
	f.StringVar(&out, "out", "", "the folder to write the kit to (made if missing)")
	f.Int64Var(&rounds, "rounds", labRounds, "rounds of each simulation (continuous shuffle, and the profile's shoe); 0: none")
	f.IntVar(&shoes, "shoes", 1_000_000, "shoes shuffled for the card tests")
	f.IntVar(&nist, "nist", certify.LabNIST, "sequences of 10^6 bits of the shoe generator (each of its own seed, from the master seed) through NIST SP 800-22 (about 1 s of CPU each); 0: none")
	f.IntVar(&liveShoes, "live-shoes", -1, "shoes of crypto/rand seeds (the live seeding path, not repeatable) for the card tests again (default: --shoes; 0: none)")
	f.StringVar(&dieharder, "dieharder", "full", "dieharder on the generator's raw output: full (-a, hours), quick (a short subset) or none")
	f.StringVar(&seedS, "seed", "", "the master seed of the tests and the simulation: 64 hex digits or a number (default: from crypto/rand, written in the manifest)")
	f.StringArrayVar(&scenarioDir, "scenarios", nil, "a folder of forced-card scenarios (repeatable; default: the contract's, built into sabot, and ../shared/scenarios where it exists; none: no scenarios)")
	f.IntVar(&workers, "workers", 0, "simulation goroutines (default every core)")
	c.AddCommand(newCertifyRNGCmd(e))
	return c
}

// newCertifyRNGCmd is `sabot certify rng --seed S`: the shoe generator's
// raw output, for dieharder (-g 200).
func newCertifyRNGCmd(e *env) *cobra.Command {
	var seedS string
	var limit int64
	c := &cobra.Command{
		Use:   "rng --seed S",
		Short: "Write the shoe generator's raw output (ChaCha8 of the seed, 64-bit little-endian) to stdout, for dieharder -g 200",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if seedS == "" {
				return refused("certify rng: give --seed, as the kit's manifest names it")
			}
			seed, err := parseKitSeed(seedS)
			if err != nil {
				return err
			}
			var r io.Reader = certify.RawStream(seed)
			if limit > 0 {
				r = io.LimitReader(r, limit)
			}
			if _, err := io.Copy(e.stdout, r); err != nil && limit > 0 {
				return failed("certify rng: %v", err)
			}
			return nil // the reader closed the pipe
		},
	}
	c.Flags().StringVar(&seedS, "seed", "", "the seed: 64 hex digits or a number")
	c.Flags().Int64Var(&limit, "bytes", 0, "stop after this many bytes (0: never)")
	return c
}

// parseKitSeed reads a seed: 64 hex digits, or a number expanded as
// shoe.SeedFromUint64; empty draws one from crypto/rand.
func parseKitSeed(s string) (shoe.Seed, error) {
	var seed shoe.Seed
	s = strings.TrimSpace(s)
	if s == "" {
		return shoe.RandomSeed(), nil
	}
	if len(s) == 64 {
		if b, err := hex.DecodeString(s); err == nil {
			copy(seed[:], b)
			return seed, nil
		}
	}
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		return seed, refused("certify: --seed %q: want 64 hex digits or a number", s)
	}
	return shoe.SeedFromUint64(n), nil
}

// simCheck runs the simulation check: basic strategy (the card `sabot sim`
// plays by default) with a continuous shuffle against the exact figure, and
// with the profile's shoe for the cut card's effect.
func simCheck(ctx context.Context, p *rules.Profile, res *analysis.Result, exact float64, rounds int64, seed uint64, workers int, profileArg string, options []string) (*certify.SimCheck, error) {
	data, ok := basicCard(p)
	if !ok {
		var b bytes.Buffer
		if err := res.Basic.WriteCSV(&b); err != nil {
			return nil, failed("certify: %v", err)
		}
		data = b.Bytes()
	}
	tab, err := sim.ParseStrategyCard(bytes.NewReader(data))
	if err != nil {
		return nil, failed("certify: the strategy card: %v", err)
	}
	tab.Name = "exact basic strategy of " + p.Name + " (package analysis)"
	sc := &certify.SimCheck{Strategy: tab.Name, Exact: exact, LabScale: rounds >= labRounds}
	base := shellJoin(append([]string{"sabot", "sim", profileArg}, optionArgs(options)...))
	for _, cont := range []bool{true, false} {
		cfg := sim.Config{Profile: p, Strategy: tab, Rounds: rounds, Seed: seed, Workers: workers, Continuous: cont}
		r, err := sim.Run(ctx, cfg)
		if err != nil {
			if errors.Is(err, sim.ErrConfig) {
				return nil, refused("certify: the simulation: %v", err)
			}
			return nil, failed("certify: the simulation: %v", err)
		}
		run := certify.SimRun{Rounds: r.Rounds, Continuous: cont, EV: r.EV, SE: r.SE, CI95: r.CI95, SD: r.SD,
			Command: fmt.Sprintf("%s --rounds %d --seed %d --json", base, rounds, seed)}
		if cont {
			run.Command = fmt.Sprintf("%s --rounds %d --seed %d --continuous --json", base, rounds, seed)
			sc.Continuous = run
		} else {
			sc.Shoe = run
		}
	}
	sc.Z = (sc.Continuous.EV - exact) / sc.Continuous.SE
	sc.Pass = math.Abs(sc.Z) <= certify.SimZLimit
	sc.CutCardEffect = sc.Shoe.EV - exact
	sc.CutCardEffectSE = sc.Shoe.SE
	return sc, nil
}

// sharedScenarios is the shared folder of scenarios, read by default
// where it is (relative to the folder the command runs in).
const sharedScenarios = "../shared/scenarios"

// scenarioSet is a folder of forced-card scenarios: its files, the folder
// its profile files are found in (none for the built-in contract), how the
// kit names it, and the path its files' sources are given under (dir's).
type scenarioSet struct {
	fsys               fs.FS
	dir, label, source string
}

// runScenarios runs every scenario of the sets whose profile is p's, on p's
// options as the scenario sets them, and checks each against its expect.
func runScenarios(sets []scenarioSet, p *rules.Profile) ([]certify.ScenarioRun, error) {
	var runs []certify.ScenarioRun
	seen := map[string]bool{}
	for _, set := range sets {
		dir := set.dir
		if set.source == "" {
			set.source = set.dir
		}
		if dir != "" {
			if _, err := os.Stat(dir); err != nil {
				return nil, refused("certify: --scenarios %s: %v", dir, err)
			}
		}
		names, err := fs.Glob(set.fsys, "*.json")
		if err != nil {
			return nil, refused("certify: --scenarios %s: %v", set.label, err)
		}
		sort.Strings(names)
		for _, file := range names {
			name := filepath.Join(set.source, file)
			data, err := fs.ReadFile(set.fsys, file)
			if err != nil {
				return nil, refused("certify: %v", err)
			}
			in, err := scenario.Parse(data)
			if err != nil || in.Profile != p.Name {
				continue
			}
			var raw struct {
				Expect json.RawMessage `json:"expect"`
			}
			json.Unmarshal(data, &raw)
			base := filepath.Base(name)
			if seen[base] {
				base = filepath.Base(set.source) + "-" + base
			}
			seen[base] = true
			run := certify.ScenarioRun{Name: base, Source: name, Input: data, Expect: raw.Expect}
			q, err := in.ResolveProfile(dir)
			var outp *scenario.Output
			if err == nil {
				outp, err = scenario.Run(in, q)
			}
			if err != nil {
				run.Refused = err.Error()
			} else {
				run.Output, _ = json.Marshal(outp)
			}
			run.Agrees, run.Detail = scenarioAgrees(raw.Expect, outp, err)
			runs = append(runs, run)
		}
	}
	return runs, nil
}

// scenarioAgrees checks a scenario's result against its expect: error,
// net by player, dealer_total.
func scenarioAgrees(expect json.RawMessage, out *scenario.Output, err error) (bool, string) {
	var x struct {
		Error       *bool            `json:"error"`
		Net         map[string]int64 `json:"net"`
		DealerTotal *int             `json:"dealer_total"`
	}
	if len(expect) == 0 {
		return err == nil, "no expectation: played without refusal"
	}
	if e := json.Unmarshal(expect, &x); e != nil {
		return false, "unreadable expect: " + e.Error()
	}
	if x.Error != nil && *x.Error {
		return err != nil, "expects a refusal"
	}
	if err != nil {
		return false, "refused: " + err.Error()
	}
	for who, n := range x.Net {
		if out.Net[who] != n {
			return false, fmt.Sprintf("%s nets %d, expected %d", who, out.Net[who], n)
		}
	}
	if x.DealerTotal != nil && out.Dealer.Total != *x.DealerTotal {
		return false, fmt.Sprintf("dealer total %d, expected %d", out.Dealer.Total, *x.DealerTotal)
	}
	return true, "as expected"
}

func optionArgs(options []string) []string {
	var out []string
	for _, o := range options {
		out = append(out, "-o", o)
	}
	return out
}

func kitCommand(profile string, options []string, out string, rounds int64, shoes, nist, live int, dh string, seed shoe.Seed, dirs []string) string {
	a := append([]string{"sabot", "certify", profile}, optionArgs(options)...)
	a = append(a, "--out", out, "--rounds", fmt.Sprint(rounds), "--shoes", fmt.Sprint(shoes), "--nist", fmt.Sprint(nist), "--live-shoes", fmt.Sprint(live), "--dieharder", dh, "--seed", hex.EncodeToString(seed[:]))
	for _, d := range dirs {
		a = append(a, "--scenarios", d)
	}
	return shellJoin(a)
}

func shellJoin(a []string) string {
	var out []string
	for _, s := range a {
		if s == "" || strings.ContainsAny(s, " \t'\"$`\\|&;<>()*?[]#~") {
			s = "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
		}
		out = append(out, s)
	}
	return strings.Join(out, " ")
}

func pctText(x float64) string { return fmt.Sprintf("%.4f %%", 100*x) }

func passText(ok bool) string {
	if ok {
		return "pass"
	}
	return "FAIL"
}
