package storetest

import (
	"context"
	"encoding/json"
	"slices"
	"testing"
	"time"

	"sabot"
	"sabot/internal/store/sqlstore"
)

// The outbox of the calls to the operator's wallet.

func outbox(t *testing.T, s sabot.Store) sabot.Outbox {
	o, ok := s.(sabot.Outbox)
	if !ok {
		t.Fatalf("%T is not a sabot.Outbox", s)
	}
	return o
}

// An operator's player is made once, found again by the operator's ID, and
// never takes a name that is someone else's.
func testOperatorUser(t *testing.T, s sabot.Store) {
	ctx := context.Background()
	o := outbox(t, s)
	u, err := o.OperatorUser(ctx, "p-17", "@p-17")
	must(t, err)
	if u.ID == 0 || u.OperatorID != "p-17" || u.Name != "@p-17" || len(u.PasswordHash) != 0 {
		t.Fatalf("made %+v", u)
	}
	again, err := o.OperatorUser(ctx, "p-17", "@p-17")
	must(t, err)
	if again.ID != u.ID {
		t.Fatalf("found again as %d, made as %d", again.ID, u.ID)
	}
	if got, err := s.UserByID(ctx, u.ID); err != nil || got.OperatorID != "p-17" {
		t.Fatalf("read back %+v, %v", got, err)
	}
	must(t, s.CreateUser(ctx, &sabot.User{Name: "ana", PasswordHash: []byte("x")}))
	if _, err := o.OperatorUser(ctx, "p-18", "ana"); sabot.ErrorCode(err) != sabot.ECONFLICT {
		t.Fatalf("a name taken: %v", err)
	}
	if got, _ := s.UserByName(ctx, "ana"); got.OperatorID != "" {
		t.Fatalf("a registered player has an operator ID %q", got.OperatorID)
	}
	if _, err := o.OperatorUser(ctx, "", "@"); sabot.ErrorCode(err) != sabot.EINVALID {
		t.Fatalf("no operator ID: %v", err)
	}
}

