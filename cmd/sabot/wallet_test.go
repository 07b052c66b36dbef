package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"sabot"
	"sabot/internal/store"
	"sabot/internal/wallet/walletsim"
	"sabot/money"
)

// sabot wallet reconcile finds every kind of difference between the
// outbox and the operator's statement, and agrees when there is none
// (issue 14, deliverable 5).
func TestWalletReconcile(t *testing.T) {
	ctx := context.Background()
	db := filepath.Join(t.TempDir(), "sabot.db")
	st, err := store.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	tb := &sabot.Table{Name: "t", Profile: "vegas-s17"}
	if err := st.CreateTable(ctx, tb); err != nil {
		t.Fatal(err)
	}
	call := func(id, op string, amount int64, ref string) sabot.WalletCall {
		return sabot.WalletCall{ID: id, Op: op, Player: "p1", Round: "1-1", Amount: money.Amount(amount), Reference: ref}
	}
	if _, err := st.Append(ctx, &sabot.LogRecord{TableID: tb.ID, Kind: "x", Calls: []sabot.WalletCall{
		call("d1", "debit", 100, ""), call("c1", "credit", 200, ""), call("d2", "debit", 50, ""),
		call("d3", "debit", 70, ""), call("r3", "rollback", 70, "d3"), call("c2", "credit", 0, ""),
	}}, nil); err != nil {
		t.Fatal(err)
	}
	o := st.(sabot.Outbox)
	now := time.Now()
	for id, state := range map[string]string{"d1": sabot.CallOK, "c1": sabot.CallOK, "d2": sabot.CallLapsed, "d3": sabot.CallLapsed, "r3": sabot.CallOK} {
		if err := o.AnswerCall(ctx, id, state, nil, now, time.Time{}); err != nil {
			t.Fatal(err)
		}
	}
	st.Close()
	ok := func(id, op string, amount int64) walletsim.Entry {
		return walletsim.Entry{TransactionID: id, Op: op, Player: "p1", Amount: amount, Status: "ok", At: now}
	}
	write := func(es []walletsim.Entry) string {
		f := filepath.Join(t.TempDir(), "statement.json")
		b, _ := json.Marshal(es)
		os.WriteFile(f, b, 0o600)
		return f
	}
	// Agreeing, but for c2 not delivered yet.
	agree := []walletsim.Entry{ok("d1", "debit", 100), ok("c1", "credit", 200), ok("d3", "debit", 70), ok("r3", "rollback", 70),
		{TransactionID: "a-1", Op: "authenticate", Status: "ok"}}
	out, errOut, code := run(t, "", "wallet", "reconcile", "--db", db, "--statement", write(agree))
	if code != exitFailure || !strings.Contains(out, "credit c2") || !strings.Contains(out, "not answered yet") || strings.Count(out, "\n") != 1 {
		t.Fatalf("one call undelivered: exit %d\n%s%s", code, out, errOut)
	}
	// Every difference.
	diff := []walletsim.Entry{ok("d1", "debit", 100), ok("c1", "credit", 250), ok("d2", "debit", 50), ok("d3", "debit", 70),
		ok("x9", "credit", 5)}
	out, _, code = run(t, "", "wallet", "reconcile", "--db", db, "--statement", write(diff))
	for _, want := range []string{
		"credit c1 (p1, 1-1, 200): the operator has credit of 250",
		"debit d2 (p1, 1-1, 50): lapsed in sabot (no answer in time) and taken by the operator, with no rollback acknowledged",
		"rollback r3 (p1, 1-1, 70): acknowledged in sabot; not in the operator's statement",
		"credit x9 (p1, , 5): in the operator's statement; sabot made no such call",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
	if code != exitFailure || strings.Contains(out, "debit d1") || strings.Contains(out, "debit d3") {
		t.Fatalf("exit %d\n%s", code, out)
	}
	// Refused input: exit 2, one line.
	if _, e, code := run(t, "", "wallet", "reconcile", "--db", db); code != exitRefused || !strings.Contains(e, "--statement FILE") {
		t.Fatalf("no statement: %d %q", code, e)
	}
	if _, e, code := run(t, "", "wallet", "reconcile", "--db", db, "--statement", write(nil), "--since", "yesterday"); code != exitRefused || !strings.Contains(e, "2026-11-25") {
		t.Fatalf("a bad time: %d %q", code, e)
	}
}
