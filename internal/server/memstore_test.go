package server_test

import (
	"context"
	"fmt"
	"sabot/money"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"sabot"
)

// memStore is a small in-memory sabot.Store for the server's tests: the same
// contract as the SQL stores (idempotent Append, wallets never below zero,
// balanced transactions), none of the durability.
type memStore struct {
	mu       sync.Mutex
	users    []*sabot.User
	sessions map[string]*sabot.Session
	accounts []*sabot.Account
	entries  int
	txs      int
	tables   []*sabot.Table
	logs     map[int64][]*sabot.LogAppend
	cmds     map[string]*sabot.LogRecord
	failNext error // an Append fails with it, after failSkip more succeed (tests of the rebuild)
	failSkip int
	// failCmds fails every failCmds-th append of a client's command (by
	// the count of such appends) with sabot.EUNAVAILABLE, as a database
	// that ended the transaction: the bots' resends.
	failCmds, cmdAppends int
}

var _ sabot.Store = (*memStore)(nil)

func newMemStore() *memStore {
	return &memStore{sessions: map[string]*sabot.Session{}, logs: map[int64][]*sabot.LogAppend{}, cmds: map[string]*sabot.LogRecord{}}
}

func (s *memStore) CreateUser(_ context.Context, u *sabot.User) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, x := range s.users {
		if sabot.FoldName(x.Name) == sabot.FoldName(u.Name) {
			return sabot.Errorf(sabot.ECONFLICT, "the name %s is taken", u.Name)
		}
	}
	u.ID = int64(len(s.users) + 1)
	u.Created = time.Now()
	c := *u
	s.users = append(s.users, &c)
	return nil
}

func (s *memStore) UserByName(_ context.Context, name string) (*sabot.User, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, match := range []func(*sabot.User) bool{
		func(x *sabot.User) bool { return x.Name == name },
		func(x *sabot.User) bool { return sabot.FoldName(x.Name) == sabot.FoldName(name) },
	} {
		for _, x := range s.users {
			if match(x) {
				c := *x
				return &c, nil
			}
		}
	}
	return nil, sabot.Errorf(sabot.ENOTFOUND, "no user %s", name)
}

func (s *memStore) UserByID(_ context.Context, id int64) (*sabot.User, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if id < 1 || id > int64(len(s.users)) {
		return nil, sabot.Errorf(sabot.ENOTFOUND, "no user %d", id)
	}
	c := *s.users[id-1]
	return &c, nil
}

func (s *memStore) CreateSession(_ context.Context, x *sabot.Session) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := *x
	s.sessions[x.Token] = &c
	return nil
}

func (s *memStore) SessionByToken(_ context.Context, token string) (*sabot.Session, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	x, ok := s.sessions[token]
	if !ok {
		return nil, sabot.Errorf(sabot.ENOTFOUND, "no session")
	}
	c := *x
	return &c, nil
}

func (s *memStore) TouchSession(_ context.Context, token string, at time.Time) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if x, ok := s.sessions[token]; ok {
		x.LastSeen = at
	}
	return nil
}

func (s *memStore) SetPassword(_ context.Context, userID int64, hash []byte) (int64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, u := range s.users {
		if u.ID == userID {
			u.PasswordHash = hash
			u.Credentials++
			for tok, x := range s.sessions {
				if x.UserID == userID {
					delete(s.sessions, tok)
				}
			}
			return u.Credentials, nil
		}
	}
	return 0, sabot.Errorf(sabot.ENOTFOUND, "no user %d", userID)
}

func (s *memStore) Players(_ context.Context, prefix string, limit int) ([]*sabot.User, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []*sabot.User
	for _, u := range s.users {
		if !u.Admin && u.Role == "" && strings.HasPrefix(sabot.FoldName(u.Name), sabot.FoldName(prefix)) {
			c := *u
			out = append(out, &c)
		}
	}
	sort.Slice(out, func(i, j int) bool { return sabot.FoldName(out[i].Name) < sabot.FoldName(out[j].Name) })
	if len(out) > limit {
		out = out[:limit]
	}
	return out, nil
}

func (s *memStore) TouchSessions(_ context.Context, seen map[string]time.Time) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for token, at := range seen {
		if x, ok := s.sessions[token]; ok && x.LastSeen.Before(at) {
			x.LastSeen = at
		}
	}
	return nil
}

func (s *memStore) DeleteSession(_ context.Context, token string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.sessions, token)
	return nil
}

func (s *memStore) account(kind string, owner int64) *sabot.Account {
	for _, a := range s.accounts {
		if a.Kind == kind && a.OwnerID == owner {
			return a
		}
	}
	a := &sabot.Account{ID: int64(len(s.accounts) + 1), Kind: kind, OwnerID: owner}
	s.accounts = append(s.accounts, a)
	return a
}

func (s *memStore) Account(_ context.Context, kind string, owner int64) (*sabot.Account, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := *s.account(kind, owner)
	return &c, nil
}

func (s *memStore) post(ps []sabot.Posting) error {
	var sum money.Amount
	for _, p := range ps {
		sum += p.Amount
		if p.AccountID < 1 || p.AccountID > int64(len(s.accounts)) {
			return sabot.Errorf(sabot.EINVALID, "no account %d", p.AccountID)
		}
	}
	if sum != 0 {
		return sabot.Errorf(sabot.EINVALID, "postings sum to %d", sum)
	}
	bal := map[int64]money.Amount{}
	for _, p := range ps {
		a := s.accounts[p.AccountID-1]
		if _, ok := bal[a.ID]; !ok {
			bal[a.ID] = a.Balance
		}
		bal[a.ID] += p.Amount
		if a.Kind == sabot.AccountWallet && bal[a.ID] < 0 {
			return sabot.Errorf(sabot.EINSUFFICIENT, "insufficient funds")
		}
	}
	for id, b := range bal {
		s.accounts[id-1].Balance = b
	}
	if len(ps) > 0 {
		s.entries += len(ps)
		s.txs++
	}
	return nil
}

