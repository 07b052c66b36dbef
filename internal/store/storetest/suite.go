package storetest

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"reflect"
	"sabot/money"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"sabot"
)

// Run runs the suite; open returns a fresh, empty store on the clock Now,
// closed when the test ends.
func Run(t *testing.T, open func(t *testing.T) sabot.Store) {
	tests := []struct {
		name string
		test func(*testing.T, sabot.Store)
	}{
		{"Users", testUsers},
		{"UsersFoldedNames", testUsersFoldedNames},
		{"CheckWritable", testCheckWritable},
		{"Sessions", testSessions},
		{"SessionTokenHashed", testSessionTokenHashed},
		{"SessionsCredentials", testSessionsCredentials},
		{"SessionsCredentialsRace", testSessionsCredentialsRace},
		{"Accounts", testAccounts},
		{"AccountsConcurrent", testAccountsConcurrent},
		{"Balances", testBalances},
		{"Transfer", testTransfer},
		{"TransferRefused", testTransferRefused},
		{"TransferManyAccounts", testTransferManyAccounts},
		{"TransferRace", testTransferRace},
		{"Tables", testTables},
		{"Append", testAppend},
		{"AppendRefused", testAppendRefused},
		{"AppendIdempotent", testAppendIdempotent},
		{"Command", testCommand},
		{"AppendConcurrent", testAppendConcurrent},
		{"AppendConcurrentDuplicates", testAppendConcurrentDuplicates},
		{"AppendRace", testAppendRace},
		{"AppendBatch", testAppendBatch},
		{"BulkLoad", testBulkLoad},
		{"Rollups", testRollups},
		{"ObserveCommits", testObserveCommits},
		{"AppendGroupCommit", testAppendGroupCommit},
		{"AppendClose", testAppendClose},
		{"Find", testFind},
		{"FindIndexed", testFindIndexed},
		{"CheckLedger", testCheckLedger},
		{"TableHouse", testTableHouse},
		{"CheckLedgerCorruptBalance", testCheckLedgerCorruptBalance},
		{"CheckLedgerUnbalancedTransaction", testCheckLedgerUnbalancedTransaction},
		{"AmountBound", testAmountBound},
		{"CheckLedgerOutOfRange", testCheckLedgerOutOfRange},
		{"CareSettings", testCareSettings},
		{"CareUsage", testCareUsage},
		{"StakeGuard", testStakeGuard},
		{"CareSeen", testCareSeen},
		{"SessionsSwept", testSessionsSwept},
		{"CareSeenBounded", testCareSeenBounded},
		{"StaffRoles", testStaffRoles},
		{"Devices", testDevices},
		{"OperatorUser", testOperatorUser},
		{"OutboxAppend", testOutboxAppend},
		{"OutboxClaim", testOutboxClaim},
		{"OutboxOwed", testOutboxOwed},
		{"LaunchTokens", testLaunchTokens},
		{"ClusterClaim", testClusterClaim},
		{"ClusterOwnedAtCreation", testClusterOwnedAtCreation},
		{"ClusterExpiry", testClusterExpiry},
		{"ClusterClaimRace", testClusterClaimRace},
		{"ClusterFenceRace", testClusterFenceRace},
		{"Throttles", testThrottles},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { tt.test(t, open(t)) })
	}
}

func testUsers(t *testing.T, s sabot.Store) {
	ctx := context.Background()
	u := &sabot.User{Name: "ana", PasswordHash: []byte("$2a$10$hash"), Admin: true}
	must(t, s.CreateUser(ctx, u))
	if u.ID == 0 || !u.Created.Equal(Now()) {
		t.Fatalf("created %+v: want an ID and Created %v", u, Now())
	}
	v := &sabot.User{Name: "bruno"}
	must(t, s.CreateUser(ctx, v))
	if v.ID == u.ID {
		t.Fatalf("two users with ID %d", v.ID)
	}

	for _, get := range []func() (*sabot.User, error){
		func() (*sabot.User, error) { return s.UserByName(ctx, "ana") },
		func() (*sabot.User, error) { return s.UserByID(ctx, u.ID) },
	} {
		got, err := get()
		must(t, err)
		if !reflect.DeepEqual(got, u) {
			t.Errorf("got %+v, want %+v", got, u)
		}
	}
	got, err := s.UserByName(ctx, "bruno")
	must(t, err)
	if got.Admin || len(got.PasswordHash) != 0 {
		t.Errorf("bruno: %+v", got)
	}

	err = s.CreateUser(ctx, &sabot.User{Name: "ana"})
	code(t, err, sabot.ECONFLICT)
	if !strings.Contains(sabot.ErrorMessage(err), "ana") {
		t.Errorf("message %q does not name the user", sabot.ErrorMessage(err))
	}
	_, err = s.UserByName(ctx, "carla")
	code(t, err, sabot.ENOTFOUND)
	_, err = s.UserByID(ctx, 999)
	code(t, err, sabot.ENOTFOUND)
	code(t, s.CreateUser(ctx, &sabot.User{}), sabot.EINVALID)
}

// Names are one whatever their case or Unicode form.
func testUsersFoldedNames(t *testing.T, s sabot.Store) {
	ctx := context.Background()
	alice := &sabot.User{Name: "Alice"}
	must(t, s.CreateUser(ctx, alice))
	for _, name := range []string{"alice", "ALICE", "ａｌｉｃｅ"} {
		code(t, s.CreateUser(ctx, &sabot.User{Name: name}), sabot.ECONFLICT)
		got, err := s.UserByName(ctx, name)
		must(t, err)
		if got.ID != alice.ID || got.Name != "Alice" {
			t.Errorf("UserByName(%q) = %+v, want Alice", name, got)
		}
	}
}

// A store that is open for writing passes its readiness check.
func testCheckWritable(t *testing.T, s sabot.Store) {
	w, ok := s.(sabot.WriteChecker)
	if !ok {
		t.Fatalf("%T does not check that it is writable", s)
	}
	must(t, w.CheckWritable(context.Background()))
}

