package server

import (
	"context"
	"net/http"

	"sabot"
	"sabot/internal/operator"
	"sabot/internal/recall"
	"sabot/internal/tablelog"
	"sabot/internal/wire"
	"sabot/money"
)

// The operator's wallet (docs/wallet.md) is internal/operator:
// the debits and credits a table asks of it, the delivery of the outbox,
// money owed and the launch. The server holds one operator.Operator
// (operator()), which it gives the tables (actor.Host); each table's actor
// keeps its operator.Debits (internal/actor, operator.go).

// operator is the server's operator's wallet, made at its first use from
// the server's settings (Wallet, Currency, Wallet…).
func (s *Server) operator() *operator.Operator {
	s.opOnce.Do(func() {
		out, _ := s.Store.(sabot.Outbox) // checked at Open when there is a wallet
		var m *operator.Metrics
		if s.metrics != nil {
			m = s.metrics.wallet
		}
		s.op = operator.New(operator.Config{
			Wallet: s.Wallet, Outbox: out, Currency: s.Currency,
			Timeout: s.WalletTimeout, UndeliveredAfter: s.WalletUndeliveredAfter, RetryMost: s.WalletRetryMost,
			RetryRefused: s.WalletRetryRefused, Retries: s.WalletRetries,
			Metrics: m,
			Context: func() context.Context { return s.ctx },
			Go:      func(f func()) { s.wg.Go(f) },
			Now:     s.now, Logger: s.logger, Account: s.account,
			Event: func(ctx context.Context, u *sabot.User, e tablelog.Event, calls []sabot.WalletCall) error {
				_, _, err := s.eventWith(ctx, u, e, nil, calls, "")
				return err
			},
			RoundID: recall.RoundID, ParseRoundID: recall.ParseRoundID,
		})
	})
	return s.op
}

// deliver runs the deliverer of the outbox until ctx ends.
func (s *Server) deliver(ctx context.Context) { s.operator().Deliver(ctx) }

// operatorBalance is an operator's player's balance: asked of the
// operator's wallet (within a second), or else the last it said.
func (s *Server) operatorBalance(ctx context.Context, u *sabot.User) money.Amount {
	return s.operator().Balance(ctx, u)
}

// Owed lists the money owed.
func (s *Server) Owed(ctx context.Context) ([]operator.OwedView, error) {
	return s.operator().Owed(ctx)
}

// ResolveOwed closes an item of money owed by hand, with the reason, as a
// significant event.
func (s *Server) ResolveOwed(ctx context.Context, u *sabot.User, id string, req operator.ResolveRequest) error {
	return s.operator().ResolveOwed(ctx, u, id, req)
}

func (s *Server) handleOwed(w http.ResponseWriter, r *http.Request, _ *sabot.User) {
	owed, err := s.Owed(r.Context())
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, owed)
}

func (s *Server) handleResolveOwed(w http.ResponseWriter, r *http.Request, u *sabot.User) {
	var req operator.ResolveRequest
	if err := decode(r, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	if err := s.ResolveOwed(r.Context(), u, r.PathValue("id"), req); err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, wire.CommandResult{OK: true})
}