func (s *memStore) Transfer(_ context.Context, _ string, ps []sabot.Posting) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.post(ps)
}

func (s *memStore) CreateTable(_ context.Context, t *sabot.Table) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	t.ID = int64(len(s.tables) + 1)
	t.Created = time.Now()
	c := *t
	s.tables = append(s.tables, &c)
	return nil
}

func (s *memStore) Tables(context.Context) ([]*sabot.Table, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]*sabot.Table, len(s.tables))
	for i, t := range s.tables {
		c := *t
		out[i] = &c
	}
	return out, nil
}

func (s *memStore) TableByID(_ context.Context, id int64) (*sabot.Table, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if id < 1 || id > int64(len(s.tables)) {
		return nil, sabot.Errorf(sabot.ENOTFOUND, "no table %d", id)
	}
	c := *s.tables[id-1]
	return &c, nil
}

func (s *memStore) Append(_ context.Context, rec *sabot.LogAppend, ps []sabot.Posting) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.failNext; err != nil {
		if s.failSkip == 0 {
			s.failNext = nil
			return false, err
		}
		s.failSkip--
	}
	if s.failCmds > 0 && rec.CommandID != "" {
		if s.cmdAppends++; s.cmdAppends%s.failCmds == 0 {
			return false, &sabot.Error{Code: sabot.EUNAVAILABLE, Message: "the database is unavailable: try again"}
		}
	}
	key := fmt.Sprintf("%d/%s/%s", rec.TableID, rec.ClientID, rec.CommandID)
	if rec.CommandID != "" {
		if first, ok := s.cmds[key]; ok {
			*rec.LogRecord = *first
			return true, nil
		}
	}
	if err := s.post(ps); err != nil {
		return false, err
	}
	rec.Seq = int64(len(s.logs[rec.TableID]) + 1)
	rec.Created = time.Now()
	row := *rec.LogRecord
	s.logs[rec.TableID] = append(s.logs[rec.TableID], &sabot.LogAppend{LogRecord: &row, Users: slices.Clone(rec.Users)})
	if rec.CommandID != "" {
		s.cmds[key] = &row
	}
	return false, nil
}

func (s *memStore) Command(_ context.Context, tableID int64, clientID, commandID string) (*sabot.LogRecord, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if first, ok := s.cmds[fmt.Sprintf("%d/%s/%s", tableID, clientID, commandID)]; ok && commandID != "" {
		c := *first
		return &c, nil
	}
	return nil, sabot.Errorf(sabot.ENOTFOUND, "no command %q", commandID)
}

func (s *memStore) Log(_ context.Context, tableID, from int64) ([]*sabot.LogRecord, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []*sabot.LogRecord
	for _, r := range s.logs[tableID] {
		if r.Seq >= from {
			c := *r.LogRecord
			out = append(out, &c)
		}
	}
	return out, nil
}

func (s *memStore) Find(_ context.Context, q sabot.LogQuery) ([]*sabot.LogRecord, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := []*sabot.LogRecord{}
	for id, log := range s.logs {
		if q.TableID != 0 && id != q.TableID {
			continue
		}
		for _, r := range log {
			if !slices.Contains(q.Kinds, r.Kind) || r.Created.Before(q.Since) || !memMatch(q, r) {
				continue
			}
			c := *r.LogRecord
			out = append(out, &c)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if q.Newest {
			a, b = b, a
		}
		if !a.Created.Equal(b.Created) {
			return a.Created.Before(b.Created)
		}
		if a.TableID != b.TableID {
			return a.TableID < b.TableID
		}
		return a.Seq < b.Seq
	})
	if q.Limit > 0 && len(out) > q.Limit {
		out = out[:q.Limit]
	}
	return out, nil
}

// memMatch reports whether r passes the query's round, shoe, user and
// cursor (as the SQL stores read them).
func memMatch(q sabot.LogQuery, r *sabot.LogAppend) bool {
	if (q.FromRound != 0 || q.ToRound != 0) && (r.RoundNo == 0 || r.RoundNo < q.FromRound || q.ToRound != 0 && r.RoundNo > q.ToRound) {
		return false
	}
	if q.Shoe != 0 && r.ShoeNo != q.Shoe {
		return false
	}
	if q.UserID != 0 && !slices.Contains(r.Users, q.UserID) {
		return false
	}
	if b := q.Before; b != nil {
		if q.TableID != 0 {
			return r.Seq < b.Seq
		}
		if !r.Created.Equal(b.Created) {
			return r.Created.Before(b.Created)
		}
		if r.TableID != b.TableID {
			return r.TableID < b.TableID
		}
		return r.Seq < b.Seq
	}
	return true
}

func (s *memStore) CheckLedger(context.Context) (*sabot.LedgerReport, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := &sabot.LedgerReport{Accounts: len(s.accounts), Entries: s.entries, Transactions: s.txs}
	for _, a := range s.accounts {
		r.Total += int64(a.Balance)
		if sabot.IsHouse(a.Kind, a.OwnerID) {
			r.House += int64(a.Balance)
		}
		if a.Kind == sabot.AccountWallet && a.Balance < 0 {
			r.Problems = append(r.Problems, fmt.Sprintf("wallet %d below zero", a.ID))
		}
	}
	sort.Strings(r.Problems)
	return r, nil
}

func (s *memStore) Close() error { return nil }

// failAppend makes the Append after skip more fail with err.
func (s *memStore) failAppend(skip int, err error) {
	s.mu.Lock()
	s.failNext, s.failSkip = err, skip
	s.mu.Unlock()
}