func testSessions(t *testing.T, s sabot.Store) {
	ctx := context.Background()
	u := &sabot.User{Name: "ana"}
	must(t, s.CreateUser(ctx, u))
	x := &sabot.Session{Token: "token-1", UserID: u.ID}
	must(t, s.CreateSession(ctx, x))
	if !x.Created.Equal(Now()) || !x.LastSeen.Equal(Now()) {
		t.Fatalf("session %+v: want Created and LastSeen now", x)
	}
	got, err := s.SessionByToken(ctx, "token-1")
	must(t, err)
	if !reflect.DeepEqual(got, x) {
		t.Fatalf("got %+v, want %+v", got, x)
	}
	_, err = s.SessionByToken(ctx, "token-2")
	code(t, err, sabot.ENOTFOUND)
	code(t, s.CreateSession(ctx, &sabot.Session{Token: "token-1", UserID: u.ID}), sabot.ECONFLICT)
	code(t, s.CreateSession(ctx, &sabot.Session{Token: "token-3", UserID: 999}), sabot.ENOTFOUND)
	code(t, s.CreateSession(ctx, &sabot.Session{UserID: u.ID}), sabot.EINVALID)

	later := Now().Add(90 * time.Minute)
	must(t, s.TouchSession(ctx, "token-1", later))
	got, err = s.SessionByToken(ctx, "token-1")
	must(t, err)
	if !got.LastSeen.Equal(later) || !got.Created.Equal(Now()) {
		t.Fatalf("touched: %+v, want LastSeen %v", got, later)
	}
	code(t, s.TouchSession(ctx, "token-2", later), sabot.ENOTFOUND)
	// The pit's search: players only, by the folded name's prefix, in
	// order, a LIKE's wildcards taken as letters.
	for _, n := range []string{"Anabel", "ann%", "bob", "an_x"} {
		must(t, s.CreateUser(ctx, &sabot.User{Name: n, PasswordHash: []byte("x")}))
	}
	must(t, s.CreateUser(ctx, &sabot.User{Name: "andy", PasswordHash: []byte("x"), Role: sabot.RoleDealer}))
	ps, err := s.Players(ctx, "AN", 10)
	must(t, err)
	var names []string
	for _, p := range ps {
		names = append(names, p.Name)
	}
	slices.Sort(names) // the database's collation orders "an_x" and "ana" its own way
	if strings.Join(names, ",") != "Anabel,an_x,ana,ann%" {
		t.Fatalf("players AN: %q", names)
	}
	if ps, _ := s.Players(ctx, "an%", 10); len(ps) != 0 {
		t.Fatalf("a %% in the prefix matched: %d", len(ps))
	}
	if ps, _ := s.Players(ctx, "an", 1); len(ps) != 1 {
		t.Fatalf("limit 1: %d", len(ps))
	}

	// Several at once: each to the later of its own and the time given,
	// a session gone skipped.
	must(t, s.CreateSession(ctx, &sabot.Session{Token: "token-4", UserID: u.ID, Created: Now(), LastSeen: Now()}))
	must(t, s.TouchSessions(ctx, map[string]time.Time{"token-1": later.Add(-time.Minute), "token-4": later, "token-gone": later}))
	for tok, want := range map[string]time.Time{"token-1": later, "token-4": later} {
		got, err := s.SessionByToken(ctx, tok)
		must(t, err)
		if !got.LastSeen.Equal(want) {
			t.Fatalf("TouchSessions: %s LastSeen %v, want %v", tok, got.LastSeen, want)
		}
	}
	if _, err := s.SessionByToken(ctx, "token-gone"); sabot.ErrorCode(err) != sabot.ENOTFOUND {
		t.Fatalf("TouchSessions made a session: %v", err)
	}
	must(t, s.DeleteSession(ctx, "token-4"))

	must(t, s.DeleteSession(ctx, "token-1"))
	_, err = s.SessionByToken(ctx, "token-1")
	code(t, err, sabot.ENOTFOUND)
	must(t, s.DeleteSession(ctx, "token-1")) // a logout repeated
}

// A password change moves the user's credentials on and ends his sessions
// in one transaction; a session is made only against the credentials that
// are the user's.
func testSessionsCredentials(t *testing.T, s sabot.Store) {
	ctx := context.Background()
	u := &sabot.User{Name: "ana", PasswordHash: []byte("old")}
	must(t, s.CreateUser(ctx, u))
	if u.Credentials != 0 {
		t.Fatalf("a new user's credentials: %d", u.Credentials)
	}
	must(t, s.CreateSession(ctx, &sabot.Session{Token: "before", UserID: u.ID}))
	v, err := s.SetPassword(ctx, u.ID, []byte("new"))
	must(t, err)
	if v != 1 {
		t.Fatalf("credentials after a change: %d, want 1", v)
	}
	got, err := s.UserByID(ctx, u.ID)
	must(t, err)
	if got.Credentials != 1 || string(got.PasswordHash) != "new" {
		t.Fatalf("after the change: %+v", got)
	}
	if got, err := s.UserByName(ctx, "ana"); err != nil || got.Credentials != 1 {
		t.Fatalf("by name after the change: %+v %v", got, err)
	}
	_, err = s.SessionByToken(ctx, "before")
	code(t, err, sabot.ENOTFOUND) // ended with the change
	err = s.CreateSession(ctx, &sabot.Session{Token: "stale", UserID: u.ID, Credentials: 0})
	code(t, err, sabot.EUNAUTHORIZED)
	if r, _ := sabot.ReasonOf(err); r != "credentials_changed" {
		t.Fatalf("a stale session's reason: %q", r)
	}
	if _, err := s.SessionByToken(ctx, "stale"); sabot.ErrorCode(err) != sabot.ENOTFOUND {
		t.Fatalf("a stale session was made: %v", err)
	}
	x := &sabot.Session{Token: "after", UserID: u.ID, Credentials: 1}
	must(t, s.CreateSession(ctx, x))
	back, err := s.SessionByToken(ctx, "after")
	must(t, err)
	if back.Credentials != 1 {
		t.Fatalf("the session's credentials: %d", back.Credentials)
	}
	_, err = s.SetPassword(ctx, 999, []byte("x"))
	code(t, err, sabot.ENOTFOUND)
}

// Logins against the old credentials racing a password change: once the
// change returns, no session of the old credentials is left, whatever the
// interleaving (the insert locks and reads the user's row).
func testSessionsCredentialsRace(t *testing.T, s sabot.Store) {
	ctx := context.Background()
	u := &sabot.User{Name: "ana", PasswordHash: []byte("old")}
	must(t, s.CreateUser(ctx, u))
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			for j := range 5 {
				err := s.CreateSession(ctx, &sabot.Session{Token: fmt.Sprintf("t-%d-%d", i, j), UserID: u.ID})
				if err != nil && sabot.ErrorCode(err) != sabot.EUNAUTHORIZED {
					t.Errorf("a session: %v", err)
				}
			}
		}()
	}
	close(start)
	_, err := s.SetPassword(ctx, u.ID, []byte("new"))
	must(t, err)
	wg.Wait()
	n, err := raw(t, s).RawInt64(ctx, `SELECT COUNT(*) FROM sessions WHERE user_id = $1`, u.ID)
	must(t, err)
	if n != 0 {
		t.Fatalf("%d sessions of the old credentials outlived the change", n)
	}
}

// The database keeps the SHA-256 of a session's token, never the token.
func testSessionTokenHashed(t *testing.T, s sabot.Store) {
	ctx := context.Background()
	db := raw(t, s)
	u := &sabot.User{Name: "ana"}
	must(t, s.CreateUser(ctx, u))
	token := "a-secret-session-token"
	must(t, s.CreateSession(ctx, &sabot.Session{Token: token, UserID: u.ID}))
	h := sha256.Sum256([]byte(token))
	n, err := db.RawInt64(ctx, `SELECT COUNT(*) FROM sessions WHERE token_hash = $1`, h[:])
	must(t, err)
	if n != 1 {
		t.Fatalf("%d sessions stored under the token's SHA-256, want 1", n)
	}
	n, err = db.RawInt64(ctx, `SELECT COUNT(*) FROM sessions WHERE token_hash = $1`, []byte(token))
	must(t, err)
	if n != 0 {
		t.Fatal("the plain token is stored")
	}
}

