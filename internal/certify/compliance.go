package certify

import (
	"fmt"
	"html"
	"strings"
)

// A laboratory's size: the card tests' shoes and each simulation's rounds
// below which a line the test supports drops to "partly".
const (
	LabShoes  = 1_000_000
	LabRounds = 1_000_000_000
)

// Requirement is one line of the compliance matrix.
type Requirement struct {
	Standard    string `json:"standard"` // GLI-19, GLI-11
	Topic       string `json:"topic"`
	Requirement string `json:"requirement"`
	Status      string `json:"status"` // met, partly, not met, operator, n/a
	How         string `json:"how"`
	Evidence    string `json:"evidence"`
}

// Matrix is the compliance matrix of a kit.
type Matrix struct {
	Note         string         `json:"note"`
	Requirements []Requirement  `json:"requirements"`
	Count        map[string]int `json:"count"`
}

// Compliance is sabot's own reading of GLI-19 (interactive gaming systems)
// and the table-game and RNG parts of GLI-11 (gaming devices) that apply to
// an online blackjack table, with the kit's own results filled in.
func Compliance(k *Kit) *Matrix {
	var short []string // the randomness tests skipped or shrunk
	if k.Battery.Shoes < LabShoes {
		short = append(short, fmt.Sprintf("the card tests ran on %s shoes, under a laboratory's %s", count(int64(k.Battery.Shoes)), count(LabShoes)))
	}
	if k.LiveBattery == nil {
		short = append(short, "the card tests were not run on the live seeding path (crypto/rand)")
	}
	switch {
	case k.NIST == nil:
		short = append(short, "NIST SP 800-22 was not run")
	case k.NIST.Sequences < LabNIST:
		short = append(short, fmt.Sprintf("NIST SP 800-22 ran on %d sequences, under a laboratory's %s", k.NIST.Sequences, count(LabNIST)))
	}
	switch {
	case k.Dieharder == nil:
		short = append(short, "dieharder was not run")
	case k.DieharderSuite != "full":
		short = append(short, "dieharder ran a subset, not the full battery (-a)")
	}
	rng := "met"
	switch {
	case !k.Battery.Pass() || (k.LiveBattery != nil && !k.LiveBattery.Pass()) || (k.NIST != nil && !k.NIST.Pass()) || (k.Dieharder != nil && !k.Dieharder.Pass()):
		rng = "not met"
	case len(short) > 0:
		rng = "partly"
	}
	sim := "met"
	simHow := "the exact figure (td and cd) from the combinatorial analysis; the simulation check within its interval"
	switch {
	case k.Sim == nil:
		sim, simHow = "partly", "the exact figure; the simulation check was not run in this kit"
	case !k.Sim.Pass:
		sim, simHow = "not met", fmt.Sprintf("the simulation is %.2f standard errors from the exact figure", k.Sim.Z)
	case k.Sim.Continuous.Rounds < LabRounds || k.Sim.Shoe.Rounds < LabRounds:
		sim, simHow = "partly", fmt.Sprintf("the exact figure (td and cd); the simulation check within its interval, but over %s rounds, under a laboratory's %s", count(k.Sim.Continuous.Rounds), count(LabRounds))
	}
	ident, identHow := "met", "The manifest names the executable that made the kit by its SHA-256 and build settings, and the source commit from the binary's own VCS stamp; "+
		"the documented reproducible build ("+k.Meta.Executable.Build+") at that commit rebuilds the same SHA-256; `sabot version` prints an installed binary's, to check it against the kit. sabot does not sign its binary."
	if !k.Meta.Identified() {
		ident, identHow = "partly", "The manifest hashes every file of the kit and the executable, but the binary is not the reproducible build of a clean commit: "+k.Meta.Executable.NotWhy+"."
	}
	rulesStatus, rulesHow := "met", fmt.Sprintf("; the rules document states the table's limits (%s to %s)", localMoney(k.Profile.MinBet, "en"), localMoney(k.Profile.MaxBet, "en"))
	if PlaceholderLimits(k.Profile) {
		rulesStatus, rulesHow = "partly", "; but the kit's limits are the profile's placeholders (0.01 to 1,000,000.00), not a table's: give them with -o min_bet=… -o max_bet=…"
	}
	agree := 0
	for _, s := range k.Scenarios {
		if s.Agrees {
			agree++
		}
	}
	forced := "met"
	if agree != len(k.Scenarios) || len(k.Scenarios) == 0 {
		forced = "partly"
	}
	dh := "dieharder was not run: " + k.DieharderNote
	if k.Dieharder != nil {
		dh = fmt.Sprintf("dieharder (%s): %d tests, %d failed", k.DieharderSuite, len(k.Dieharder.Tests), k.Dieharder.Failed)
	}
	if k.NIST != nil {
		dh = fmt.Sprintf("NIST SP 800-22 (%d sequences of 10⁶ bits): %s; ", k.NIST.Sequences, verdictWord(k.NIST.Pass())) + dh
	}
	if len(short) > 0 {
		dh += "; not at a laboratory's size: " + strings.Join(short, "; ")
	}
	rs := []Requirement{
		{"GLI-19", "Game rules", "The rules of play, the pays and the game's options are available to the player before and during play.", rulesStatus,
			"Every table shows its rules in plain words, each with its options and rule IDs, in English, Spanish and Italian (GET /api/tables/{id}/rules, the web client's rules panel)" + rulesHow + ".",
			"rules-*.html, rules-*.pdf; internal/webapi TestRules; docs/protocol.md"},
		{"GLI-19", "Return to player", "The theoretical return and its make-up are documented and verifiable; the strategy it assumes is stated.", sim,
			simHow + ".", "par-sheet.pdf, par-sheet.json, edge-td.json, edge-cd.json, simulation.json; analysis TestFarmer*, sim TestContinuousShuffleMatchesExactEV; cmd/sabot TestCertifyKit"},
		{"GLI-19", "Game fairness", "Outcomes are decided by the RNG and the rules alone: not by the stakes, the player, the history or the house's position.", "met",
			"The engine deals from the shoe's order and applies the rules; nothing reads a stake or a balance to choose a card. The order is committed before the shoe starts and revealed after.",
			"engine and rules tests; `sabot verify SHOE`; internal/server TestLiveShoeSeedNotInLog"},
		{"GLI-19", "Forced outcomes and test mode", "Forced outcomes exist only in a test mode that cannot take part in live play, and are marked.", forced,
			fmt.Sprintf("Forced-card rounds run only through `sabot scenario` or test-mode tables of a server started with --test-mode, marked test in every record. %d of %d public scenarios of the profile agree with their expectation.", agree, len(k.Scenarios)),
			"scenarios/, scenarios.json; docs/server.md (Test mode)"},
		{"GLI-19", "Game recall", "The last games of a player can be recalled with their full detail: cards, decisions, stakes, results.", "met",
			"Every round's full record is kept in the table log with the ledger's entries; `sabot recall ID` prints it, `sabot replay ID` replays it through the engine.",
			"cmd/sabot recall_test.go (TestPrintRecallPhysical); docs/server.md"},
		{"GLI-19", "Interrupted games", "A game interrupted by a failure of the server or the connection resumes or is settled by the rules, with no loss of stakes or data.", "met",
			"The round's log and the ledger are written in one transaction; after kill -9 a restarted server (or another node) resumes the round where it was; a disconnected player's decision times out to the rule's default.",
			"cmd/sabot TestKill9Recovery, TestKill9OperatorWallet; internal/server TestRestartResumesRound, TestReconnectResync, TestDecisionTimeout_VE06"},
		{"GLI-19", "Player funds and the ledger", "Every movement of a player's funds is recorded and balances reconcile.", "met",
			"A double-entry ledger in the same transaction as each round; `sabot ledger check` proves every balance equals its entries and every transaction nets to zero.",
			"cmd/sabot TestLedgerCheck*; docs/store.md"},
		{"GLI-19", "Significant events", "Voids, credits, configuration changes and other significant events are logged.", "met",
			"The significant-event log (`sabot events`, the pit's page).", "internal/server TestOperatorEventsAndMetrics; docs/server.md"},
		{"GLI-19", "Responsible gaming", "Players can set limits and exclude themselves; reality checks.", "met",
			"Deposit, loss and time limits, self-exclusion and reality checks (docs/players.md).", "internal/server TestCareLimits, TestCareExclusion"},
		{"GLI-19", "Software identification", "The software submitted is identified (version, hashes) and the installed software can be verified against it.", ident,
			identHow, "manifest.json, SHA256SUMS; `sabot version`; cmd/sabot TestCertifyManifestNamesTheRebuiltBinary"},
		{"GLI-19", "Communications security", "Player and administrator connections are encrypted and authenticated.", "operator",
			"sabot serves HTTP; TLS is terminated by the operator's proxy in front of it. Passwords are bcrypt-hashed; sessions are server-side.", "docs/server.md"},
		{"GLI-19", "Player identity, age and location", "Players are identified, of age and inside the licensed territory (KYC, geolocation).", "not met",
			"Not in sabot: an operator's platform (the seamless wallet launches its verified players, docs/wallet.md) must provide them.", "—"},
		{"GLI-19", "Administrative access", "Administrative functions need strong (multi-factor) authentication and are logged.", "partly",
			"Pit actions are logged as significant events and need an administrator's account; there is no multi-factor authentication.", "docs/server.md"},
		{"GLI-19 / GLI-11", "RNG: randomness", "The RNG's output passes recognised statistical tests, and the outcomes it makes (card positions) are uniform.", rng,
			fmt.Sprintf("The card tests (%s shoes prepared by the profile's procedure: by rank, by rank and suit, adjacent pairs, runs, serial correlation, the cut and the burns; seeded from the master seed%s) and %s.", count(int64(k.Battery.Shoes)), liveText(k), dh), "randomness.pdf, randomness.json, dieharder.txt; internal/certify TestShuffleBattery*, TestLiveShoesPassTheCardTests, TestNISTWorkedExamples, TestNISTSuitePassesTheShoeGenerator, TestDieharder"},
		{"GLI-19 / GLI-11", "RNG: seeding and unpredictability", "The RNG is seeded from a source of entropy, reseeded, its state protected, and not predictable from its outputs.", "met",
			"A fresh 32-byte crypto/rand seed per shoe; ChaCha8, a stream cipher; the seed sealed with AES-256-GCM while the shoe is live.", "randomness.pdf §1; internal/server TestLiveShoeSeedNotInLog, TestSealedShoesRestartWithTheirKey"},
		{"GLI-11", "RNG: scaling", "Scaling of the RNG's output to a game's outcomes introduces no bias.", "met",
			"Lemire's multiply-and-reject method (math/rand/v2): every position exactly equally likely.", "randomness.pdf §1; the position and pairs tests"},
		{"GLI-11", "RNG: every outcome possible", "Every possible combination of the game's elements can occur.", map[bool]string{true: "met", false: "partly"}[k.Profile.Decks == 1],
			OrderNote(k.Profile.Decks), "randomness.pdf §1"},
		{"GLI-11", "Cards: the deck", "The simulated deck holds the right cards; cards dealt come from it without replacement until the shuffle.", "met",
			"The shoe's composition is checked when loaded (EG-01); every shuffle puts every card back (EG-05); cut card and burns as the profile's procedure.", "shoe TestComposition_EG01; rules TestShoeOfEachProfile_AR01_VE01_FAM01_EG02_EG03"},
		{"GLI-11", "No compensation", "No outcome depends on previous outcomes or on the game's takings.", "met",
			"The shoe's order is fixed when it is shuffled; the engine has no memory of results.", "the serial-correlation and runs tests; engine tests"},
		{"GLI-11", "Minimum return", "The theoretical return is at least the jurisdiction's minimum (commonly 75 % to 85 %).", map[bool]string{true: "met", false: "not met"}[k.TD.TD.RTP >= 0.85],
			fmt.Sprintf("The RTP with basic strategy is %s.", pct(k.TD.TD.RTP)), "par-sheet.pdf"},
		{"GLI-11", "Skill games", "For a game of skill the return is stated for optimal play and the strategy is stated.", "met",
			"The PAR sheet gives the return for basic strategy (the strategy card, in the kit) and for the best play for the exact cards.", "par-sheet.pdf §6, strategy.csv"},
		{"GLI-11", "Displays and meters of a gaming device", "Physical device requirements: meters, door switches, bill validators, tilt conditions.", "n/a",
			"Not a gaming device: an online table served to browsers.", "—"},
	}
	m := &Matrix{Note: "sabot's own reading of GLI-19 (Standards for Interactive Gaming Systems) and of GLI-11's table-game and RNG parts, by topic. " +
		"The laboratory maps each line to the clauses of the edition it tests to; a line not met is said so.", Requirements: rs, Count: map[string]int{}}
	for _, r := range rs {
		m.Count[r.Status]++
	}
	return m
}

