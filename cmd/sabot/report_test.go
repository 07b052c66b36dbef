package main

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"sabot"
	"sabot/internal/report"
	"sabot/internal/store"
	"sabot/internal/store/storetest"
	"sabot/money"
)

// reportStore plays rounds on a real server over a store (bots at a
// vegas-s17 table and an argentina one) and returns the store's DSN, the
// players' names and the time play started.
func reportStore(t *testing.T, db string) (names []string, start time.Time) {
	t.Helper()
	start = time.Now().Add(-time.Second)
	p := startServe(t, db, freeAddr(t))
	for _, profile := range []string{"vegas-s17", "argentina"} {
		prefix := "r-" + profile[:3]
		if _, stderr, code := run(t, "", "bots", "--url", p.url, "--tables", "1", "--players", "3", "--rounds", "12",
			"--profile", profile, "--prefix", prefix, "--timeout", "2m"); code != 0 {
			p.kill()
			t.Fatalf("bots: exit %d: %s", code, stderr)
		}
		for j := 1; j <= 3; j++ {
			names = append(names, fmt.Sprintf("%s-1-%d", prefix, j))
		}
	}
	p.stop(t)
	return names, start
}

// playersNet is the players' net at the tables as their wallets' entries
// say it (sabot.Care's Usage): what the house won, read without the log.
func playersNet(t *testing.T, db string, names []string) money.Amount {
	t.Helper()
	ctx := context.Background()
	s, err := store.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var net money.Amount
	for _, n := range names {
		u, err := s.UserByName(ctx, n)
		if err != nil {
			t.Fatalf("%s: %v", n, err)
		}
		use, err := s.(sabot.Care).Usage(ctx, u.ID, time.Time{})
		if err != nil {
			t.Fatal(err)
		}
		net += use.Net
	}
	return net
}