func testAccounts(t *testing.T, s sabot.Store) {
	ctx := context.Background()
	a, err := s.Account(ctx, sabot.AccountWallet, 7)
	must(t, err)
	if a.ID == 0 || a.Kind != sabot.AccountWallet || a.OwnerID != 7 || a.Balance != 0 {
		t.Fatalf("new account %+v", a)
	}
	b, err := s.Account(ctx, sabot.AccountWallet, 7)
	must(t, err)
	if !reflect.DeepEqual(a, b) {
		t.Fatalf("the same account twice: %+v and %+v", a, b)
	}
	ids := map[int64]bool{a.ID: true}
	for _, k := range []struct {
		kind  string
		owner int64
	}{{sabot.AccountBank, 7}, {sabot.AccountWallet, 8}, {sabot.AccountTable, 7}, {sabot.AccountHouse, 0}} {
		c, err := s.Account(ctx, k.kind, k.owner)
		must(t, err)
		if ids[c.ID] {
			t.Fatalf("%s of %d: ID %d taken", k.kind, k.owner, c.ID)
		}
		ids[c.ID] = true
	}
	_, err = s.Account(ctx, "piggybank", 7)
	code(t, err, sabot.EINVALID)
}

// Callers racing to create one account all get it.
func testAccountsConcurrent(t *testing.T, s sabot.Store) {
	ctx := context.Background()
	const n = 16
	ids := make([]int64, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			a, err := s.Account(ctx, sabot.AccountWallet, 42)
			if err == nil {
				ids[i] = a.ID
			}
			errs[i] = err
		})
	}
	wg.Wait()
	for i := range n {
		must(t, errs[i])
		if ids[i] != ids[0] {
			t.Fatalf("account IDs %v", ids)
		}
	}
	r := checkLedger(t, s)
	if r.Accounts != 1 {
		t.Fatalf("%d accounts, want 1", r.Accounts)
	}
}

// Balances reads several owners' accounts of a kind at once, each as
// Account reads it; an owner without the account holds 0 and is given none.
func testBalances(t *testing.T, s sabot.Store) {
	ctx := context.Background()
	b, ok := s.(interface {
		Balances(ctx context.Context, kind string, owners []int64) (map[int64]money.Amount, error)
	})
	if !ok {
		t.Skip("the store reads balances one by one")
	}
	w1, w2 := account(t, s, sabot.AccountWallet, 1), account(t, s, sabot.AccountWallet, 2)
	credit(t, s, w1, 700)
	credit(t, s, w2, 50)
	account(t, s, sabot.AccountBank, 3)
	credit(t, s, account(t, s, sabot.AccountBank, 1), 9) // another kind: not read
	got, err := b.Balances(ctx, sabot.AccountWallet, []int64{2, 1, 3, 2})
	must(t, err)
	want := map[int64]money.Amount{1: 700, 2: 50, 3: 0}
	if !maps.Equal(got, want) {
		t.Fatalf("balances %v, want %v", got, want)
	}
	if r := checkLedger(t, s); r.Accounts != 5 { // the house, 2 wallets, 2 banks
		t.Fatalf("report %+v: Balances created an account", r)
	}
	for o, w := range want {
		if a := balance(t, s, sabot.AccountWallet, o); money.Amount(a) != w {
			t.Fatalf("Account of wallet %d holds %d, Balances read %d", o, a, w)
		}
	}
	if _, err := b.Balances(ctx, "piggybank", []int64{1}); sabot.ErrorCode(err) != sabot.EINVALID {
		t.Fatalf("a kind that is not: %v, want EINVALID", err)
	}
}

func testTransfer(t *testing.T, s sabot.Store) {
	ctx := context.Background()
	wallet, table := account(t, s, sabot.AccountWallet, 1), account(t, s, sabot.AccountTable, 1)
	credit(t, s, wallet, 10000)
	if b := balance(t, s, sabot.AccountHouse, 0); b != -10000 {
		t.Fatalf("house %d: the house may go below zero", b)
	}
	// Three legs, and one account twice: the wallet is judged on its net.
	must(t, s.Transfer(ctx, "bet and change", []sabot.Posting{
		{AccountID: wallet, Amount: -10000, Memo: "stake"},
		{AccountID: table, Amount: 2500, Memo: "stake"},
		{AccountID: wallet, Amount: 7500, Memo: "change"},
	}))
	if w, tb := balance(t, s, sabot.AccountWallet, 1), balance(t, s, sabot.AccountTable, 1); w != 7500 || tb != 2500 {
		t.Fatalf("wallet %d table %d, want 7500 2500", w, tb)
	}
	// The table account pays out more than it holds: it may.
	must(t, s.Transfer(ctx, "payout", []sabot.Posting{{AccountID: table, Amount: -5000}, {AccountID: wallet, Amount: 5000}}))
	if tb := balance(t, s, sabot.AccountTable, 1); tb != -2500 {
		t.Fatalf("table %d", tb)
	}
	must(t, s.Transfer(ctx, "nothing", nil))
	r := checkLedger(t, s)
	if r.Transactions != 3 || r.Entries != 7 || r.Accounts != 3 {
		t.Fatalf("report %+v, want 3 transactions, 7 entries, 3 accounts", r)
	}
}

// A refused transfer writes nothing.
func testTransferRefused(t *testing.T, s sabot.Store) {
	ctx := context.Background()
	house, wallet, bank := account(t, s, sabot.AccountHouse, 0), account(t, s, sabot.AccountWallet, 1), account(t, s, sabot.AccountBank, 1)
	credit(t, s, wallet, 1000)
	before := checkLedger(t, s)

	code(t, s.Transfer(ctx, "unbalanced", []sabot.Posting{{AccountID: wallet, Amount: -100}, {AccountID: house, Amount: 99}}), sabot.EINVALID)
	code(t, s.Transfer(ctx, "overflow", []sabot.Posting{{AccountID: house, Amount: 1 << 62}, {AccountID: house, Amount: 1 << 62}, {AccountID: wallet, Amount: -(1 << 62)}, {AccountID: wallet, Amount: -(1 << 62)}}), sabot.EINVALID)
	code(t, s.Transfer(ctx, "no account", []sabot.Posting{{AccountID: house, Amount: -5}, {AccountID: 9999, Amount: 5}}), sabot.EINVALID)
	// The house leg comes first by ID and is applied before the wallet
	// refuses: the whole transaction must roll back.
	err := s.Transfer(ctx, "too much", []sabot.Posting{{AccountID: wallet, Amount: -1001}, {AccountID: house, Amount: 1001}})
	code(t, err, sabot.EINSUFFICIENT)
	code(t, s.Transfer(ctx, "bank", []sabot.Posting{{AccountID: bank, Amount: -1}, {AccountID: house, Amount: 1}}), sabot.EINSUFFICIENT)

	after := checkLedger(t, s)
	if !reflect.DeepEqual(before, after) {
		t.Fatalf("refused transfers wrote: %+v, then %+v", before, after)
	}
	if w := balance(t, s, sabot.AccountWallet, 1); w != 1000 {
		t.Fatalf("wallet %d, want 1000", w)
	}
	if h := balance(t, s, sabot.AccountHouse, 0); h != -1000 {
		t.Fatalf("house %d, want -1000", h)
	}
}