func liveText(k *Kit) string {
	if k.LiveBattery == nil {
		return ""
	}
	return fmt.Sprintf(", and %s more from crypto/rand, the live path: %s", count(int64(k.LiveBattery.Shoes)), verdictWord(k.LiveBattery.Pass()))
}

func verdictWord(ok bool) string {
	if ok {
		return "passed"
	}
	return "failed"
}

// ComplianceHTML is the matrix as an HTML page.
func ComplianceHTML(meta Meta, m *Matrix) string {
	e := html.EscapeString
	var b strings.Builder
	fmt.Fprintf(&b, "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Compliance matrix: %s</title>\n", e(meta.Profile))
	b.WriteString("<style>body{font:14px/1.4 sans-serif;margin:2em}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.3em .5em;vertical-align:top;text-align:left}" +
		".met{background:#e3f4e0}.partly{background:#fdf1cf}.not.met,.not{background:#f8d7d4}</style></head><body>\n")
	fmt.Fprintf(&b, "<h1>Compliance matrix: %s</h1>\n<p>%s</p>\n<p>%s</p>\n<table>\n<tr><th>standard</th><th>topic</th><th>requirement</th><th>status</th><th>how sabot meets it</th><th>shown by</th></tr>\n",
		e(meta.Profile), e(m.Note), e(header(meta)))
	for _, r := range m.Requirements {
		fmt.Fprintf(&b, "<tr><td>%s</td><td>%s</td><td>%s</td><td class=\"%s\">%s</td><td>%s</td><td>%s</td></tr>\n",
			e(r.Standard), e(r.Topic), e(r.Requirement), e(r.Status), e(r.Status), e(r.How), e(r.Evidence))
	}
	b.WriteString("</table>\n</body></html>\n")
	return b.String()
}

// CompliancePDF is the matrix as a PDF.
func CompliancePDF(meta Meta, m *Matrix) ([]byte, error) {
	d := NewDoc("Compliance matrix: "+meta.Profile, header(meta), meta.Created)
	d.P(m.Note)
	d.P(fmt.Sprintf("%d requirements: %d met, %d partly, %d not met, %d the operator's, %d not applicable.", len(m.Requirements),
		m.Count["met"], m.Count["partly"], m.Count["not met"], m.Count["operator"], m.Count["n/a"]))
	var rows [][]string
	for _, r := range m.Requirements {
		rows = append(rows, []string{r.Standard + "\n" + r.Topic, r.Requirement, strings.ToUpper(r.Status), r.How, r.Evidence})
	}
	d.Table([]float64{24, 40, 19, 53, 44}, []string{"standard, topic", "requirement", "status", "how sabot meets it", "shown by"}, rows, "LLCLL")
	return d.Bytes()
}
