package recall_test

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"sabot"
	"sabot/internal/recall"
	"sabot/internal/report"
	"sabot/internal/store"
)

var updateLogFixture = flag.Bool("update-log-fixture", false, "rewrite testdata/log-1b82554.golden from the fixture's store")

// TestLogFixture replays a store written by the code of main at 1b82554
// (testdata/log-1b82554.db, written by TestWriteLogFixture in
// internal/server, build tag logfixture): every round's recall and replay,
// every shoe, the significant events, the pit's reports and their rollups
// read from it are what that code read (testdata/log-1b82554.golden,
// written by that code with -update-log-fixture). A change of how the log
// is typed changes no byte of what is stored, nor of what is read from it.
func TestLogFixture(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db := filepath.Join(dir, "log.db")
	copyFile(t, filepath.Join("testdata", "log-1b82554.db"), db)
	st, err := store.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var out bytes.Buffer
	put := func(what string, v any, err error) {
		t.Helper()
		if err != nil {
			fmt.Fprintf(&out, "== %s\nerror: %v\n", what, err)
			return
		}
		b, jerr := json.MarshalIndent(v, "", " ")
		if jerr != nil {
			t.Fatal(jerr)
		}
		fmt.Fprintf(&out, "== %s\n%s\n", what, b)
	}
	tables, err := st.Tables(ctx)
	if err != nil {
		t.Fatal(err)
	}
	slices.SortFunc(tables, func(a, b *sabot.Table) int { return int(a.ID - b.ID) })
	for _, tb := range tables {
		recs, err := st.Find(ctx, sabot.LogQuery{TableID: tb.ID, Kinds: sabot.LogKinds})
		if err != nil {
			t.Fatal(err)
		}
		rounds, shoes := map[int64]bool{}, map[int64]bool{}
		for _, r := range recs {
			put(fmt.Sprintf("table %d record %d %s words", tb.ID, r.Seq, r.Kind), recall.Words(r), nil)
			if r.RoundNo > 0 {
				rounds[r.RoundNo] = true
			}
			if r.ShoeNo > 0 {
				shoes[r.ShoeNo] = true
			}
		}
		for _, no := range slices.Sorted(mapsKeys(rounds)) {
			id := recall.RoundID(tb.ID, int(no))
			rr, err := recall.Recall(ctx, st, id)
			put("recall "+id, rr, err)
			if err == nil {
				put("for player "+id, rr, recall.ForPlayer(ctx, st, rr))
			}
			rep, _, err := recall.ReplayRound(ctx, st, id)
			put("replay "+id, rep, err)
		}
		for _, no := range slices.Sorted(mapsKeys(shoes)) {
			id := recall.ShoeID(tb.ID, int(no))
			info, err := recall.ShoeInfo(ctx, st, id, 0, 200)
			put("shoe "+id, info, err)
			v, err := recall.VerifyShoe(ctx, st, id)
			put("verify "+id, v, err)
		}
	}
	evs, err := recall.Events(ctx, st, recall.EventQuery{Limit: 10000})
	put("events", evs, err)

	p := report.Period{From: time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC), To: time.Date(2100, 1, 1, 0, 0, 0, 0, time.UTC)}
	tr, err := report.TablesReport(ctx, st, report.NewTheories(), p)
	put("tables report", tr, err)
	pr, err := report.PlayersReport(ctx, st, report.NewTheories(), p, report.PlayersOptions{})
	put("players report", pr, err)
	ar, err := report.AdvantageReport(ctx, st, p, report.AdvantageOptions{})
	put("advantage report", ar, err)
	rolled, err := report.RollUp(ctx, st, nil, report.RollupKinds(true)...)
	put("rolled", rolled, err)
	for _, kind := range report.RollupKinds(true) {
		marks, rows, err := st.(sabot.Rollups).RollupRows(ctx, kind, 0, sabot.RollupRange{Span: sabot.RollupHour, From: p.From, To: p.To},
			sabot.RollupRange{Span: sabot.RollupDay, From: p.From, To: p.To})
		// The rows are binary: each as its sums' JSON.
		type row struct {
			TableID int64
			Span    time.Duration
			Start   time.Time
			Data    json.RawMessage
		}
		var shown []row
		for _, r := range rows {
			j, jerr := report.RollupJSON(kind, r.Data)
			if jerr != nil {
				t.Fatal(jerr)
			}
			shown = append(shown, row{r.TableID, r.Span, r.Start, j})
		}
		put("rollup rows "+kind, struct {
			Marks map[int64]int64
			Rows  []row
		}{marks, shown}, err)
	}
	tr, err = report.TablesReport(ctx, st, report.NewTheories(), p)
	put("tables report on the rollups", tr, err)

	golden := filepath.Join("testdata", "log-1b82554.golden")
	if *updateLogFixture {
		if err := os.WriteFile(golden, out.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out.Bytes(), want) {
		got := filepath.Join(dir, "got.golden")
		os.WriteFile(got, out.Bytes(), 0o644)
		t.Fatalf("what is read from the fixture's store differs from %s (diff it with %s)", golden, firstDiff(out.Bytes(), want))
	}
}

func mapsKeys(m map[int64]bool) func(func(int64) bool) {
	return func(yield func(int64) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// firstDiff is the first line where got and want differ.
func firstDiff(got, want []byte) string {
	g, w := bytes.Split(got, []byte("\n")), bytes.Split(want, []byte("\n"))
	for i := 0; i < len(g) && i < len(w); i++ {
		if !bytes.Equal(g[i], w[i]) {
			return fmt.Sprintf("line %d: got %q, want %q", i+1, g[i], w[i])
		}
	}
	return fmt.Sprintf("%d lines, want %d", len(g), len(w))
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	in, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	o, err := os.Create(to)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(o, in); err != nil {
		t.Fatal(err)
	}
	if err := o.Close(); err != nil {
		t.Fatal(err)
	}
}