// A transaction over more accounts than one statement updates on SQLite
// (applyNets merges a transaction's accounts, 16 at a time): every balance
// moves by its net. A refused one changes none, and names the first account
// in ID order that refuses, whichever way it refuses, as one UPDATE per
// account in ID order did: a wallet short of funds before a net beyond the
// bound, a net beyond the bound before a wallet short of funds.
func testTransferManyAccounts(t *testing.T, s sabot.Store) {
	ctx := context.Background()
	low := account(t, s, sabot.AccountWallet, 500)
	credit(t, s, low, 1000)
	float := account(t, s, sabot.AccountTable, 1)
	var wallets []int64
	var ps []sabot.Posting
	for i := range 20 {
		w := account(t, s, sabot.AccountWallet, int64(600+i))
		wallets = append(wallets, w)
		ps = append(ps, sabot.Posting{AccountID: w, Amount: money.Amount(10 + i), Memo: "win"}, sabot.Posting{AccountID: float, Amount: -money.Amount(10 + i), Memo: "win"})
	}
	must(t, s.Transfer(ctx, "settle", ps))
	for i := range wallets {
		if b := balance(t, s, sabot.AccountWallet, int64(600+i)); b != int64(10+i) {
			t.Fatalf("wallet %d holds %d, want %d", 600+i, b, 10+i)
		}
	}
	if b := balance(t, s, sabot.AccountTable, 1); b != -390 {
		t.Fatalf("the float holds %d, want -390", b)
	}
	house := account(t, s, sabot.AccountHouse, 0)
	high := account(t, s, sabot.AccountWallet, 700)
	before := checkLedger(t, s)
	// Each of the house and the float moves 3 × money.Max, beyond the
	// bound; a wallet below them (low) and one above (high) lack the money;
	// and wallets 610 and 615, in between, too.
	beyond := func(short int64) []sabot.Posting {
		return []sabot.Posting{
			{AccountID: short, Amount: -1001}, {AccountID: wallets[10], Amount: -1000}, {AccountID: wallets[15], Amount: -1000},
			{AccountID: house, Amount: money.Max}, {AccountID: house, Amount: money.Max}, {AccountID: house, Amount: money.Max},
			{AccountID: float, Amount: -money.Max}, {AccountID: float, Amount: -money.Max}, {AccountID: float, Amount: -money.Max},
			{AccountID: float, Amount: 3001},
		}
	}
	err := s.Transfer(ctx, "short first", beyond(low))
	code(t, err, sabot.EINSUFFICIENT)
	if !strings.Contains(err.Error(), "the wallet of 500 holds 1000, the transaction takes 1001") {
		t.Fatalf("short first: %v, want the wallet of 500 named", err)
	}
	err = s.Transfer(ctx, "beyond first", beyond(high))
	code(t, err, sabot.EINVALID)
	if !strings.Contains(err.Error(), fmt.Sprintf("on account %d, beyond the most", house)) {
		t.Fatalf("beyond first: %v, want the house (%d) named", err, house)
	}
	// Wallets 610 and 615 both short, in one statement: the first named.
	var short []sabot.Posting
	for i, w := range wallets {
		take := money.Amount(5)
		if i == 10 || i == 15 {
			take = 1005
		}
		short = append(short, sabot.Posting{AccountID: w, Amount: -take}, sabot.Posting{AccountID: float, Amount: take})
	}
	err = s.Transfer(ctx, "two short", short)
	code(t, err, sabot.EINSUFFICIENT)
	if !strings.Contains(err.Error(), "the wallet of 610 holds 20, the transaction takes 1005") {
		t.Fatalf("two short: %v, want the wallet of 610 named", err)
	}
	if after := checkLedger(t, s); !reflect.DeepEqual(before, after) {
		t.Fatalf("refused transfers wrote: %+v, then %+v", before, after)
	}
	if b := balance(t, s, sabot.AccountWallet, 600); b != 10 {
		t.Fatalf("wallet 600 holds %d after the refusals, want 10", b)
	}
}

// Many goroutines spend from one wallet at once: the balance never goes
// below zero and exactly as many debits succeed as the money allows.
func testTransferRace(t *testing.T, s sabot.Store) {
	ctx := context.Background()
	house, wallet := account(t, s, sabot.AccountHouse, 0), account(t, s, sabot.AccountWallet, 1)
	const credited, stake, players = 1000, 30, 64
	credit(t, s, wallet, credited)
	var (
		wg                sync.WaitGroup
		mu                sync.Mutex
		spent, ok, refuse int64
		other             []error
	)
	for range players {
		wg.Go(func() {
			err := s.Transfer(ctx, "spend", []sabot.Posting{{AccountID: wallet, Amount: -stake}, {AccountID: house, Amount: stake}})
			mu.Lock()
			defer mu.Unlock()
			switch sabot.ErrorCode(err) {
			case "":
				ok++
				spent += stake
			case sabot.EINSUFFICIENT:
				refuse++
			default:
				other = append(other, err)
			}
		})
	}
	wg.Wait()
	if len(other) > 0 {
		t.Fatalf("unexpected errors: %v", other)
	}
	w := balance(t, s, sabot.AccountWallet, 1)
	if w < 0 || spent > credited || w != credited-spent {
		t.Fatalf("wallet %d after spending %d of %d", w, spent, credited)
	}
	if ok != credited/stake || refuse != players-credited/stake {
		t.Fatalf("%d debits succeeded and %d were refused, want %d and %d", ok, refuse, credited/stake, players-credited/stake)
	}
	checkLedger(t, s)
}

func testTables(t *testing.T, s sabot.Store) {
	ctx := context.Background()
	a := &sabot.Table{Name: "Venezia 1", Profile: "venice", Options: map[string]string{"min_bet": "500", "max_bet": "50000"}, TestMode: true}
	b := &sabot.Table{Name: "Madrid", Profile: "spain"}
	must(t, s.CreateTable(ctx, a))
	must(t, s.CreateTable(ctx, b))
	if a.ID == 0 || b.ID == a.ID || !a.Created.Equal(Now()) {
		t.Fatalf("created %+v and %+v", a, b)
	}
	got, err := s.TableByID(ctx, a.ID)
	must(t, err)
	if !reflect.DeepEqual(got, a) {
		t.Fatalf("got %+v, want %+v", got, a)
	}
	all, err := s.Tables(ctx)
	must(t, err)
	if len(all) != 2 || !reflect.DeepEqual(all[0], a) || !reflect.DeepEqual(all[1], b) {
		t.Fatalf("tables %+v %+v", all[0], all[1])
	}
	_, err = s.TableByID(ctx, 999)
	code(t, err, sabot.ENOTFOUND)
}