// A record's calls are written with it or not at all; a repeated command
// writes none; a debit is counted once, and only once acknowledged.
func testOutboxAppend(t *testing.T, s sabot.Store) {
	ctx := context.Background()
	o := outbox(t, s)
	tb := &sabot.Table{Name: "t", Profile: "vegas-s17"}
	must(t, s.CreateTable(ctx, tb))
	debit := sabot.WalletCall{ID: "d1", Op: "debit", Player: "p1", UserID: 7, Round: "1-1", Amount: 500, Kind: "main"}
	rec := &sabot.LogAppend{LogRecord: &sabot.LogRecord{TableID: tb.ID, Kind: "wallet", ClientID: "c", CommandID: "k1"}, Calls: []sabot.WalletCall{debit}}
	if _, err := s.Append(ctx, rec, nil); err != nil {
		t.Fatal(err)
	}
	calls, err := o.Calls(ctx, sabot.CallQuery{TableID: tb.ID})
	must(t, err)
	if len(calls) != 1 || calls[0].ID != "d1" || calls[0].Seq != rec.Seq || calls[0].State != sabot.CallPending ||
		calls[0].Amount != 500 || calls[0].Player != "p1" || calls[0].UserID != 7 || calls[0].Round != "1-1" || calls[0].Counted {
		t.Fatalf("the outbox holds %+v", calls)
	}
	// The same command again: a duplicate, no second call.
	dup, err := s.Append(ctx, &sabot.LogAppend{LogRecord: &sabot.LogRecord{TableID: tb.ID, Kind: "wallet", ClientID: "c", CommandID: "k1"}, Calls: []sabot.WalletCall{{ID: "d2", Op: "debit", Player: "p1", Amount: 1}}}, nil)
	if err != nil || !dup {
		t.Fatalf("a repeated command: dup %v, %v", dup, err)
	}
	if calls, _ := o.Calls(ctx, sabot.CallQuery{}); len(calls) != 1 {
		t.Fatalf("a repeated command wrote its call: %+v", calls)
	}
	// A call already in the outbox is refused with its record.
	last := rec.Seq
	_, err = s.Append(ctx, &sabot.LogAppend{LogRecord: &sabot.LogRecord{TableID: tb.ID, Kind: "wallet"}, Calls: []sabot.WalletCall{debit}}, nil)
	code(t, err, sabot.ECONFLICT)
	// A stake on a debit not acknowledged: refused, nothing written.
	_, err = s.Append(ctx, &sabot.LogAppend{LogRecord: &sabot.LogRecord{TableID: tb.ID, Kind: "bet"}, Counts: []string{"d1"}}, nil)
	code(t, err, sabot.ECONFLICT)
	if log, _ := s.Log(ctx, tb.ID, 1); log[len(log)-1].Seq != last {
		t.Fatalf("a refused append wrote record %d", log[len(log)-1].Seq)
	}
	ans := json.RawMessage(`{"transaction_id":"d1","status":"ok","balance":9500}`)
	must(t, o.AnswerCall(ctx, "d1", sabot.CallOK, ans, Now(), time.Time{}))
	// Answered twice: the first answer stands.
	must(t, o.AnswerCall(ctx, "d1", sabot.CallRefused, json.RawMessage(`{}`), Now().Add(time.Second), time.Time{}))
	if err := o.AnswerCall(ctx, "nope", sabot.CallOK, nil, Now(), time.Time{}); sabot.ErrorCode(err) != sabot.ENOTFOUND {
		t.Fatalf("answering no call: %v", err)
	}
	if err := o.AnswerCall(ctx, "d1", "maybe", nil, Now(), time.Time{}); sabot.ErrorCode(err) != sabot.EINVALID {
		t.Fatalf("a state that is not one: %v", err)
	}
	open, err := o.Calls(ctx, sabot.CallQuery{Uncounted: true, States: []string{sabot.CallOK}})
	must(t, err)
	if len(open) != 1 || string(open[0].Answer) != string(ans) || !open[0].Answered.Equal(Now()) {
		t.Fatalf("the debit acknowledged: %+v", open)
	}
	bet := &sabot.LogAppend{LogRecord: &sabot.LogRecord{TableID: tb.ID, Kind: "bet"}, Counts: []string{"d1"}}
	if _, err := s.Append(ctx, bet, nil); err != nil {
		t.Fatal(err)
	}
	if open, _ := o.Calls(ctx, sabot.CallQuery{Uncounted: true}); len(open) != 0 {
		t.Fatalf("a counted debit is still open: %+v", open)
	}
	// Counted once only: a second stake on it is refused.
	_, err = s.Append(ctx, &sabot.LogAppend{LogRecord: &sabot.LogRecord{TableID: tb.ID, Kind: "bet"}, Counts: []string{"d1"}}, nil)
	code(t, err, sabot.ECONFLICT)

	// In a batch, a refused append writes no call; the others do.
	batch := []sqlstore.BatchAppend{
		{Rec: &sabot.LogAppend{LogRecord: &sabot.LogRecord{TableID: tb.ID, Kind: "settle"}, Calls: []sabot.WalletCall{{ID: "c1", Op: "credit", Player: "p1", Amount: 1000}}}},
		{Rec: &sabot.LogAppend{LogRecord: &sabot.LogRecord{TableID: tb.ID, Kind: "bet"}, Counts: []string{"d1"}, Calls: []sabot.WalletCall{{ID: "c2", Op: "credit", Player: "p1"}}}},
		{Rec: &sabot.LogAppend{LogRecord: &sabot.LogRecord{TableID: tb.ID, Kind: "void"}, Calls: []sabot.WalletCall{{ID: "r1", Op: "rollback", Player: "p1", Reference: "d9", Amount: 5}}}},
	}
	batcher(t, s).AppendBatch(ctx, batch)
	if batch[0].Err != nil || sabot.ErrorCode(batch[1].Err) != sabot.ECONFLICT || batch[2].Err != nil {
		t.Fatalf("the batch's outcomes: %v, %v, %v", batch[0].Err, batch[1].Err, batch[2].Err)
	}
	calls, _ = o.Calls(ctx, sabot.CallQuery{TableID: tb.ID})
	var ids []string
	for _, c := range calls {
		ids = append(ids, c.ID)
	}
	if !slices.Equal(ids, []string{"c1", "d1", "r1"}) { // written at the same time (the test's clock): by ID
		t.Fatalf("the outbox after the batch: %v", ids)
	}
	// Malformed calls are refused before anything is written.
	for _, c := range []sabot.WalletCall{
		{Op: "credit", Player: "p1"},
		{ID: "x", Op: "withdraw", Player: "p1"},
		{ID: "x", Op: "credit"},
		{ID: "x", Op: "credit", Player: "p1", Amount: -1},
		{ID: "x", Op: "rollback", Player: "p1"},
	} {
		_, err := s.Append(ctx, &sabot.LogAppend{LogRecord: &sabot.LogRecord{TableID: tb.ID, Kind: "x"}, Calls: []sabot.WalletCall{c}}, nil)
		code(t, err, sabot.EINVALID)
	}
}

