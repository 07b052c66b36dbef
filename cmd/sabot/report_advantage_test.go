package main

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"sabot/internal/report"
	"sabot/internal/store/storetest"
	"sabot/money"
)

// advantageOf plays the bots of each command line on a real server over a
// fresh store (db: a SQLite file's path or a PostgreSQL DSN) and returns
// `sabot report advantage --json --pairs` over their rounds, checking that
// its CSV and its text say the same, and the significant events the server
// wrote meanwhile (`sabot events`: its watch of the same rounds).
func advantageOf(t *testing.T, db string, bots ...[]string) (*report.Advantage, string) {
	t.Helper()
	start := time.Now().Add(-time.Second)
	p := startServe(t, db, freeAddr(t))
	for _, args := range bots {
		if _, stderr, code := run(t, "", append([]string{"bots", "--url", p.url, "--timeout", "4m"}, args...)...); code != 0 {
			p.kill()
			t.Fatalf("bots %q: exit %d: %s", args, code, stderr)
		}
	}
	p.stop(t)
	stdout, stderr, code := run(t, "", "report", "advantage", "--db", db, "--from", start.Format(time.RFC3339Nano), "--json", "--pairs")
	if code != 0 {
		t.Fatalf("report advantage: exit %d: %s", code, stderr)
	}
	var r report.Advantage
	if err := json.Unmarshal([]byte(stdout), &r); err != nil {
		t.Fatal(err)
	}
	// The CSV and the text say the same scores.
	out, stderr, code := run(t, "", "report", "advantage", "--db", db, "--from", start.Format(time.RFC3339Nano), "--to", r.To.Format(time.RFC3339Nano), "--csv")
	if code != 0 {
		t.Fatalf("report advantage --csv: exit %d: %s", code, stderr)
	}
	rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil || len(rows) != len(r.Players)+1 || strings.Join(rows[0], ",") != strings.Join(report.AdvantageCSVHeader, ",") {
		t.Fatalf("CSV %q (%v), want the header and %d rows", out, err, len(r.Players))
	}
	text, stderr, code := run(t, "", "report", "advantage", "--db", db, "--from", start.Format(time.RFC3339Nano), "--to", r.To.Format(time.RFC3339Nano))
	if code != 0 {
		t.Fatalf("report advantage: exit %d: %s", code, stderr)
	}
	for i, x := range r.Players {
		back := ""
		if x.Back != nil {
			back = strconv.FormatFloat(x.Back.Z, 'f', -1, 64)
		}
		if row := rows[i+1]; row[2] != x.Player || row[8] != strconv.Itoa(x.Index.Decisions) || row[12] != strconv.FormatFloat(x.Index.Z, 'f', -1, 64) ||
			row[17] != back || row[18] != strconv.FormatBool(x.Flagged) {
			t.Errorf("CSV row %q, the JSON's %+v", row, x)
		}
		line := ""
		for _, l := range strings.Split(text, "\n") {
			if strings.Contains(l, x.Player+" ") {
				line = l
			}
		}
		if !strings.Contains(line, fmt.Sprintf("%d/%d", x.Index.DeviatedSaid, x.Index.Said)) || strings.Contains(line, "FLAGGED") != x.Flagged {
			t.Errorf("text %q, the JSON's %+v", line, x)
		}
	}
	events, stderr, code := run(t, "", "events", "--db", db, "--since", start.Format(time.RFC3339Nano))
	if code != 0 {
		t.Fatalf("events: exit %d: %s", code, stderr)
	}
	return &r, events
}

