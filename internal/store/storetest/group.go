package storetest

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"sabot"
	"sabot/internal/store/sqlstore"
)

// The tests of the group commit: Append's transactions are shared by the
// appends of many tables (sqlstore/group.go).

// Batcher is a store with a group commit: every driver's.
type Batcher interface {
	AppendBatch(ctx context.Context, batch []sqlstore.BatchAppend)
	GroupStats() sqlstore.GroupStats
}

func batcher(tb testing.TB, s sabot.Store) Batcher {
	tb.Helper()
	b, ok := s.(Batcher)
	if !ok {
		tb.Fatalf("%T has no group commit (AppendBatch, GroupStats)", s)
	}
	return b
}

// One batch holding appends that are written, refused, duplicated (of an
// append earlier in the same batch) and for a table that does not exist:
// each gets the outcome it would have had alone, the refused ones leave
// nothing (no record, no money, no Seq), and the others commit together in
// one transaction.
func testAppendBatch(t *testing.T, s sabot.Store) {
	ctx := context.Background()
	b := batcher(t, s)
	tbl := &sabot.Table{Name: "t", Profile: "venice"}
	must(t, s.CreateTable(ctx, tbl))
	other := &sabot.Table{Name: "u", Profile: "venice"}
	must(t, s.CreateTable(ctx, other))
	wallet, table := account(t, s, sabot.AccountWallet, 1), account(t, s, sabot.AccountTable, tbl.ID)
	credit(t, s, wallet, 100)
	before := b.GroupStats()

	item := func(rec *sabot.LogRecord, ps []sabot.Posting) sqlstore.BatchAppend {
		return sqlstore.BatchAppend{Rec: sabot.Appending(rec), Postings: ps}
	}
	batch := []sqlstore.BatchAppend{
		item(bet(tbl.ID, 1, "c", "k1", wallet, table, 60)),                  // 0: written, seq 1
		item(bet(tbl.ID, 1, "c", "k2", wallet, table, 60)),                  // 1: 40 left: refused
		item(&sabot.LogRecord{TableID: other.ID, Kind: sabot.LogDeal}, nil), // 2: the other table's seq 1
		item(bet(tbl.ID, 1, "c", "k1", wallet, table, 999)),                 // 3: a duplicate of 0
		item(bet(999, 1, "c", "k4", wallet, table, 10)),                     // 4: no such table
		item(bet(tbl.ID, 1, "c", "k5", wallet, table, 40)),                  // 5: written, seq 2: no gap
		item(bet(tbl.ID, 1, "c", "k6", wallet, table, 10)),                  // 6: unbalanced: refused first
		item(&sabot.LogRecord{TableID: tbl.ID, Kind: sabot.LogDeal}, nil),   // 7: seq 3
		item(bet(tbl.ID, 1, "c", "k2", wallet, table, 10)),                  // 8: the empty wallet: refused again
	}
	batch[6].Postings[1].Amount = 9
	b.AppendBatch(ctx, batch)

	for i, want := range []struct {
		code string
		dup  bool
		seq  int64
	}{{"", false, 1}, {sabot.EINSUFFICIENT, false, 0}, {"", false, 1}, {"", true, 1}, {sabot.ENOTFOUND, false, 0},
		{"", false, 2}, {sabot.EINVALID, false, 0}, {"", false, 3}, {sabot.EINSUFFICIENT, false, 0}} {
		got := batch[i]
		if sabot.ErrorCode(got.Err) != want.code || got.Dup != want.dup || want.code == "" && got.Rec.Seq != want.seq {
			t.Errorf("append %d: err %v dup %v seq %d; want code %q dup %v seq %d", i, got.Err, got.Dup, got.Rec.Seq, want.code, want.dup, want.seq)
		}
	}
	if !reflect.DeepEqual(batch[3].Rec, batch[0].Rec) {
		t.Errorf("the duplicate got %+v, want the first record %+v", batch[3].Rec, batch[0].Rec)
	}
	after := b.GroupStats()
	if txs, appends, refused := after.Transactions-before.Transactions, after.Appends-before.Appends, after.Refused-before.Refused; txs != 1 || appends != 4 || refused != 4 {
		t.Errorf("the batch: %d transactions, %d appends written, %d refused; want 1, 4, 4 (the unbalanced one never reached the database)", txs, appends, refused)
	}

	log, err := s.Log(ctx, tbl.ID, 1)
	must(t, err)
	if len(log) != 3 || log[0].CommandID != "k1" || log[1].CommandID != "k5" || log[2].Kind != sabot.LogDeal {
		t.Fatalf("log %s", dump(log))
	}
	for i, r := range log {
		if r.Seq != int64(i+1) {
			t.Fatalf("record %d has seq %d: %s", i, r.Seq, dump(log))
		}
	}
	if !reflect.DeepEqual(log[0], batch[0].Rec.LogRecord) || !reflect.DeepEqual(log[1], batch[5].Rec.LogRecord) {
		t.Fatalf("stored %+v %+v, returned %+v %+v", log[0], log[1], batch[0].Rec.LogRecord, batch[5].Rec.LogRecord)
	}
	if w, tb := balance(t, s, sabot.AccountWallet, 1), balance(t, s, sabot.AccountTable, tbl.ID); w != 0 || tb != 100 {
		t.Fatalf("wallet %d table %d, want 0 and 100", w, tb)
	}
	r := checkLedger(t, s)
	if r.Transactions != 3 { // the credit and the two bets
		t.Fatalf("report %+v: want 3 transactions", r)
	}
	// A batch that is all refusals commits nothing and changes nothing.
	rec, ps := bet(tbl.ID, 1, "c", "k7", wallet, table, 1)
	batch = []sqlstore.BatchAppend{item(rec, ps), item(bet(999, 1, "c", "k8", wallet, table, 0))}
	b.AppendBatch(ctx, batch)
	if sabot.ErrorCode(batch[0].Err) != sabot.EINSUFFICIENT || sabot.ErrorCode(batch[1].Err) != sabot.ENOTFOUND {
		t.Fatalf("refusals: %v, %v", batch[0].Err, batch[1].Err)
	}
	if got := checkLedger(t, s); !reflect.DeepEqual(got, r) {
		t.Fatalf("refusals wrote: %+v, then %+v", r, got)
	}

	// A database failure in one append (here a log whose next Seq was
	// taken behind the store's back) fails the batch's transaction: its
	// appends are tried again one by one, and only the bad one fails.
	broken := &sabot.Table{Name: "broken", Profile: "venice"}
	must(t, s.CreateTable(ctx, broken))
	must(t, raw(t, s).RawExec(ctx, `INSERT INTO log (table_id, seq, kind, client_id, command_id, user_id, round_no, created)
		VALUES ($1, 1, 'deal', '', '', 0, 0, 0)`, broken.ID))
	credit(t, s, wallet, 30)
	before = b.GroupStats()
	batch = []sqlstore.BatchAppend{
		item(bet(tbl.ID, 1, "c", "k9", wallet, table, 30)),
		item(&sabot.LogRecord{TableID: broken.ID, Kind: sabot.LogDeal}, nil),
		item(&sabot.LogRecord{TableID: other.ID, Kind: sabot.LogDeal}, nil),
	}
	b.AppendBatch(ctx, batch)
	if batch[0].Err != nil || batch[0].Rec.Seq != 4 || sabot.ErrorCode(batch[1].Err) != sabot.EINTERNAL || batch[2].Err != nil || batch[2].Rec.Seq != 2 {
		t.Fatalf("a batch with a failing append: %v seq %d, %v, %v seq %d; want seq 4, an internal error, seq 2",
			batch[0].Err, batch[0].Rec.Seq, batch[1].Err, batch[2].Err, batch[2].Rec.Seq)
	}
	if after := b.GroupStats(); after.Transactions-before.Transactions != 2 || after.Appends-before.Appends != 2 {
		t.Fatalf("%d transactions, %d appends; want the two good appends in one transaction each",
			after.Transactions-before.Transactions, after.Appends-before.Appends)
	}
	if w := balance(t, s, sabot.AccountWallet, 1); w != 0 {
		t.Fatalf("wallet %d, want 0", w)
	}
	checkLedger(t, s)
}