// A deliverer claims the credits and rollbacks due, never a debit, and no
// two claims take the same call before its lease is over.
func testOutboxClaim(t *testing.T, s sabot.Store) {
	ctx := context.Background()
	o := outbox(t, s)
	tb := &sabot.Table{Name: "t", Profile: "vegas-s17"}
	must(t, s.CreateTable(ctx, tb))
	rec := &sabot.LogAppend{LogRecord: &sabot.LogRecord{TableID: tb.ID, Kind: "settle"}, Calls: []sabot.WalletCall{
		{ID: "d", Op: "debit", Player: "p", Amount: 5},
		{ID: "c", Op: "credit", Player: "p", Amount: 10},
		{ID: "r", Op: "rollback", Player: "p", Amount: 5, Reference: "d0"},
	}}
	if _, err := s.Append(ctx, rec, nil); err != nil {
		t.Fatal(err)
	}
	now := Now()
	got, err := o.ClaimCalls(ctx, now, 10, time.Minute)
	must(t, err)
	if len(got) != 2 || got[0].Op == "debit" || got[1].Op == "debit" || got[0].Attempts != 1 || !got[0].NextTry.Equal(now.Add(time.Minute)) {
		t.Fatalf("claimed %+v", got)
	}
	if again, _ := o.ClaimCalls(ctx, now.Add(time.Second), 10, time.Minute); len(again) != 0 {
		t.Fatalf("claimed again within the lease: %+v", again)
	}
	must(t, o.AnswerCall(ctx, "c", sabot.CallOK, json.RawMessage(`{"status":"ok"}`), now, time.Time{}))
	// No answer for r: its next try moves back.
	must(t, o.AnswerCall(ctx, "r", sabot.CallPending, nil, time.Time{}, now.Add(2*time.Second)))
	got, err = o.ClaimCalls(ctx, now.Add(2*time.Second), 10, time.Minute)
	must(t, err)
	if len(got) != 1 || got[0].ID != "r" || got[0].Attempts != 2 {
		t.Fatalf("claimed after the retry %+v", got)
	}
	if one, _ := o.ClaimCalls(ctx, now.Add(time.Hour), 1, time.Minute); len(one) != 1 {
		t.Fatalf("a claim of 1 took %d", len(one))
	}
	// The period and the operation select.
	if cs, _ := o.Calls(ctx, sabot.CallQuery{Op: "credit", Since: now.Add(-time.Hour), Until: now.Add(time.Hour)}); len(cs) != 1 || cs[0].ID != "c" {
		t.Fatalf("the credits of the period: %+v", cs)
	}
	if cs, _ := o.Calls(ctx, sabot.CallQuery{Until: now.Add(-time.Hour)}); len(cs) != 0 {
		t.Fatalf("before the period: %+v", cs)
	}
}

// A launch token opens one game session; a user's latest session is found.
func testLaunchTokens(t *testing.T, s sabot.Store) {
	ctx := context.Background()
	o := outbox(t, s)
	if got, err := o.LaunchSession(ctx, 7); err != nil || got != "" {
		t.Fatalf("no launch yet: %q %v", got, err)
	}
	now := time.Unix(1_800_000_000, 0)
	must(t, o.UseLaunchToken(ctx, "h1", 7, "a-1", now))
	if err := o.UseLaunchToken(ctx, "h1", 8, "a-1", now.Add(time.Second)); sabot.ErrorCode(err) != sabot.ECONFLICT {
		t.Fatalf("a token used again: %v", err)
	}
	must(t, o.UseLaunchToken(ctx, "h2", 7, "a-2", now.Add(time.Minute)))
	if got, err := o.LaunchSession(ctx, 7); err != nil || got != "a-2" {
		t.Fatalf("the latest session: %q %v", got, err)
	}
}