func testFind(t *testing.T, s sabot.Store) {
	ctx := context.Background()
	a := &sabot.Table{Name: "A", Profile: "spain"}
	b := &sabot.Table{Name: "B", Profile: "venice"}
	must(t, s.CreateTable(ctx, a))
	must(t, s.CreateTable(ctx, b))
	at := func(sec int) time.Time { return Now().Add(time.Duration(sec) * time.Second) }
	for _, r := range []*sabot.LogRecord{
		{TableID: a.ID, Kind: sabot.LogTableOpened, Created: at(0)},
		{TableID: b.ID, Kind: sabot.LogTableOpened, Created: at(1)},
		{TableID: a.ID, Kind: sabot.LogAction, Created: at(2)},
		{TableID: a.ID, Kind: sabot.LogAdmin, Created: at(3), Payload: json.RawMessage(`{"event":"void"}`)},
		{TableID: b.ID, Kind: sabot.LogAdmin, Created: at(3)},
		{TableID: a.ID, Kind: sabot.LogVoid, Created: at(4)},
		{TableID: a.ID, Kind: sabot.LogAdmin, Created: at(5)},
	} {
		_, err := s.Append(ctx, sabot.Appending(r), nil)
		must(t, err)
	}
	ids := func(recs []*sabot.LogRecord) string {
		var out []string
		for _, r := range recs {
			out = append(out, fmt.Sprintf("%d.%d", r.TableID, r.Seq))
		}
		return strings.Join(out, " ")
	}
	A, B := a.ID, b.ID
	for _, tc := range []struct {
		q    sabot.LogQuery
		want string
	}{
		{sabot.LogQuery{Kinds: []string{sabot.LogAdmin, sabot.LogVoid}},
			fmt.Sprintf("%d.3 %d.2 %d.4 %d.5", A, B, A, A)},
		{sabot.LogQuery{Kinds: []string{sabot.LogAdmin}, TableID: A}, fmt.Sprintf("%d.3 %d.5", A, A)},
		{sabot.LogQuery{Kinds: []string{sabot.LogAdmin}, TableID: A, Newest: true, Limit: 1}, fmt.Sprintf("%d.5", A)},
		{sabot.LogQuery{Kinds: []string{sabot.LogAdmin, sabot.LogTableOpened}, Since: at(1), Limit: 2}, fmt.Sprintf("%d.1 %d.3", B, A)},
		{sabot.LogQuery{Kinds: []string{sabot.LogSettle}}, ""},
	} {
		got, err := s.Find(ctx, tc.q)
		must(t, err)
		if ids(got) != tc.want {
			t.Errorf("Find(%+v) = %q, want %q", tc.q, ids(got), tc.want)
		}
	}
	got, err := s.Find(ctx, sabot.LogQuery{Kinds: []string{sabot.LogAdmin}, TableID: A, Limit: 1})
	must(t, err)
	if len(got) != 1 || string(got[0].Payload) != `{"event":"void"}` || !got[0].Created.Equal(at(3)) || got[0].Kind != sabot.LogAdmin {
		t.Errorf("Find returned %+v", got)
	}
	_, err = s.Find(ctx, sabot.LogQuery{})
	code(t, err, sabot.EINVALID)
}

// bet is the log record of a stake with its postings.
func bet(tbl, user int64, client, command string, wallet, table, stake int64) (*sabot.LogRecord, []sabot.Posting) {
	return &sabot.LogRecord{
			TableID: tbl, Kind: sabot.LogBet, ClientID: client, CommandID: command, UserID: user, RoundNo: 1,
			Payload: json.RawMessage(fmt.Sprintf(`{"box": 1, "stake": %d}`, stake)),
		}, []sabot.Posting{
			{AccountID: wallet, Amount: -money.Amount(stake), Memo: "stake"},
			{AccountID: table, Amount: money.Amount(stake), Memo: "stake"},
		}
}

func testAppend(t *testing.T, s sabot.Store) {
	ctx := context.Background()
	tbl := &sabot.Table{Name: "t", Profile: "venice"}
	must(t, s.CreateTable(ctx, tbl))
	other := &sabot.Table{Name: "u", Profile: "spain"}
	must(t, s.CreateTable(ctx, other))
	wallet, table := account(t, s, sabot.AccountWallet, 1), account(t, s, sabot.AccountTable, tbl.ID)
	credit(t, s, wallet, 1000)

	open := &sabot.LogRecord{TableID: tbl.ID, Kind: sabot.LogTableOpened, Payload: json.RawMessage(`{"profile":"venice"}`)}
	dup, err := s.Append(ctx, sabot.Appending(open), nil)
	must(t, err)
	if dup || open.Seq != 1 || !open.Created.Equal(Now()) {
		t.Fatalf("first record: dup %v, %+v", dup, open)
	}
	rec, ps := bet(tbl.ID, 1, "c1", "k1", wallet, table, 250)
	dup, err = s.Append(ctx, sabot.Appending(rec), ps)
	must(t, err)
	if dup || rec.Seq != 2 {
		t.Fatalf("second record: dup %v, seq %d", dup, rec.Seq)
	}
	// Another table's log has its own Seq.
	o := &sabot.LogRecord{TableID: other.ID, Kind: sabot.LogTableOpened}
	_, err = s.Append(ctx, sabot.Appending(o), nil)
	must(t, err)
	if o.Seq != 1 {
		t.Fatalf("the other table's first record has seq %d", o.Seq)
	}
	at := Now().Add(time.Second)
	deal := &sabot.LogRecord{TableID: tbl.ID, Kind: sabot.LogDeal, RoundNo: 1, Created: at}
	_, err = s.Append(ctx, sabot.Appending(deal), nil)
	must(t, err)
	if deal.Seq != 3 || !deal.Created.Equal(at) {
		t.Fatalf("third record %+v", deal)
	}

	if w, tb := balance(t, s, sabot.AccountWallet, 1), balance(t, s, sabot.AccountTable, tbl.ID); w != 750 || tb != 250 {
		t.Fatalf("wallet %d table %d", w, tb)
	}
	log, err := s.Log(ctx, tbl.ID, 1)
	must(t, err)
	if len(log) != 3 || !reflect.DeepEqual(log[0], open) || !reflect.DeepEqual(log[1], rec) || !reflect.DeepEqual(log[2], deal) {
		t.Fatalf("log %s", dump(log))
	}
	// The payload comes back byte for byte, spaces and all.
	if !bytes.Equal(log[1].Payload, []byte(`{"box": 1, "stake": 250}`)) || log[2].Payload != nil {
		t.Fatalf("payloads %q %q", log[1].Payload, log[2].Payload)
	}
	log, err = s.Log(ctx, tbl.ID, 3)
	must(t, err)
	if len(log) != 1 || log[0].Seq != 3 {
		t.Fatalf("log from 3: %s", dump(log))
	}
	log, err = s.Log(ctx, tbl.ID, 4)
	must(t, err)
	if len(log) != 0 {
		t.Fatalf("log from 4: %s", dump(log))
	}
	_, err = s.Log(ctx, 999, 1)
	code(t, err, sabot.ENOTFOUND)
	r := checkLedger(t, s)
	if r.Transactions != 2 || r.Entries != 4 {
		t.Fatalf("report %+v: want 2 transactions (credit, bet), 4 entries", r)
	}
}

