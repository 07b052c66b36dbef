package server

import (
	"context"
	"fmt"
	"sabot/internal/actor"
	"sabot/internal/tablelog"
	"sabot/internal/wire"
	"sabot/money"
	"sort"

	"sabot"
)

// The server's tables and the ledger's accounts: a table by its ID, the
// tables served, a table created; an account's ID and balance.

// account returns the ID of an account, cached: accounts never go away.
func (s *Server) account(ctx context.Context, kind string, owner int64) (int64, error) {
	key := kind + "/" + fmt.Sprint(owner)
	if id, ok := s.accounts.Load(key); ok {
		return id.(int64), nil
	}
	acc, err := s.Store.Account(ctx, kind, owner)
	if err != nil {
		return 0, err
	}
	s.accounts.Store(key, acc.ID)
	return acc.ID, nil
}

// balance reads an account's balance (0 if it cannot).
func (s *Server) balance(ctx context.Context, kind string, owner int64) money.Amount {
	acc, err := s.Store.Account(ctx, kind, owner)
	if err != nil {
		return 0
	}
	return acc.Balance
}

// balances reads the balances of several owners' accounts of a kind in one
// read of the store where it can (0 where one cannot be read).
func (s *Server) balances(ctx context.Context, kind string, owners []int64) map[int64]money.Amount {
	if b, ok := s.Store.(interface {
		Balances(ctx context.Context, kind string, owners []int64) (map[int64]money.Amount, error)
	}); ok {
		if m, err := b.Balances(ctx, kind, owners); err == nil {
			return m
		}
		return map[int64]money.Amount{}
	}
	out := make(map[int64]money.Amount, len(owners))
	for _, o := range owners {
		out[o] = s.balance(ctx, kind, o)
	}
	return out
}

// tableHost is what the tables ask of the server: its store, clocks,
// accounts, player care's checks, the operator's wallet, the seeds' key
// and the settings.
func (s *Server) tableHost() *actor.Host {
	return &actor.Host{
		Store: s.Store, Ctx: s.ctx, Logger: s.logger(), Now: s.now, Timing: s.Timing, Metrics: s.metrics.table,
		Account: s.account, Balance: s.balance, Balances: s.balances,
		StakeGuard: s.stakeGuard, BetGuard: s.betGuard,
		Operator: s.operator(),
		SeedKey:  s.SeedKey, SnapshotEvery: s.SnapshotEvery, SnapshotRecords: s.SnapshotRecords, MaxBoxesWithoutBet: s.MaxBoxesWithoutBet,
		ReseatAfter: s.ReseatAfter, UnbetWindow: s.UnbetWindow, SitsPerMinute: s.SitsPerMinute,
		CashApproval: s.CashApproval, FloatLimit: s.FloatLimit, CashShift: s.CashShift,
		Theories: s.theories,
		CheckID:  s.checkID,
	}
}

func (s *Server) table(id int64) (*actor.Table, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	a, ok := s.tables[id]
	if !ok {
		return nil, sabot.Errorf(sabot.ENOTFOUND, "no table %d", id).WithReason("no_table", map[string]any{"table": id})
	}
	return a, nil
}

func (s *Server) tableList() []*actor.Table {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]*actor.Table, 0, len(s.tables))
	for _, a := range s.tables {
		out = append(out, a)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID() < out[j].ID() })
	return out
}

// CreateTable opens a table from a profile and options. Test mode needs a
// server in test mode.
func (s *Server) CreateTable(ctx context.Context, t *sabot.Table) (*wire.TableView, error) {
	if t.TestMode && !s.TestMode {
		return nil, sabot.Errorf(sabot.EFORBIDDEN, "test-mode tables need a server started with --test-mode")
	}
	if t.Name == "" {
		return nil, sabot.Errorf(sabot.EINVALID, "a table needs a name")
	}
	if p, err := actor.ProfileOf(t.Profile, t.Options); err != nil {
		return nil, err
	} else if err := wire.CheckLimits(p); err != nil {
		return nil, err
	}
	// On a cluster the table is this node's from its creation: another
	// node's scan cannot claim it before this one does.
	if s.cluster.Joined() {
		t.Owner = s.cluster.SelfID()
	}
	if err := s.Store.CreateTable(ctx, t); err != nil {
		return nil, err
	}
	var a *actor.Table
	err := s.cluster.Created(ctx, t, func(epoch int64) (err error) {
		a, err = s.startTable(t, epoch)
		return err
	})
	if err != nil {
		return nil, err
	}
	s.event(ctx, nil, tablelog.TableCreated{Table: t.ID, Name: t.Name, Profile: t.Profile, Options: t.Options, TestMode: t.TestMode, Text: fmt.Sprintf("table %d %q: %s %v test=%v", t.ID, t.Name, t.Profile, t.Options, t.TestMode)}, nil, "")
	return a.View(ctx)
}