// A credit or rollback refused is money owed until a call that sends it
// again is acknowledged or it is resolved by hand; the calls sending it
// again are written when due, one at a time, and a resolution waits for
// the one out.
func testOutboxOwed(t *testing.T, s sabot.Store) {
	ctx := context.Background()
	o := outbox(t, s)
	tb := &sabot.Table{Name: "t", Profile: "vegas-s17"}
	must(t, s.CreateTable(ctx, tb))
	_, err := s.Append(ctx, &sabot.LogAppend{LogRecord: &sabot.LogRecord{TableID: tb.ID, Kind: "x"}, Calls: []sabot.WalletCall{
		{ID: "c1", Op: "credit", Player: "p1", Round: "1-3", Amount: 2000, Kind: "settle", RoundClosed: true, Game: "blackjack-vegas-s17", Session: "a-1"},
		{ID: "r1", Op: "rollback", Player: "p1", Round: "1-2", Amount: 500, Reference: "d1", Kind: "void"},
		{ID: "d2", Op: "debit", Player: "p1", Round: "1-3", Amount: 100},
	}}, nil)
	must(t, err)
	now := time.Unix(1_800_000_000, 0)
	refused := json.RawMessage(`{"transaction_id":"x","status":"refused","balance":0,"reason":"player_blocked"}`)
	must(t, o.AnswerCall(ctx, "c1", sabot.CallRefused, refused, now, time.Time{}))
	must(t, o.AnswerCall(ctx, "r1", sabot.CallRefused, refused, now, time.Time{}))
	must(t, o.AnswerCall(ctx, "d2", sabot.CallRefused, refused, now, time.Time{})) // a debit refused owes nothing
	ids := func(cs []*sabot.WalletCall) []string {
		var out []string
		for _, c := range cs {
			out = append(out, c.ID)
		}
		return out
	}
	owed, err := o.Owed(ctx)
	must(t, err)
	if !slices.Equal(ids(owed), []string{"c1", "r1"}) || !owed[0].RoundClosed || owed[0].Game != "blackjack-vegas-s17" || owed[0].Session != "a-1" {
		t.Fatalf("owed %v %+v", ids(owed), owed)
	}
	// Nothing due before a retry is scheduled; then one call at a time.
	if due, err := o.RetryOwed(ctx, now); err != nil || len(due) != 0 {
		t.Fatalf("due with no retry scheduled: %v %v", ids(due), err)
	}
	must(t, o.ScheduleRetry(ctx, "c1", now.Add(time.Minute)))
	if due, err := o.RetryOwed(ctx, now); err != nil || len(due) != 0 {
		t.Fatalf("due before its time: %v %v", ids(due), err)
	}
	due, err := o.RetryOwed(ctx, now.Add(time.Minute))
	must(t, err)
	if !slices.Equal(ids(due), []string{"c1-2"}) || due[0].RetryOf != "c1" || due[0].Amount != 2000 || due[0].State != sabot.CallPending {
		t.Fatalf("sent again: %+v", due)
	}
	if again, _ := o.RetryOwed(ctx, now.Add(time.Hour)); len(again) != 0 {
		t.Fatalf("sent again twice: %v", ids(again))
	}
	claimed, err := o.ClaimCalls(ctx, now.Add(time.Minute), 10, time.Minute)
	must(t, err)
	if !slices.Equal(ids(claimed), []string{"c1-2"}) {
		t.Fatalf("claimed %v", ids(claimed))
	}
	if err := o.ResolveOwed(ctx, "c1", "paid", "pit", now); sabot.ErrorCode(err) != sabot.ECONFLICT {
		t.Fatalf("resolved while a try is out: %v", err)
	}
	// Refused again, scheduled (from the call sent again), sent a third time.
	must(t, o.AnswerCall(ctx, "c1-2", sabot.CallRefused, refused, now, time.Time{}))
	must(t, o.ScheduleRetry(ctx, "c1-2", now.Add(2*time.Minute)))
	due, err = o.RetryOwed(ctx, now.Add(2*time.Minute))
	must(t, err)
	if !slices.Equal(ids(due), []string{"c1-3"}) {
		t.Fatalf("the third try: %v", ids(due))
	}
	// Paid: no longer owed.
	must(t, o.AnswerCall(ctx, "c1-3", sabot.CallOK, nil, now, time.Time{}))
	owed, err = o.Owed(ctx)
	must(t, err)
	if !slices.Equal(ids(owed), []string{"r1"}) {
		t.Fatalf("owed after the credit paid: %v", ids(owed))
	}
	// Resolved by hand: recorded, no longer owed, never sent again.
	if err := o.ResolveOwed(ctx, "r1", " ", "pit", now); sabot.ErrorCode(err) != sabot.EINVALID {
		t.Fatalf("no reason: %v", err)
	}
	must(t, o.ScheduleRetry(ctx, "r1", now))
	must(t, o.ResolveOwed(ctx, "r1", "given back by the operator's cashier", "pit", now))
	if err := o.ResolveOwed(ctx, "r1", "again", "pit", now); sabot.ErrorCode(err) != sabot.ENOTFOUND {
		t.Fatalf("resolved twice: %v", err)
	}
	if due, _ := o.RetryOwed(ctx, now.Add(time.Hour)); len(due) != 0 {
		t.Fatalf("a resolved call sent again: %v", ids(due))
	}
	owed, err = o.Owed(ctx)
	must(t, err)
	calls, err := o.Calls(ctx, sabot.CallQuery{ID: "r1"})
	must(t, err)
	if len(owed) != 0 || calls[0].Resolved != "given back by the operator's cashier" || calls[0].ResolvedBy != "pit" || !calls[0].ResolvedAt.Equal(now) {
		t.Fatalf("owed %v; r1 %+v", ids(owed), calls[0])
	}
}