// The report's win is the ledger's house net to the minor unit, for the
// whole play and for a period that cuts it in two; the two halves add up
// to the whole; the players' wallets say the same.
func checkReportAgainstLedger(t *testing.T, db string) {
	names, start := reportStore(t, db)
	end := time.Now().Add(time.Second)
	tables := func(from, to time.Time) *report.Tables {
		t.Helper()
		stdout, stderr, code := run(t, "", "report", "tables", "--db", db, "--from", from.Format(time.RFC3339Nano), "--to", to.Format(time.RFC3339Nano), "--json")
		if code != 0 {
			t.Fatalf("report tables: exit %d: %s", code, stderr)
		}
		var r report.Tables
		if err := json.Unmarshal([]byte(stdout), &r); err != nil {
			t.Fatalf("%v\n%s", err, stdout)
		}
		return &r
	}
	all := tables(start, end)
	if len(all.Tables) != 2 || all.Total.Rounds < 24 || all.Total.Stakes == 0 {
		t.Fatalf("want 2 tables with at least 12 rounds each, got %d tables, %d rounds", len(all.Tables), all.Total.Rounds)
	}
	for _, x := range append(all.Tables, all.Total) {
		if x.LedgerHouseNet == nil || *x.LedgerHouseNet != x.Win {
			t.Errorf("table %d: report win %d, ledger house net %v", x.Table, x.Win, x.LedgerHouseNet)
		}
		if x.Theo == 0 || x.BandLow >= x.Theo || x.BandHigh <= x.Theo {
			t.Errorf("table %d: theo %d not inside its band %d to %d", x.Table, x.Theo, x.BandLow, x.BandHigh)
		}
	}
	if rtp := 1 - float64(all.Total.Win)/float64(all.Total.Initial); math.Abs(all.Total.RTP-rtp) > 1e-6 ||
		all.Total.RTPLow >= all.Total.CertifiedRTP || all.Total.RTPHigh <= all.Total.CertifiedRTP {
		t.Errorf("return %.6f (want %.6f), certified %.6f in %.6f to %.6f", all.Total.RTP, rtp, all.Total.CertifiedRTP, all.Total.RTPLow, all.Total.RTPHigh)
	}
	if want := -playersNet(t, db, names); all.Total.Win != want {
		t.Errorf("report win %d, players' wallets lost %d", all.Total.Win, want)
	}
	// The period cut at a round's close: the halves add up to the whole.
	mid := start.Add(end.Sub(start) / 2)
	a, b := tables(start, mid), tables(mid, end)
	if a.Total.Rounds+b.Total.Rounds != all.Total.Rounds || a.Total.Win+b.Total.Win != all.Total.Win {
		t.Errorf("halves: %d+%d rounds, %d+%d win; whole %d rounds, %d win", a.Total.Rounds, b.Total.Rounds, a.Total.Win, b.Total.Win, all.Total.Rounds, all.Total.Win)
	}
	for _, h := range []*report.Tables{a, b} {
		if *h.Total.LedgerHouseNet != h.Total.Win {
			t.Errorf("a half's win %d, its ledger house net %d", h.Total.Win, *h.Total.LedgerHouseNet)
		}
	}
	// The players' ratings add up to the tables' results: each bot one
	// session at one table, his rounds, his decisions valued.
	stdout, stderr, code := run(t, "", "report", "players", "--db", db, "--from", start.Format(time.RFC3339Nano), "--to", end.Format(time.RFC3339Nano), "--json")
	if code != 0 {
		t.Fatalf("report players: exit %d: %s", code, stderr)
	}
	var pr report.Players
	if err := json.Unmarshal([]byte(stdout), &pr); err != nil {
		t.Fatal(err)
	}
	var win, initial money.Amount
	var decisions int64
	for _, x := range pr.Players {
		win += x.Win
		initial += x.Initial
		decisions += x.Decisions
		if x.Sessions != 1 || len(x.Tables) != 1 || x.Rounds < 12 || x.AvgBet != 100 {
			t.Errorf("%s: %d sessions at %v, %d rounds, average bet %d; want one session at one table, 12 rounds or more of 100", x.Player, x.Sessions, x.Tables, x.Rounds, x.AvgBet)
		}
	}
	if len(pr.Players) != len(names) || win != all.Total.Win || initial != all.Total.Initial || decisions == 0 {
		t.Errorf("%d players won %d on %d staked, %d decisions valued; the tables: %d players, win %d on %d",
			len(pr.Players), win, initial, decisions, len(names), all.Total.Win, all.Total.Initial)
	}
	// The CSV export says the same numbers.
	stdout, _, code = run(t, "", "report", "tables", "--db", db, "--from", start.Format(time.RFC3339Nano), "--to", end.Format(time.RFC3339Nano), "--csv")
	if code != 0 {
		t.Fatalf("report tables --csv: exit %d", code)
	}
	rows, err := csv.NewReader(strings.NewReader(stdout)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	last := rows[len(rows)-1]
	if strings.Join(rows[0], ",") != strings.Join(report.TablesCSVHeader, ",") || last[0] != "total" ||
		last[17] != fmt.Sprint(int64(all.Total.Win)) || last[26] != fmt.Sprint(int64(all.Total.Win)) {
		t.Errorf("CSV's total row %q, want win %d", last, all.Total.Win)
	}
}

func TestReportTablesEqualsLedger(t *testing.T) {
	t.Parallel()
	checkReportAgainstLedger(t, filepath.Join(t.TempDir(), "sabot.db"))
}

func TestReportTablesEqualsLedgerPostgres(t *testing.T) {
	t.Parallel()
	checkReportAgainstLedger(t, storetest.PostgresDSN(t))
}

func TestReportRefused(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "none.db")
	for _, args := range [][]string{
		{"report", "tables", "--db", db},
		{"report", "tables", "--from", "yesterday"},
		{"report", "tables", "--from", "2026-11-22", "--to", "2026-11-21"},
		{"report", "tables", "--json", "--csv"},
	} {
		_, stderr, code := run(t, "", args...)
		if code != exitRefused || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
			t.Errorf("%q: exit %d, stderr %q", args, code, stderr)
		}
	}
}

