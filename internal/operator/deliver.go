package operator

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"sync"
	"time"

	"sabot"
	"sabot/internal/tablelog"
	"sabot/internal/wallet"
)

// The deliverer (docs/wallet.md): every node sends the credits
// and rollbacks of the outbox until the operator answers them. A call is
// claimed in the store under a lease (Outbox.ClaimCalls), so two nodes do
// not send it at once, and a node that dies with calls claimed leaves them
// to the others when the lease is over. A call with no answer is sent again
// after a backoff that doubles up to a maximum; an answer, ok or refused,
// is written and ends it. The operator acts once on a transaction ID, so a
// call sent twice (a node that died after the operator answered) is
// harmless. A call unanswered for over a minute (UndeliveredAfter) is a significant event,
// once per node, and the age of the oldest is in /metrics.

const (
	deliverEvery  = 200 * time.Millisecond // how often the outbox is read when it had nothing due
	deliverBatch  = 32                     // calls claimed at once
	deliverLease  = 30 * time.Second       // a claimed call is not another node's before it
	deliverAtOnce = 8                      // calls sent side by side
	retryFirst    = 250 * time.Millisecond
	retryMost     = 30 * time.Second
	// DefaultUndeliveredAfter is when an unanswered call becomes a
	// significant event (Config.UndeliveredAfter).
	DefaultUndeliveredAfter = time.Minute
)

// retryAfterAttempts is the wait before a call's next try, after n tries:
// doubling from retryFirst up to retryMost, with up to a fifth of jitter so
// that the calls of one outage do not all come back at once.
func retryAfterAttempts(n int, most time.Duration) time.Duration {
	d := min(retryFirst, most)
	for i := 1; i < n && d < most; i++ {
		d *= 2
	}
	d = min(d, most)
	return d + time.Duration(rand.Int64N(int64(d)/5+1))
}

// Deliver runs the deliverer until ctx ends.
func (o *Operator) Deliver(ctx context.Context) {
	out := o.cfg.Outbox
	reported := map[string]bool{}
	var lastCheck time.Time
	after := durationOr(o.cfg.UndeliveredAfter, DefaultUndeliveredAfter)
	every := min(5*time.Second, after/2)
	var lastRetry time.Time
	retryEvery := min(5*time.Second, o.retryRefused(1)/2)
	for {
		calls, err := out.ClaimCalls(ctx, o.now(), deliverBatch, deliverLease)
		if err != nil && ctx.Err() == nil {
			o.logger().Error("the outbox could not be read", "err", err)
		}
		if len(calls) > 0 {
			o.sendCalls(ctx, calls)
		}
		if o.retryRefused(1) > 0 && time.Since(lastRetry) >= retryEvery {
			lastRetry = time.Now()
			if _, err := out.RetryOwed(ctx, o.now()); err != nil && ctx.Err() == nil {
				o.logger().Error("the money owed could not be sent again", "err", err)
			}
		}
		if time.Since(lastCheck) >= every {
			lastCheck = time.Now()
			o.checkUndelivered(ctx, reported, after)
		}
		if len(calls) == deliverBatch {
			continue // more may be due
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(deliverEvery):
		}
	}
}

// sendCalls sends claimed calls, deliverAtOnce at a time, and writes each
// one's answer or next try.
func (o *Operator) sendCalls(ctx context.Context, calls []*sabot.WalletCall) {
	sem := make(chan struct{}, deliverAtOnce)
	var wg sync.WaitGroup
	for _, c := range calls {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			o.sendCall(ctx, c)
		})
	}
	wg.Wait()
}

func (o *Operator) sendCall(ctx context.Context, c *sabot.WalletCall) {
	out := o.cfg.Outbox
	res, err := o.cfg.Wallet.Call(ctx, c.Op, o.request(*c))
	if err != nil {
		o.m.calls.WithLabelValues(c.Op, "no-answer").Inc()
		if ctx.Err() != nil {
			return // stopping: the lease gives it back
		}
		retry := o.now().Add(retryAfterAttempts(c.Attempts, durationOr(o.cfg.RetryMost, retryMost)))
		if err := out.AnswerCall(context.WithoutCancel(ctx), c.ID, sabot.CallPending, nil, time.Time{}, retry); err != nil {
			o.logger().Error("a wallet call's next try not written", "call", c.ID, "err", err)
		}
		o.logger().Warn("the operator's wallet did not answer", "call", c.ID, "op", c.Op, "attempts", c.Attempts, "err", err)
		return
	}
	state := sabot.CallOK
	if res.Refused() {
		// A credit or a rollback refused is money owed: it is sent again
		// under a new transaction ID by the policy (owe), and the pit
		// sees it until it is paid or resolved by hand.
		state = sabot.CallRefused
	}
	o.m.calls.WithLabelValues(c.Op, state).Inc()
	ans, _ := json.Marshal(res)
	if err := out.AnswerCall(context.WithoutCancel(ctx), c.ID, state, ans, o.now(), time.Time{}); err != nil {
		o.logger().Error("a wallet call's answer not written: it is sent again", "call", c.ID, "err", err)
		return
	}
	switch {
	case state == sabot.CallRefused:
		o.owe(context.WithoutCancel(ctx), c, res)
	case c.RetryOf != "":
		o.event(context.WithoutCancel(ctx), nil, tablelog.WalletPaid{Table: c.TableID, User: Prefix + c.Player,
			Amount: c.Amount, Memo: c.RetryOf, Text: fmt.Sprintf("%s %s, refused, paid when sent again as %s", c.Op, c.RetryOf, c.ID)}, nil)
	}
}

// checkUndelivered writes a significant event for each call unanswered for
// over UndeliveredAfter (once per node), and sets the gauges.
func (o *Operator) checkUndelivered(ctx context.Context, reported map[string]bool, after time.Duration) {
	pending, err := o.cfg.Outbox.Calls(ctx, sabot.CallQuery{States: []string{sabot.CallPending}, Limit: 1000})
	if err != nil {
		return
	}
	now := o.now()
	n, oldest := 0, time.Duration(0)
	still := map[string]bool{}
	for _, c := range pending {
		if c.Op == wallet.OpDebit {
			continue // the table's own, within its time limit
		}
		n++
		still[c.ID] = true
		age := now.Sub(c.Created)
		oldest = max(oldest, age)
		if age >= after && !reported[c.ID] {
			reported[c.ID] = true
			o.event(ctx, nil, tablelog.WalletUndelivered{Table: c.TableID, User: Prefix + c.Player,
				Amount: c.Amount, Memo: c.ID, Text: fmt.Sprintf("%s %s unanswered for %s (%d tries)", c.Op, c.ID, age.Round(time.Second), c.Attempts)}, nil)
		}
	}
	for id := range reported {
		if !still[id] {
			delete(reported, id) // answered since
		}
	}
	o.m.undelivered.Set(float64(n))
	o.m.oldest.Set(oldest.Seconds())
	if owed, err := o.cfg.Outbox.Owed(ctx); err == nil {
		var sum int64
		for _, c := range owed {
			sum += int64(c.Amount)
		}
		o.m.owed.Set(float64(len(owed)))
		o.m.owedAmount.Set(float64(sum))
	}
}