// A refused append writes nothing: no record, no money, no Seq used.
func testAppendRefused(t *testing.T, s sabot.Store) {
	ctx := context.Background()
	tbl := &sabot.Table{Name: "t", Profile: "venice"}
	must(t, s.CreateTable(ctx, tbl))
	wallet, table := account(t, s, sabot.AccountWallet, 1), account(t, s, sabot.AccountTable, tbl.ID)
	credit(t, s, wallet, 100)
	before := checkLedger(t, s)

	rec, ps := bet(tbl.ID, 1, "c", "k1", wallet, table, 101)
	_, err := s.Append(ctx, sabot.Appending(rec), ps)
	code(t, err, sabot.EINSUFFICIENT)
	rec, ps = bet(tbl.ID, 1, "c", "k2", wallet, table, 50)
	ps[1].Amount = 49
	_, err = s.Append(ctx, sabot.Appending(rec), ps)
	code(t, err, sabot.EINVALID)
	rec, ps = bet(tbl.ID, 1, "c", "k3", wallet, table, 50)
	rec.Payload = json.RawMessage(`{"box":`)
	_, err = s.Append(ctx, sabot.Appending(rec), ps)
	code(t, err, sabot.EINVALID)
	rec, ps = bet(999, 1, "c", "k4", wallet, table, 50)
	_, err = s.Append(ctx, sabot.Appending(rec), ps)
	code(t, err, sabot.ENOTFOUND)
	_, err = s.Append(ctx, &sabot.LogAppend{LogRecord: &sabot.LogRecord{TableID: tbl.ID}}, nil)
	code(t, err, sabot.EINVALID)

	if after := checkLedger(t, s); !reflect.DeepEqual(before, after) {
		t.Fatalf("refused appends wrote: %+v, then %+v", before, after)
	}
	log, err := s.Log(ctx, tbl.ID, 1)
	must(t, err)
	if len(log) != 0 {
		t.Fatalf("refused appends left records: %s", dump(log))
	}
	// The refused command may be sent again once it can succeed.
	rec, ps = bet(tbl.ID, 1, "c", "k1", wallet, table, 100)
	dup, err := s.Append(ctx, sabot.Appending(rec), ps)
	must(t, err)
	if dup || rec.Seq != 1 {
		t.Fatalf("after refusals: dup %v seq %d, want the first record", dup, rec.Seq)
	}
}

// Command finds the record a command wrote, on its table only; a command
// never written is ENOTFOUND.
func testCommand(t *testing.T, s sabot.Store) {
	ctx := context.Background()
	tbl := &sabot.Table{Name: "t", Profile: "venice"}
	must(t, s.CreateTable(ctx, tbl))
	other := &sabot.Table{Name: "u", Profile: "venice"}
	must(t, s.CreateTable(ctx, other))
	first := &sabot.LogRecord{TableID: tbl.ID, Kind: sabot.LogSit, ClientID: "c1", CommandID: "k1", UserID: 1, Payload: json.RawMessage(`{"player":"ana","box":1}`)}
	_, err := s.Append(ctx, sabot.Appending(first), nil)
	must(t, err)
	got, err := s.Command(ctx, tbl.ID, "c1", "k1")
	must(t, err)
	if !reflect.DeepEqual(got, first) {
		t.Fatalf("Command gives %+v, want %+v", got, first)
	}
	for _, q := range []struct {
		table           int64
		client, command string
	}{{other.ID, "c1", "k1"}, {tbl.ID, "c2", "k1"}, {tbl.ID, "c1", "k2"}, {tbl.ID, "", ""}} {
		if r, err := s.Command(ctx, q.table, q.client, q.command); sabot.ErrorCode(err) != sabot.ENOTFOUND {
			t.Fatalf("Command(%d, %q, %q) = %+v, %v; want not_found", q.table, q.client, q.command, r, err)
		}
	}
}

func testAppendIdempotent(t *testing.T, s sabot.Store) {
	ctx := context.Background()
	tbl := &sabot.Table{Name: "t", Profile: "venice"}
	must(t, s.CreateTable(ctx, tbl))
	other := &sabot.Table{Name: "u", Profile: "venice"}
	must(t, s.CreateTable(ctx, other))
	wallet, table := account(t, s, sabot.AccountWallet, 1), account(t, s, sabot.AccountTable, tbl.ID)
	credit(t, s, wallet, 1000)

	first, ps := bet(tbl.ID, 1, "c1", "k1", wallet, table, 100)
	dup, err := s.Append(ctx, sabot.Appending(first), ps)
	must(t, err)
	if dup {
		t.Fatal("the first append is a duplicate")
	}
	// The same command again, even with another stake: nothing is written,
	// and rec comes back as the first record.
	again, ps := bet(tbl.ID, 1, "c1", "k1", wallet, table, 300)
	again.Created = Now().Add(time.Hour)
	dup, err = s.Append(ctx, sabot.Appending(again), ps)
	must(t, err)
	if !dup || !reflect.DeepEqual(again, first) {
		t.Fatalf("repeated command: dup %v, rec %+v, want %+v", dup, again, first)
	}
	// A repeated command that would now be refused is still a duplicate.
	again, ps = bet(tbl.ID, 1, "c1", "k1", wallet, table, 5000)
	dup, err = s.Append(ctx, sabot.Appending(again), ps)
	must(t, err)
	if !dup || again.Seq != first.Seq {
		t.Fatalf("repeated command beyond the wallet: dup %v %+v", dup, again)
	}
	if w := balance(t, s, sabot.AccountWallet, 1); w != 900 {
		t.Fatalf("wallet %d: a duplicate moved money", w)
	}

	// Not the same command: another client, another command, another table,
	// or no IDs at all (never deduplicated).
	for i, rec := range []*sabot.LogRecord{
		{TableID: tbl.ID, Kind: sabot.LogAction, ClientID: "c2", CommandID: "k1"},
		{TableID: tbl.ID, Kind: sabot.LogAction, ClientID: "c1", CommandID: "k2"},
		{TableID: other.ID, Kind: sabot.LogAction, ClientID: "c1", CommandID: "k1"},
		{TableID: tbl.ID, Kind: sabot.LogAction},
		{TableID: tbl.ID, Kind: sabot.LogAction},
		{TableID: tbl.ID, Kind: sabot.LogAction, ClientID: "c1"},
		{TableID: tbl.ID, Kind: sabot.LogAction, ClientID: "c1"},
		{TableID: tbl.ID, Kind: sabot.LogAction, CommandID: "k1"},
		{TableID: tbl.ID, Kind: sabot.LogAction, CommandID: "k1"},
	} {
		dup, err := s.Append(ctx, sabot.Appending(rec), nil)
		must(t, err)
		if dup {
			t.Errorf("record %d (%+v) taken for a duplicate", i, rec)
		}
	}
	log, err := s.Log(ctx, tbl.ID, 1)
	must(t, err)
	if len(log) != 9 {
		t.Fatalf("%d records, want 9: %s", len(log), dump(log))
	}
	checkLedger(t, s)
}