// Many tables appending at once share transactions: fewer transactions
// than appends, and each table's log is still gapless and in the order of
// its appends.
func testAppendGroupCommit(t *testing.T, s sabot.Store) {
	ctx := context.Background()
	b := batcher(t, s)
	const tables, each, stake = 40, 25, 10
	house := account(t, s, sabot.AccountHouse, 0)
	before := b.GroupStats()
	var wg sync.WaitGroup
	ids := make([]int64, tables)
	errs := make(chan error, tables)
	for i := range tables {
		tbl := &sabot.Table{Name: fmt.Sprint("t", i), Profile: "venice"}
		must(t, s.CreateTable(ctx, tbl))
		ids[i] = tbl.ID
		wallet, table := account(t, s, sabot.AccountWallet, int64(i+1)), account(t, s, sabot.AccountTable, tbl.ID)
		credit(t, s, wallet, each*stake)
		wg.Go(func() {
			for n := range each {
				var rec *sabot.LogRecord
				var ps []sabot.Posting
				if n%5 == 4 { // the house takes the stakes: a settlement
					rec = &sabot.LogRecord{TableID: tbl.ID, Kind: sabot.LogSettle, RoundNo: int64(n)}
					ps = []sabot.Posting{{AccountID: table, Amount: -4 * stake}, {AccountID: house, Amount: 4 * stake}}
				} else {
					rec, ps = bet(tbl.ID, int64(i+1), "c", fmt.Sprint(n), wallet, table, stake)
				}
				dup, err := s.Append(ctx, sabot.Appending(rec), ps)
				if err != nil || dup || rec.Seq != int64(n+1) {
					errs <- fmt.Errorf("table %d append %d: dup %v seq %d err %v", tbl.ID, n, dup, rec.Seq, err)
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	after := b.GroupStats()
	txs, appends := after.Transactions-before.Transactions, after.Appends-before.Appends
	if appends != tables*each || txs >= appends || after.Largest < 2 {
		t.Fatalf("%d appends in %d transactions (the largest %d): want %d in fewer", appends, txs, after.Largest, tables*each)
	}
	t.Logf("%d appends in %d transactions, at most %d in one", appends, txs, after.Largest)
	for _, id := range ids {
		log, err := s.Log(ctx, id, 1)
		must(t, err)
		for i, r := range log {
			if r.Seq != int64(i+1) || (i%5 == 4) != (r.Kind == sabot.LogSettle) || r.Kind == sabot.LogBet && r.CommandID != fmt.Sprint(i) {
				t.Fatalf("table %d: record %d out of place: %s", id, i, dump(log))
			}
		}
		if len(log) != each {
			t.Fatalf("table %d: %d records, want %d", id, len(log), each)
		}
	}
	if h := balance(t, s, sabot.AccountHouse, 0); h != -tables*each*stake+tables*(each/5)*4*stake {
		t.Fatalf("house %d", h)
	}
	checkLedger(t, s)
}

// Closing the store while appends are being committed loses no
// acknowledged append: every append that returned is stored with its Seq,
// every append that failed left nothing, and the logs stay gapless and the
// ledger balanced. (Crash runs the same check across a kill -9.)
func testAppendClose(t *testing.T, s sabot.Store) {
	ctx := context.Background()
	db := raw(t, s)
	const tables, stake = 16, 10
	type outcome struct {
		table, seq int64
		command    string
		err        error
	}
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		out   []outcome
		acked = make(chan struct{}, 1<<16)
	)
	for i := range tables {
		tbl := &sabot.Table{Name: fmt.Sprint("t", i), Profile: "venice"}
		must(t, s.CreateTable(ctx, tbl))
		wallet, table := account(t, s, sabot.AccountWallet, int64(i+1)), account(t, s, sabot.AccountTable, tbl.ID)
		credit(t, s, wallet, 1<<30)
		wg.Go(func() {
			for n := 0; ; n++ {
				rec, ps := bet(tbl.ID, int64(i+1), "c", fmt.Sprint(n), wallet, table, stake)
				_, err := s.Append(ctx, sabot.Appending(rec), ps)
				mu.Lock()
				out = append(out, outcome{tbl.ID, rec.Seq, rec.CommandID, err})
				mu.Unlock()
				if err != nil {
					return
				}
				acked <- struct{}{}
			}
		})
	}
	for range 300 {
		<-acked
	}
	must(t, s.Close()) // while the tables append
	wg.Wait()

	acks, fails := 0, 0
	for _, o := range out {
		seq, err := db.RawInt64(ctx, `SELECT COALESCE(MAX(seq), 0) FROM log WHERE table_id = $1 AND client_id = 'c' AND command_id = $2`, o.table, o.command)
		must(t, err)
		switch {
		case o.err == nil && seq != o.seq:
			t.Errorf("table %d: the append of command %s was acknowledged with seq %d, stored with %d", o.table, o.command, o.seq, seq)
		case o.err != nil && seq != 0:
			t.Errorf("table %d: the append of command %s failed (%v) but is stored with seq %d", o.table, o.command, o.err, seq)
		}
		if o.err == nil {
			acks++
		} else {
			fails++
		}
	}
	if fails != tables {
		t.Errorf("%d appends failed, want one per table (the first after the close)", fails)
	}
	for _, q := range []string{
		`SELECT COUNT(*) FROM tables t WHERE t.last_seq <> (SELECT COUNT(*) FROM log l WHERE l.table_id = t.id)
			OR t.last_seq <> (SELECT COALESCE(MAX(seq), 0) FROM log l WHERE l.table_id = t.id)`,
		`SELECT COUNT(*) FROM accounts a WHERE a.balance <> (SELECT COALESCE(SUM(amount), 0) FROM entries e WHERE e.account_id = a.id)`,
		`SELECT COUNT(*) FROM log l WHERE l.kind = 'bet' AND NOT EXISTS (SELECT 1 FROM transactions x WHERE x.table_id = l.table_id AND x.seq = l.seq)`,
		`SELECT COALESCE(SUM(balance), 0) FROM accounts`,
	} {
		n, err := db.RawInt64(ctx, q)
		must(t, err)
		if n != 0 {
			t.Errorf("after the close: %d from %s", n, q)
		}
	}
	stored, err := db.RawInt64(ctx, `SELECT COUNT(*) FROM log`)
	must(t, err)
	if stored != int64(acks) {
		t.Errorf("%d records stored, %d appends acknowledged", stored, acks)
	}
	t.Logf("%d appends acknowledged, %d failed at the close", acks, fails)
}

// crashEnv carries the crashing child's DSN and tables.
const crashEnv = "SABOT_STORETEST_CRASH"

// Crash kills a process with SIGKILL while it appends from many tables, then
// checks that every append the process acknowledged (reported on its stdout
// as Append returned) is in the store with its Seq, that the logs are
// gapless and that the ledger balances. The child is the test binary itself,
// running the calling test, which must be a top-level test that calls Crash
// first: dsn names a fresh database (the parent's; the child gets it from
// the environment) and open opens a DSN.
func Crash(t *testing.T, dsn func() string, open func(tb testing.TB, dsn string) sabot.Store) {
	if env := os.Getenv(crashEnv); env != "" {
		crashChild(t, env, open)
		return
	}
	ctx := context.Background()
	d := dsn()
	s := open(t, d)
	const tables = 24
	var spec []string
	for i := range tables {
		tbl := &sabot.Table{Name: fmt.Sprint("t", i), Profile: "venice"}
		must(t, s.CreateTable(ctx, tbl))
		wallet, table := account(t, s, sabot.AccountWallet, int64(i+1)), account(t, s, sabot.AccountTable, tbl.ID)
		credit(t, s, wallet, 1<<30)
		spec = append(spec, fmt.Sprintf("%d:%d:%d", tbl.ID, wallet, table))
	}
	must(t, s.Close())

	cmd := exec.Command(os.Args[0], "-test.run=^"+t.Name()+"$", "-test.count=1")
	cmd.Env = append(os.Environ(), crashEnv+"="+d+" "+strings.Join(spec, ","))
	cmd.Stderr = os.Stderr
	stdout, err := cmd.StdoutPipe()
	must(t, err)
	must(t, cmd.Start())
	acked := map[[2]int64]string{} // table, seq → command
	sc := bufio.NewScanner(stdout)
	killed := false
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) != 4 || f[0] != "ack" {
			continue
		}
		tbl, _ := strconv.ParseInt(f[1], 10, 64)
		seq, _ := strconv.ParseInt(f[2], 10, 64)
		acked[[2]int64{tbl, seq}] = f[3]
		if len(acked) == 1500 && !killed {
			cmd.Process.Kill() // SIGKILL: what it wrote before stays readable
			killed = true
		}
	}
	cmd.Wait()
	if !killed {
		t.Fatalf("the child ended after %d acknowledged appends without being killed", len(acked))
	}

	s = open(t, d)
	defer s.Close()
	found := 0
	for i := range tables {
		var id int64
		fmt.Sscanf(spec[i], "%d:", &id)
		log, err := s.Log(ctx, id, 1)
		must(t, err)
		for j, r := range log {
			if r.Seq != int64(j+1) {
				t.Fatalf("table %d: record %d has seq %d", id, j, r.Seq)
			}
			if cmd, ok := acked[[2]int64{id, r.Seq}]; ok {
				if cmd != r.CommandID {
					t.Fatalf("table %d seq %d: acknowledged for command %s, stored for %s", id, r.Seq, cmd, r.CommandID)
				}
				found++
			}
		}
		if w := balance(t, s, sabot.AccountWallet, int64(i+1)); w != 1<<30-10*int64(len(log)) {
			t.Fatalf("table %d: %d bets in the log, the wallet holds %d", id, len(log), w)
		}
	}
	if found != len(acked) {
		t.Fatalf("%d appends were acknowledged before the kill, %d of them are stored", len(acked), found)
	}
	checkLedger(t, s)
	t.Logf("%d appends acknowledged before SIGKILL, all stored", len(acked))
}

// crashChild appends bets from every table until it is killed, printing
// "ack TABLE SEQ COMMAND" for each append as soon as Append returns.
func crashChild(t *testing.T, env string, open func(tb testing.TB, dsn string) sabot.Store) {
	dsn, spec, _ := strings.Cut(env, " ")
	s := open(t, dsn)
	ctx := context.Background()
	var mu sync.Mutex
	for i, tr := range strings.Split(spec, ",") {
		var tbl, wallet, table int64
		fmt.Sscanf(tr, "%d:%d:%d", &tbl, &wallet, &table)
		go func() {
			for n := 0; ; n++ {
				rec, ps := bet(tbl, int64(i+1), "crash", fmt.Sprint(n), wallet, table, 10)
				if _, err := s.Append(ctx, sabot.Appending(rec), ps); err != nil {
					fmt.Fprintln(os.Stderr, "crash child:", err)
					os.Exit(3)
				}
				mu.Lock()
				fmt.Fprintf(os.Stdout, "ack %d %d %s\n", tbl, rec.Seq, rec.CommandID) // unbuffered: one write
				mu.Unlock()
			}
		}()
	}
	time.Sleep(time.Minute) // the parent kills it long before
	os.Exit(4)
}

// A store with a group commit tells an observer of each transaction: its
// appends, its time, and how long each decision in it waited for the
// writer; nil stops the calls.
func testObserveCommits(t *testing.T, s sabot.Store) {
	ctx := context.Background()
	o, ok := s.(sabot.CommitObserver)
	if !ok {
		t.Fatalf("%T does not report its commits (sabot.CommitObserver)", s)
	}
	tbl := &sabot.Table{Name: "t", Profile: "venice"}
	must(t, s.CreateTable(ctx, tbl))
	var mu sync.Mutex
	var commits, appends, waits int
	var took time.Duration
	o.ObserveCommits(func(c sabot.CommitStats) {
		mu.Lock()
		defer mu.Unlock()
		commits++
		appends += c.Appends
		waits += len(c.Waits)
		took += c.Took
		for _, w := range c.Waits {
			if w < 0 || w > time.Minute {
				t.Errorf("a decision waited %v", w)
			}
		}
	})
	for _, kind := range []string{sabot.LogDeal, sabot.LogAction, sabot.LogAction, sabot.LogTimeout, sabot.LogSettle} {
		_, err := s.Append(ctx, &sabot.LogAppend{LogRecord: &sabot.LogRecord{TableID: tbl.ID, Kind: kind}}, nil)
		must(t, err)
	}
	// The observer is told once the appends have their outcome: soon after.
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(time.Millisecond) {
		mu.Lock()
		seen := appends
		mu.Unlock()
		if seen >= 5 || time.Now().After(deadline) {
			break
		}
	}
	mu.Lock()
	if commits == 0 || appends != 5 || waits != 3 || took <= 0 {
		t.Errorf("observed %d commits of %d appends, %d decisions' waits, %v in all; want 5 appends, 3 waits", commits, appends, waits, took)
	}
	n := commits
	mu.Unlock()
	o.ObserveCommits(nil)
	_, err := s.Append(ctx, &sabot.LogAppend{LogRecord: &sabot.LogRecord{TableID: tbl.ID, Kind: sabot.LogAction}}, nil)
	must(t, err)
	time.Sleep(10 * time.Millisecond) // a call would come by now
	mu.Lock()
	defer mu.Unlock()
	if commits != n {
		t.Errorf("a commit was observed after ObserveCommits(nil)")
	}
}