// Counting bots over the real server: the report rebuilds, from the store,
// the true count each of their bets was placed at (every bet is the ramp's
// at the report's count), scores them above 0, and flags no flat bettor.
// One deck: its true count swings far and its shoes are short, so that 80
// rounds hold counts the ramp raises its bet at (six decks may go 80
// rounds without one).
// (The rates at which the score flags a ramp within so many rounds are
// measured in-process, on more sessions: internal/report's
// TestDetectorRates.)
func TestReportAdvantageSeesCountingBots(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "sabot.db")
	start := time.Now().Add(-time.Second)
	p := startServe(t, db, freeAddr(t))
	for _, strategy := range []string{"hilo-ramp", "basic"} {
		if _, stderr, code := run(t, "", "bots", "--url", p.url, "--tables", "1", "--players", "2", "--rounds", "80",
			"--profile", "vegas-s17", "-o", "decks=1", "-o", "cut_card_reserve=13", "--prefix", strategy, "--strategy", strategy, "--timeout", "3m"); code != 0 {
			p.kill()
			t.Fatalf("bots: exit %d: %s", code, stderr)
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
	if len(r.Players) != 4 {
		t.Fatalf("%d players, want 4", len(r.Players))
	}
	for _, x := range r.Players {
		counter := strings.HasPrefix(x.Player, "hilo-ramp")
		if x.HiLo.N < 80 || len(x.Pairs) != x.HiLo.N {
			t.Errorf("%s: %d rounds, %d pairs", x.Player, x.HiLo.N, len(x.Pairs))
		}
		if !counter {
			if x.Flagged || x.HiLo.Rho != 0 {
				t.Errorf("flat bettor %s: %+v", x.Player, x)
			}
			continue
		}
		wrong, raised := 0, 0
		for _, pr := range x.Pairs {
			if pr.Bet > 100 {
				raised++
			}
			if pr.Bet != money.Amount(100*report.HiLoRampUnits(pr.HiLo)) {
				wrong++
				if wrong < 4 {
					t.Errorf("%s round %d-%d: bet %d at a true count of %.4f, the ramp bets %d", x.Player, pr.Table, pr.Round, pr.Bet, pr.HiLo, 100*report.HiLoRampUnits(pr.HiLo))
				}
			}
		}
		if raised == 0 || x.HiLo.Z <= 0 || x.HiOptII.Z <= 0 {
			t.Errorf("counter %s: %d bets raised, %+v %+v", x.Player, raised, x.HiLo, x.HiOptII)
		}
		t.Logf("counter %s: %d rounds, Hi-Lo z %.2f, Hi-Opt II z %.2f", x.Player, x.HiLo.N, x.HiLo.Z, x.HiOptII.Z)
	}
	// The server watched the same rounds (report.CountWatch, the same
	// detector on the same pairs, asked every 10 rounds): it wrote one
	// advantage-play event for each counter whose score over his 80 rounds
	// reaches report.LiveFlagZ (or crossed it before), and none for a flat
	// bettor.
	events, stderr, code := run(t, "", "events", "--db", db, "--since", start.Format(time.RFC3339Nano))
	if code != 0 {
		t.Fatalf("events: exit %d: %s", code, stderr)
	}
	for _, x := range r.Players {
		n := strings.Count(events, "advantage-play: "+x.Player+"'s bets follow the count")
		t.Logf("%s: %d advantage-play events", x.Player, n)
		switch counter := strings.HasPrefix(x.Player, "hilo-ramp"); {
		case !counter && n != 0:
			t.Errorf("flat bettor %s: %d advantage-play events", x.Player, n)
		case n > 1:
			t.Errorf("%s: %d advantage-play events, want one", x.Player, n)
		case counter && n == 0 && (x.HiLo.Z >= report.LiveFlagZ || x.HiOptII.Z >= report.LiveFlagZ):
			t.Errorf("counter %s (Hi-Lo z %.2f, Hi-Opt II z %.2f over %d rounds): no advantage-play event", x.Player, x.HiLo.Z, x.HiOptII.Z, x.HiLo.N)
		}
	}
}