// Concurrent appends to one table get Seq 1, 2, 3… with no gap and no
// repeat, while appends to another table count on their own.
func testAppendConcurrent(t *testing.T, s sabot.Store) {
	ctx := context.Background()
	a := &sabot.Table{Name: "a", Profile: "venice"}
	b := &sabot.Table{Name: "b", Profile: "venice"}
	must(t, s.CreateTable(ctx, a))
	must(t, s.CreateTable(ctx, b))
	wallet, table := account(t, s, sabot.AccountWallet, 1), account(t, s, sabot.AccountTable, a.ID)
	credit(t, s, wallet, 1<<30)

	const workers, each = 8, 15
	errs := make(chan error, 2*workers*each)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := range each {
				rec, ps := bet(a.ID, 1, fmt.Sprintf("c%d", w), fmt.Sprintf("k%d", i), wallet, table, 10)
				if _, err := s.Append(ctx, sabot.Appending(rec), ps); err != nil {
					errs <- err
				}
				if _, err := s.Append(ctx, &sabot.LogAppend{LogRecord: &sabot.LogRecord{TableID: b.ID, Kind: sabot.LogAction}}, nil); err != nil {
					errs <- err
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	for _, tbl := range []int64{a.ID, b.ID} {
		log, err := s.Log(ctx, tbl, 1)
		must(t, err)
		if len(log) != workers*each {
			t.Fatalf("table %d: %d records, want %d", tbl, len(log), workers*each)
		}
		for i, r := range log {
			if r.Seq != int64(i+1) {
				t.Fatalf("table %d: record %d has seq %d", tbl, i, r.Seq)
			}
		}
	}
	if tb := balance(t, s, sabot.AccountTable, a.ID); tb != workers*each*10 {
		t.Fatalf("table account %d", tb)
	}
	checkLedger(t, s)
}

// The same command sent many times at once is written once; every sender
// gets the one record.
func testAppendConcurrentDuplicates(t *testing.T, s sabot.Store) {
	ctx := context.Background()
	tbl := &sabot.Table{Name: "t", Profile: "venice"}
	must(t, s.CreateTable(ctx, tbl))
	wallet, table := account(t, s, sabot.AccountWallet, 1), account(t, s, sabot.AccountTable, tbl.ID)
	credit(t, s, wallet, 1000)

	const senders = 24
	recs := make([]*sabot.LogRecord, senders)
	dups := make([]bool, senders)
	errs := make([]error, senders)
	var wg sync.WaitGroup
	for i := range senders {
		wg.Go(func() {
			rec, ps := bet(tbl.ID, 1, "c1", "k1", wallet, table, 100)
			dups[i], errs[i] = s.Append(ctx, sabot.Appending(rec), ps)
			recs[i] = rec
		})
	}
	wg.Wait()
	written := 0
	for i := range senders {
		must(t, errs[i])
		if !dups[i] {
			written++
		}
		if recs[i].Seq != 1 || !reflect.DeepEqual(recs[i], recs[0]) {
			t.Fatalf("sender %d got %+v, sender 0 %+v", i, recs[i], recs[0])
		}
	}
	if written != 1 {
		t.Fatalf("%d senders wrote the command, want 1", written)
	}
	log, err := s.Log(ctx, tbl.ID, 1)
	must(t, err)
	if len(log) != 1 {
		t.Fatalf("%d records: %s", len(log), dump(log))
	}
	if w := balance(t, s, sabot.AccountWallet, 1); w != 900 {
		t.Fatalf("wallet %d, want 900: the stake was taken more than once", w)
	}
	checkLedger(t, s)
}

// Bets racing for one wallet through Append: the wallet never goes below
// zero, a refused bet leaves no record, and the log stays gapless.
func testAppendRace(t *testing.T, s sabot.Store) {
	ctx := context.Background()
	tbl := &sabot.Table{Name: "t", Profile: "venice"}
	must(t, s.CreateTable(ctx, tbl))
	wallet, table := account(t, s, sabot.AccountWallet, 1), account(t, s, sabot.AccountTable, tbl.ID)
	const credited, stake, bets = 1000, 70, 40
	credit(t, s, wallet, credited)
	var (
		wg     sync.WaitGroup
		mu     sync.Mutex
		placed int64
		other  []error
	)
	for i := range bets {
		wg.Go(func() {
			rec, ps := bet(tbl.ID, 1, "c", fmt.Sprint(i), wallet, table, stake)
			_, err := s.Append(ctx, sabot.Appending(rec), ps)
			mu.Lock()
			defer mu.Unlock()
			switch sabot.ErrorCode(err) {
			case "":
				placed++
			case sabot.EINSUFFICIENT:
			default:
				other = append(other, err)
			}
		})
	}
	wg.Wait()
	if len(other) > 0 {
		t.Fatalf("unexpected errors: %v", other)
	}
	if placed != credited/stake {
		t.Fatalf("%d bets placed, want %d", placed, credited/stake)
	}
	if w := balance(t, s, sabot.AccountWallet, 1); w != credited-placed*stake {
		t.Fatalf("wallet %d", w)
	}
	log, err := s.Log(ctx, tbl.ID, 1)
	must(t, err)
	if int64(len(log)) != placed {
		t.Fatalf("%d records for %d bets", len(log), placed)
	}
	for i, r := range log {
		if r.Seq != int64(i+1) {
			t.Fatalf("record %d has seq %d", i, r.Seq)
		}
	}
	checkLedger(t, s)
}

func testCheckLedger(t *testing.T, s sabot.Store) {
	ctx := context.Background()
	r := checkLedger(t, s)
	if !reflect.DeepEqual(*r, sabot.LedgerReport{}) {
		t.Fatalf("an empty ledger: %+v", r)
	}
	tbl := &sabot.Table{Name: "t", Profile: "venice"}
	must(t, s.CreateTable(ctx, tbl))
	house := account(t, s, sabot.AccountHouse, 0)
	wallet, table := account(t, s, sabot.AccountWallet, 1), account(t, s, sabot.AccountTable, tbl.ID)
	credit(t, s, wallet, 1000)
	rec, ps := bet(tbl.ID, 1, "c", "k", wallet, table, 200)
	_, err := s.Append(ctx, sabot.Appending(rec), ps)
	must(t, err)
	// The round is lost: the stake goes to the house.
	_, err = s.Append(ctx, &sabot.LogAppend{LogRecord: &sabot.LogRecord{TableID: tbl.ID, Kind: sabot.LogSettle, RoundNo: 1}},
		[]sabot.Posting{{AccountID: table, Amount: -200}, {AccountID: house, Amount: 200}})
	must(t, err)
	r = checkLedger(t, s)
	want := sabot.LedgerReport{Accounts: 3, Entries: 6, Transactions: 3, House: -800} // the house: -1000 credited, +200 won
	if !reflect.DeepEqual(*r, want) {
		t.Fatalf("report %+v, want %+v", r, want)
	}
}

// A balance changed behind the store's back is found.
func testCheckLedgerCorruptBalance(t *testing.T, s sabot.Store) {
	ctx := context.Background()
	db := raw(t, s)
	wallet := account(t, s, sabot.AccountWallet, 1)
	credit(t, s, wallet, 1000)
	checkLedger(t, s)
	must(t, db.RawExec(ctx, `UPDATE accounts SET balance = balance + 500 WHERE id = $1`, wallet))
	r, err := s.CheckLedger(ctx)
	must(t, err)
	if r.OK() {
		t.Fatalf("a corrupt balance passed: %+v", r)
	}
	found := false
	for _, p := range r.Problems {
		found = found || strings.Contains(p, fmt.Sprintf("account %d ", wallet)) && strings.Contains(p, "1500") && strings.Contains(p, "1000")
	}
	if !found {
		t.Fatalf("the problems do not name account %d, balance 1500 against 1000: %q", wallet, r.Problems)
	}
}

// An entry that unbalances its transaction is found.
func testCheckLedgerUnbalancedTransaction(t *testing.T, s sabot.Store) {
	ctx := context.Background()
	db := raw(t, s)
	wallet := account(t, s, sabot.AccountWallet, 1)
	credit(t, s, wallet, 1000)
	txID, err := db.RawInt64(ctx, `SELECT MAX(id) FROM transactions`)
	must(t, err)
	// Money from nowhere: an entry and a balance that agree, in a
	// transaction that no longer nets to zero.
	must(t, db.RawExec(ctx, `INSERT INTO entries (transaction_id, account_id, amount, memo, created) VALUES ($1, $2, 1, 'forged', 0)`, txID, wallet))
	must(t, db.RawExec(ctx, `UPDATE accounts SET balance = balance + 1 WHERE id = $1`, wallet))
	r, err := s.CheckLedger(ctx)
	must(t, err)
	if r.OK() || r.Total != 1 {
		t.Fatalf("an unbalanced transaction passed: %+v", r)
	}
	want := []string{fmt.Sprintf("transaction %d (credit 1000): its entries net +1", txID), "the entries sum to +1, not 0", "the balances sum to +1, not 0"}
	got := append([]string(nil), r.Problems...)
	sort.Strings(got)
	sort.Strings(want)
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("problems %q, want %q", got, want)
	}
}

func dump(log []*sabot.LogRecord) string {
	var b strings.Builder
	for _, r := range log {
		fmt.Fprintf(&b, "\n  %+v payload=%s", *r, r.Payload)
	}
	return b.String()
}

// No posting and no balance goes beyond
// int64(money.Max), so that no sum overflows; a posting that would is
// refused as invalid, with a reason, and changes nothing. The database
// itself refuses such a balance or entry written behind the store's back.
func testAmountBound(t *testing.T, s sabot.Store) {
	ctx := context.Background()
	tbl := &sabot.Table{Name: "t", Profile: "venice"}
	must(t, s.CreateTable(ctx, tbl))
	house := account(t, s, sabot.AccountHouse, 0)
	wallet, table := account(t, s, sabot.AccountWallet, 1), account(t, s, sabot.AccountTable, tbl.ID)
	unchanged := func(wantWallet int64, wantEntries int) {
		t.Helper()
		if w := balance(t, s, sabot.AccountWallet, 1); w != wantWallet {
			t.Fatalf("wallet %d, want %d", w, wantWallet)
		}
		if r := checkLedger(t, s); r.Entries != wantEntries {
			t.Fatalf("%d entries, want %d", r.Entries, wantEntries)
		}
	}
	for _, amount := range []int64{math.MaxInt64, int64(money.Max) + 1} {
		err := s.Transfer(ctx, "credit", []sabot.Posting{{AccountID: house, Amount: -money.Amount(amount)}, {AccountID: wallet, Amount: money.Amount(amount)}})
		code(t, err, sabot.EINVALID)
		if !strings.Contains(err.Error(), "beyond") {
			t.Fatalf("a credit of %d: %v, want a reason that says the bound", amount, err)
		}
	}
	unchanged(0, 0)

	credit(t, s, wallet, int64(money.Max)-5)
	unchanged(int64(money.Max)-5, 2)
	// The wallet would hold money.Max+1 (and the house -money.Max-1).
	err := s.Transfer(ctx, "credit", []sabot.Posting{{AccountID: house, Amount: -6}, {AccountID: wallet, Amount: 6}})
	code(t, err, sabot.EINVALID)
	if !strings.Contains(err.Error(), "beyond the most a balance may be") {
		t.Fatalf("a credit past the bound: %v", err)
	}
	unchanged(int64(money.Max)-5, 2)
	// The same in an append: neither the record nor its postings.
	_, err = s.Append(ctx, &sabot.LogAppend{LogRecord: &sabot.LogRecord{TableID: tbl.ID, Kind: sabot.LogSettle}},
		[]sabot.Posting{{AccountID: table, Amount: -6}, {AccountID: wallet, Amount: 6}})
	code(t, err, sabot.EINVALID)
	unchanged(int64(money.Max)-5, 2)
	if log, err := s.Log(ctx, tbl.ID, 1); err != nil || len(log) != 0 {
		t.Fatalf("the refused append left %d records (%v)", len(log), err)
	}
	// Up to the bound is allowed.
	credit(t, s, wallet, 5)
	unchanged(int64(money.Max), 4)

	// Behind the store's back, the database refuses it too.
	db := raw(t, s)
	if err := db.RawExec(ctx, `UPDATE accounts SET balance = balance + 1 WHERE id = $1`, wallet); err == nil {
		t.Fatal("the database took a balance beyond the bound")
	}
	txID, err := db.RawInt64(ctx, `SELECT MAX(id) FROM transactions`)
	must(t, err)
	if err := db.RawExec(ctx, `INSERT INTO entries (transaction_id, account_id, amount, memo, created) VALUES ($1, $2, $3, 'forged', 0)`, txID, table, int64(money.Max)+1); err == nil {
		t.Fatal("the database took an entry beyond the bound")
	}
	unchanged(int64(money.Max), 4)
}

// Unbounded is a store under test that can lift the database's own bound of
// amounts (migration 007), to write what a database written before it may
// hold.
type Unbounded interface {
	RawDropAmountBound(ctx context.Context) error
}

// A balance or an entry out of the range of an amount
// (written before the bound, or behind the store's back) is reported by
// CheckLedger with its ID; the check does not fail with an overflow.
func testCheckLedgerOutOfRange(t *testing.T, s sabot.Store) {
	ctx := context.Background()
	db := raw(t, s)
	u, ok := s.(Unbounded)
	if !ok {
		t.Fatalf("%T does not implement storetest.Unbounded", s)
	}
	must(t, u.RawDropAmountBound(ctx))
	wallet, other := account(t, s, sabot.AccountWallet, 1), account(t, s, sabot.AccountWallet, 2)
	credit(t, s, wallet, 1000)
	credit(t, s, other, 1000)
	txID, err := db.RawInt64(ctx, `SELECT MAX(id) FROM transactions`)
	must(t, err)
	must(t, db.RawExec(ctx, `UPDATE accounts SET balance = $2 WHERE id = $1`, wallet, int64(math.MaxInt64)))
	must(t, db.RawExec(ctx, `INSERT INTO entries (transaction_id, account_id, amount, memo, created) VALUES ($1, $2, $3, 'forged', 0)`, txID, other, int64(math.MaxInt64)))
	entry, err := db.RawInt64(ctx, `SELECT MAX(id) FROM entries`)
	must(t, err)
	must(t, db.RawExec(ctx, `INSERT INTO entries (transaction_id, account_id, amount, memo, created) VALUES ($1, $2, $3, 'forged', 0)`, txID, other, int64(math.MaxInt64)))
	r, err := s.CheckLedger(ctx)
	if err != nil {
		t.Fatalf("the check failed instead of reporting: %v", err)
	}
	if r.OK() {
		t.Fatalf("out-of-range rows passed: %+v", r)
	}
	for _, want := range []string{
		fmt.Sprintf("account %d (wallet of 1): balance %d is not an amount", wallet, int64(math.MaxInt64)),
		fmt.Sprintf("entry %d (account %d, transaction %d): amount %d is not an amount", entry, other, txID, int64(math.MaxInt64)),
		fmt.Sprintf("entry %d (account %d, transaction %d): amount %d is not an amount", entry+1, other, txID, int64(math.MaxInt64)),
	} {
		found := false
		for _, p := range r.Problems {
			found = found || strings.HasPrefix(p, want)
		}
		if !found {
			t.Errorf("no problem %q in %q", want, r.Problems)
		}
	}
}
