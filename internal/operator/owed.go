package operator

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"sabot"
	"sabot/internal/tablelog"
	"sabot/internal/wallet"
	"sabot/money"
)

// Money owed (docs/wallet.md). A credit or rollback the
// operator refused is money sabot owes the player (a win, or a stake to
// give back): it stays an open item for the pit (GET
// /api/admin/wallet/owed, the event wallet-refused) until a call that
// sends it again is acknowledged (wallet-paid) or the pit resolves it by
// hand with a reason (wallet-resolved). The policy: sent again under a new
// transaction ID (its own and "-2", "-3"…, retry_of naming it) after
// RetryRefused (a minute), each wait doubling up to an hour, for
// Retries tries in all (10: about five hours); then only the pit.

// The policy's defaults.
const (
	DefaultRetryRefused = time.Minute
	DefaultRetries      = 10
	retryRefusedMost    = time.Hour
)

// retryRefused is the wait before the try after the n-th (0: no more by
// sabot).
func (o *Operator) retryRefused(n int) time.Duration {
	first, tries := durationOr(o.cfg.RetryRefused, DefaultRetryRefused), o.cfg.Retries
	if tries == 0 {
		tries = DefaultRetries
	}
	if first < 0 || tries < 0 || n >= tries {
		return 0
	}
	d := first
	for i := 1; i < n && d < retryRefusedMost; i++ {
		d *= 2
	}
	return min(d, retryRefusedMost)
}

// owe records a credit or rollback refused as money owed: its next try by
// the policy, and the event that tells the pit.
func (o *Operator) owe(ctx context.Context, c *sabot.WalletCall, res *wallet.Response) {
	root, try := c.ID, 1
	if c.RetryOf != "" {
		root = c.RetryOf
		try, _ = strconv.Atoi(strings.TrimPrefix(c.ID, c.RetryOf+"-"))
	}
	next := "no more tries by sabot: the pit resolves it (POST /api/admin/wallet/owed/" + root + "/resolve)"
	if d := o.retryRefused(try); d > 0 {
		at := o.now().Add(d)
		if err := o.cfg.Outbox.ScheduleRetry(ctx, c.ID, at); err != nil {
			o.logger().Error("money owed: its next try not written", "call", c.ID, "err", err)
		}
		next = fmt.Sprintf("sent again at %s (try %d)", at.UTC().Format(time.RFC3339), try+1)
	}
	o.event(ctx, nil, tablelog.WalletRefused{Table: c.TableID, User: Prefix + c.Player, Amount: c.Amount, Memo: root,
		Text: fmt.Sprintf("%s %s refused: %s %s; %s owed to %s; %s", c.Op, c.ID, res.Reason, res.Message, c.Amount, c.Player, next)}, nil)
}

// OwedView is an item of money owed, as the pit sees it.
type OwedView struct {
	ID        string       `json:"id"` // the refused call's transaction ID
	Op        string       `json:"op"` // credit, rollback
	Player    string       `json:"player"`
	Table     int64        `json:"table"`
	Round     string       `json:"round"`
	Kind      string       `json:"kind"`
	Reference string       `json:"reference,omitempty"` // rollback: the debit
	Amount    money.Amount `json:"amount"`
	Reason    string       `json:"reason"`
	Message   string       `json:"message,omitempty"`
	Refused   time.Time    `json:"refused"`
	Retries   int          `json:"retries"`              // times sent again
	NextRetry *time.Time   `json:"next_retry,omitempty"` // none: no more tries by sabot
}

// Owed lists the money owed.
func (o *Operator) Owed(ctx context.Context) ([]OwedView, error) {
	if !o.Has() {
		return nil, sabot.Errorf(sabot.ENOTFOUND, "this server has no operator's wallet")
	}
	calls, err := o.cfg.Outbox.Owed(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]OwedView, 0, len(calls))
	for _, c := range calls {
		var res wallet.Response
		json.Unmarshal(c.Answer, &res)
		v := OwedView{ID: c.ID, Op: c.Op, Player: Prefix + c.Player, Table: c.TableID, Round: c.Round, Kind: c.Kind,
			Reference: c.Reference, Amount: c.Amount, Reason: res.Reason, Message: res.Message, Refused: c.Answered, Retries: c.Retries}
		if !c.NextRetry.IsZero() {
			v.NextRetry = &c.NextRetry
		}
		out = append(out, v)
	}
	return out, nil
}

// ResolveRequest resolves money owed by hand.
type ResolveRequest struct {
	Reason string `json:"reason"` // why, as the pit will read it: paid by the operator's own tools, waived…
}

// maxResolveReason bounds a resolution's reason.
const maxResolveReason = 500

// ResolveOwed closes an item of money owed by hand, with the reason, as a
// significant event.
func (o *Operator) ResolveOwed(ctx context.Context, u *sabot.User, id string, req ResolveRequest) error {
	if !o.Has() {
		return sabot.Errorf(sabot.ENOTFOUND, "this server has no operator's wallet")
	}
	reason := strings.TrimSpace(req.Reason)
	if reason == "" || len(reason) > maxResolveReason {
		return sabot.Errorf(sabot.EINVALID, "resolving money owed by hand needs a reason (1 to %d bytes)", maxResolveReason)
	}
	owed, err := o.cfg.Outbox.Owed(ctx)
	if err != nil {
		return err
	}
	var c *sabot.WalletCall
	for _, w := range owed {
		if w.ID == id {
			c = w
		}
	}
	if c == nil {
		return sabot.Errorf(sabot.ENOTFOUND, "no money owed under %q: it was paid, resolved, or never refused", id)
	}
	if err := o.cfg.Outbox.ResolveOwed(ctx, id, reason, u.Name, o.now()); err != nil {
		return err
	}
	return o.event(ctx, u, tablelog.WalletResolved{Table: c.TableID, User: Prefix + c.Player, Amount: c.Amount,
		Memo: id, By: u.Name, Text: fmt.Sprintf("%s %s of %s owed to %s resolved by %s: %s", c.Op, id, c.Amount, c.Player, u.Name, reason)}, nil)
}
