package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sabot/internal/report"
	"sabot/internal/store"
	"sabot/internal/store/storetest"
	"sabot/money"
)

// `sabot report synth` bulk-loads rounds, several transactions of them
// (written by writers side by side, each for its share of the tables),
// that the reports read back whole: every round, the win equal to the
// ledger's house net to the minor unit, the players' stakes adding up to
// the tables', and a ledger that balances. The tables' report reads the
// same from the rollups as from the log alone, byte for byte, for the
// year and for periods cut inside hours (on SQLite, against a copy of the
// store made before the rollup), and so do the players' and the advantage
// reports.
func checkReportSynth(t *testing.T, db, writers string) {
	const rounds = 3001 // four batches of 700 and a short one (one writer)
	if _, stderr, code := run(t, "", "report", "synth", "--db", db, "--rounds", "3001", "--tables", "4", "--players", "30", "--batch", "700", "--writers", writers); code != 0 {
		t.Fatalf("report synth: exit %d: %s", code, stderr)
	}
	period := []string{"--db", db, "--from", "2025-11-26", "--to", "2026-11-27", "--json"}
	// Before any rollup, from the log alone (--rollup=false: none made);
	// the same store's copy keeps the log alone for the cut periods.
	fromLog, stderr, code := run(t, "", append([]string{"report", "tables", "--rollup=false"}, period...)...)
	if code != 0 {
		t.Fatalf("report tables --rollup=false: exit %d: %s", code, stderr)
	}
	playersFromLog, stderr, code := run(t, "", append([]string{"report", "players", "--no-errors", "--rollup=false", "--progress"}, period...)...)
	if code != 0 {
		t.Fatalf("report players --rollup=false: exit %d: %s", code, stderr)
	}
	// --progress says the rounds read on stderr, every 1,000 and at the end.
	if !strings.HasPrefix(stderr, "report: 1000 rounds read\nreport: 2000 rounds read\nreport: 3000 rounds read\n") || !strings.HasSuffix(stderr, fmt.Sprintf("report: %d rounds read\n", rounds)) {
		t.Errorf("report players --progress: stderr %q", stderr)
	}
	advFromLog, stderr, code := run(t, "", append([]string{"report", "advantage", "--rollup=false"}, period...)...)
	if code != 0 {
		t.Fatalf("report advantage --rollup=false: exit %d: %s", code, stderr)
	}
	reps := [][]string{{"tables"}, {"players", "--no-errors"}, {"players"}, {"advantage"}}
	cut := [][]string{{"--from", "2026-01-03T05:17:00Z", "--to", "2026-07-04T13:44:00Z"}, {"--from", "2026-03-01T10:00:00Z", "--to", "2026-03-01T11:00:00Z"}}
	var cutFromLog []string
	if !store.IsPostgres(db) {
		logOnly := filepath.Join(t.TempDir(), "log-only.db")
		data, err := os.ReadFile(db)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(logOnly, data, 0o600); err != nil {
			t.Fatal(err)
		}
		for _, c := range cut {
			for _, rep := range reps {
				out, stderr, code := run(t, "", append(append([]string{"report"}, rep...), append([]string{"--rollup=false", "--db", logOnly, "--json"}, c...)...)...)
				if code != 0 {
					t.Fatalf("report %v %v: exit %d: %s", rep, c, code, stderr)
				}
				cutFromLog = append(cutFromLog, out)
			}
		}
	}
	// report tables rolls up first, then reads the hours: the same
	// report, byte for byte.
	stdout, stderr, code := run(t, "", append([]string{"report", "tables"}, period...)...)
	if code != 0 {
		t.Fatalf("report tables: exit %d: %s", code, stderr)
	}
	if stdout != fromLog {
		t.Fatalf("from the rollups:\n%s\nfrom the log:\n%s", stdout, fromLog)
	}
	for i, out := range cutFromLog {
		rep := reps[i%len(reps)]
		got, stderr, code := run(t, "", append(append([]string{"report"}, rep...), append([]string{"--db", db, "--json"}, cut[i/len(reps)]...)...)...)
		if code != 0 || got != out {
			t.Fatalf("report %v %v: exit %d (%s); from the rollups\n%s\nfrom the log\n%s", rep, cut[i/len(reps)], code, stderr, got, out)
		}
	}
	var r report.Tables
	if err := json.Unmarshal([]byte(stdout), &r); err != nil {
		t.Fatal(err)
	}
	if len(r.Tables) != 4 || r.Total.Rounds != rounds || r.Total.Initial == 0 {
		t.Fatalf("%d tables, %d rounds, %d staked; want 4 tables and %d rounds", len(r.Tables), r.Total.Rounds, r.Total.Initial, rounds)
	}
	for _, x := range append(r.Tables, r.Total) {
		if x.LedgerHouseNet == nil || *x.LedgerHouseNet != x.Win {
			t.Errorf("table %d: report win %d, ledger house net %v", x.Table, x.Win, x.LedgerHouseNet)
		}
	}
	stdout, stderr, code = run(t, "", append([]string{"report", "players", "--no-errors"}, period...)...)
	if code != 0 {
		t.Fatalf("report players: exit %d: %s", code, stderr)
	}
	if stdout != playersFromLog {
		t.Fatalf("the players from the rollups:\n%s\nfrom the log:\n%s", stdout, playersFromLog)
	}
	if got, stderr, code := run(t, "", append([]string{"report", "advantage"}, period...)...); code != 0 || got != advFromLog {
		t.Fatalf("report advantage: exit %d (%s); from the rollups\n%s\nfrom the log\n%s", code, stderr, got, advFromLog)
	}
	if out, stderr, code := run(t, "", "report", "rollup", "--db", db, "--kind", report.RollupTables, "--kind", report.RollupPlayers, "--kind", report.RollupAdvantage); code != 0 || out != "rolled up 0 tables: 0 records read past their marks\n" {
		t.Fatalf("report rollup with nothing new: exit %d, %q %s", code, out, stderr)
	}
	var p report.Players
	if err := json.Unmarshal([]byte(stdout), &p); err != nil {
		t.Fatal(err)
	}
	var initial, win money.Amount
	for _, x := range p.Players {
		initial, win = initial+x.Initial, win+x.Win
	}
	if initial != r.Total.Initial || win != r.Total.Win {
		t.Errorf("the players staked %d and lost %d, the tables took %d and won %d", initial, win, r.Total.Initial, r.Total.Win)
	}
	if _, stderr, code := run(t, "", "ledger", "check", "--db", db); code != 0 {
		t.Errorf("ledger check: exit %d: %s", code, stderr)
	}
}

func TestReportSynth(t *testing.T) {
	t.Parallel()
	checkReportSynth(t, filepath.Join(t.TempDir(), "sabot.db"), "1")
}

func TestReportSynthPostgres(t *testing.T) {
	t.Parallel()
	checkReportSynth(t, storetest.PostgresDSN(t), "2")
}