// Bots that take the index plays (`--strategy hilo-index`) at a one-deck
// table with late surrender: each of their decisions at an index play's
// hand is the index play exactly when the count the report rebuilt from
// the store calls for it, so their score is positive wherever it has a
// variance; basic-strategy bots never depart at those hands but where they
// always do (11 against an Ace, doubled), and score 0.
func TestReportAdvantageSeesIndexBots(t *testing.T) {
	t.Parallel()
	table := []string{"--tables", "1", "--players", "2", "--rounds", "120", "--profile", "vegas-s17",
		"-o", "decks=1", "-o", "cut_card_reserve=13", "-o", "surrender=late"}
	r, events := advantageOf(t, filepath.Join(t.TempDir(), "sabot.db"), append([]string{"--strategy", "hilo-index", "--prefix", "hilo-index"}, table...),
		append([]string{"--strategy", "basic", "--prefix", "basic"}, table...))
	if len(r.Players) != 4 {
		t.Fatalf("%d players, want 4", len(r.Players))
	}
	for _, x := range r.Players {
		counter := strings.HasPrefix(x.Player, "hilo-index")
		if x.Index.Decisions == 0 || len(x.IndexPairs) != x.Index.Decisions {
			t.Errorf("%s: %d decisions at the index hands, %d listed", x.Player, x.Index.Decisions, len(x.IndexPairs))
		}
		wrong := 0
		// The score is stratified by row (IndexScorer.Score): a row tells
		// only where the count said the play at some of its decisions
		// and not at others. A short session may have no such row, and
		// then no score.
		type row struct {
			hand  string
			up    int
			index float64
		}
		mixed := map[row][2]bool{} // [said not, said]
		for _, d := range x.IndexPairs {
			said, found := false, false
			for _, row := range report.IndexPlays {
				if row.Hand == d.Hand && row.Up == d.Up && row.Index == d.Index {
					said, found = row.Says(d.HiLo), true
				}
			}
			if !found {
				t.Fatalf("%s: a decision at no row of report.IndexPlays: %+v", x.Player, d)
			}
			k := row{d.Hand, d.Up, d.Index}
			m := mixed[k]
			if said {
				m[1] = true
			} else {
				m[0] = true
			}
			mixed[k] = m
			switch {
			case counter && d.Deviated != said:
				wrong++
				if wrong < 4 {
					t.Errorf("%s round %d-%d: %s against %d at a true count of %.4f: index play taken %v, the index (%g) says %v",
						x.Player, d.Table, d.Round, d.Hand, d.Up, d.HiLo, d.Deviated, d.Index, said)
				}
			case !counter && d.Deviated && !(d.Hand == "H11" && d.Up == 1):
				t.Errorf("basic %s round %d-%d: took the index play at %s against %d", x.Player, d.Table, d.Round, d.Hand, d.Up)
			}
		}
		informative := false
		for _, m := range mixed {
			informative = informative || m[0] && m[1]
		}
		if counter && (informative != (x.Index.Z > 0)) {
			t.Errorf("index bot %s (a row with the play said and not said: %v): %+v", x.Player, informative, x.Index)
		}
		if !counter && (x.Index.Z != 0 || x.Index.Flagged) {
			t.Errorf("basic bot %s: %+v", x.Player, x.Index)
		}
		t.Logf("%s: %d decisions at the index hands, %d at a count that said so; index play taken %d and %d times; z %.2f",
			x.Player, x.Index.Decisions, x.Index.Said, x.Index.DeviatedSaid, x.Index.DeviatedNotSay, x.Index.Z)
		// The server's watch scored the same decisions (CountWatch.Settled,
		// asked every LiveFlagEvery rounds of his, the last at his 120th):
		// one index-play event for a bot whose score reaches LiveFlagZ (or
		// crossed it before), none for a basic one.
		n := strings.Count(events, "index-play: "+x.Player+"'s play at the index hands follows the count")
		t.Logf("%s: %d index-play events", x.Player, n)
		switch {
		case !counter && n != 0, n > 1:
			t.Errorf("%s: %d index-play events", x.Player, n)
		case counter && n == 0 && x.Index.Z >= report.LiveFlagZ:
			t.Errorf("index bot %s (z %.2f over %d decisions): no index-play event", x.Player, x.Index.Z, x.Index.Decisions)
		}
	}
}

// Back-counting bots (`--strategy hilo-back`) at a one-deck spain table
// (back bets, ES-03) behind two flat basic players: every back bet of
// theirs the report reads is at a true count of +2 or more at the deal,
// their back bets are scored against the rounds of their shoes, with a
// positive z; the players placed none. On SQLite, and on PostgreSQL below.
func TestReportAdvantageSeesBackBots(t *testing.T) {
	t.Parallel()
	seesBackBots(t, filepath.Join(t.TempDir(), "sabot.db"))
}

func TestReportAdvantageSeesBackBotsPostgres(t *testing.T) {
	t.Parallel()
	seesBackBots(t, storetest.PostgresDSN(t))
}

func seesBackBots(t *testing.T, db string) {
	r, events := advantageOf(t, db, []string{"--strategy", "hilo-back", "--backers", "2", "--prefix", "back", "--tables", "1", "--players", "2",
		"--rounds", "120", "--profile", "spain", "-o", "decks=1", "-o", "cut_card_reserve=13", "-o", "burn_cards=1"})
	if len(r.Players) != 4 {
		t.Fatalf("%d players, want 4", len(r.Players))
	}
	for _, x := range r.Players {
		backer := strings.Contains(x.Player, "-b")
		// The server's watch: at most one back-counting event a bettor,
		// none for a player who placed no back bet. (It is asked every
		// LiveFlagEvery rounds of his shoes: the report's last score is not
		// always one it was asked.)
		n := strings.Count(events, "back-counting: "+x.Player+"'s back bets follow the count")
		t.Logf("%s: %d back-counting events", x.Player, n)
		if n > 1 || !backer && n != 0 {
			t.Errorf("%s: %d back-counting events", x.Player, n)
		}
		if !backer {
			if x.Back != nil {
				t.Errorf("player %s: back bets %+v", x.Player, x.Back)
			}
			continue
		}
		if x.Back == nil || x.Back.Backed == 0 || x.Back.Backed != len(x.Pairs) || x.Back.Rounds <= x.Back.Backed {
			t.Fatalf("back bettor %s: %+v, %d bets", x.Player, x.Back, len(x.Pairs))
		}
		for _, pr := range x.Pairs {
			if pr.HiLo < report.BackCount || pr.Bet != money.Amount(100) {
				t.Errorf("back bettor %s round %d-%d: bet %d at a true count of %.4f", x.Player, pr.Table, pr.Round, pr.Bet, pr.HiLo)
			}
		}
		if x.Back.Z <= 0 || x.Back.CountBacked < report.BackCount {
			t.Errorf("back bettor %s: %+v", x.Player, x.Back)
		}
		t.Logf("back bettor %s: %d rounds of his shoes, %d backed; mean count %.2f backed, %.2f not; z %.2f",
			x.Player, x.Back.Rounds, x.Back.Backed, x.Back.CountBacked, x.Back.CountOther, x.Back.Z)
	}
}
