// Package care is player care on the built-in wallets (docs/players.md): the
// players' limits, their time-outs and
// self-exclusions, their reality checks, the pit's block of a player and
// the pit's view of the players.
//
// A player sets limits on deposits, losses and stakes over a rolling day,
// week or month: a first limit or a lower one applies at once, a raise or a
// removal after the cooling period (Config.Cooling). A stake (a bet, a
// double, a split, insurance) that would take the player past a stake or a
// loss limit is refused, and so is a credit past a deposit limit, each with
// a reason and its values; nothing changes. A reality check comes every
// RealityMinutes of a session. A time-out or a self-exclusion ends the
// player's sessions, takes him off the tables and refuses his logins until
// it ends; it cannot be shortened; the pit sees it in the significant-event
// log. An operator's wallet brings its own: Care is the point
// where the checks are made, and a Care without a sabot.Care store makes
// none.
//
// The package reads and writes through the store's care capability
// (sabot.Care), asks the tables through Tables and writes the pit's
// significant events through Config.Event; the server mounts its handlers
// behind its own authentication.
package care

import (
	"context"
	"log/slog"
	"net/http"
	"slices"
	"time"

	"sabot"
	"sabot/internal/tablelog"
	"sabot/internal/wire"
	"sabot/money"
)

// The periods of a limit, rolling back from now.
var carePeriods = map[string]time.Duration{"day": 24 * time.Hour, "week": 7 * 24 * time.Hour, "month": 30 * 24 * time.Hour}

var careKinds = []string{"deposit", "loss", "stake"}

// DefaultCooling is how long a raise or a removal of a limit waits.
const DefaultCooling = 24 * time.Hour

// RealityChoices are the reality-check intervals a player may choose, in
// minutes (0: none).
var RealityChoices = []int{0, 15, 30, 45, 60, 90, 120}

// The exclusions a player may choose, in days.
var exclusionDays = map[string][]int{tablelog.EventTimeOut: {1, 7, 30}, tablelog.EventSelfExclusion: {180, 365, 1825}}

// Tables is what care asks of the tables.
type Tables interface {
	// Seats are the boxes the players hold at the tables of every node
	// (the lobby's tables), by the player's name, for the pit's request r.
	Seats(r *http.Request) map[string][]PlayerSeat
	// Bar closes a player's sockets and takes him off the tables, his
	// bets for the next round returned, on every node; it is called after
	// his exclusion or block has committed.
	Bar(ctx context.Context, userID int64)
	// Lobby is the view of the tables of every node (the lobby's), for
	// the pit's request r.
	Lobby(r *http.Request) []*wire.TableView
}

// Users is what care reads of the users (a sabot.Store has both).
type Users interface {
	UserByName(ctx context.Context, name string) (*sabot.User, error)
	Players(ctx context.Context, prefix string, limit int) ([]*sabot.User, error)
}

// Config is what care is given.
type Config struct {
	// Store is the store's care (nil: the store keeps none; no check is
	// made and the endpoints refuse).
	Store  sabot.Care
	Users  Users
	Tables Tables
	Now    func() time.Time // nil: time.Now
	// Cooling is how long a raise or a removal of a limit waits (0:
	// DefaultCooling).
	Cooling time.Duration
	// Event writes a significant event of player care: a "time-out", a
	// "self-exclusion", "player-blocked", "player-unblocked" or
	// "excluded-seen", with its values; by is the pit's user who acted
	// (nil: the player himself).
	Event func(ctx context.Context, by *sabot.User, e tablelog.Event)
	// Wallet is a player's wallet's balance, Rounds his last n rounds as
	// the pit's view shows them.
	Wallet func(ctx context.Context, userID int64) money.Amount
	Rounds func(ctx context.Context, u *sabot.User, n int) ([]wire.RoundSummary, error)
	// Ratings are the players' ratings from from to now, by name, of
	// the names given (at most MaxFloorPlayers; nil: the floor shows
	// none); a player with no round in the period is left out.
	Ratings func(r *http.Request, from time.Time, names []string) (map[string]Rating, error)
	// TableDays are the tables' days from from to now, by table (nil:
	// the floor shows none); a table with no round in the period may be
	// left out.
	TableDays func(r *http.Request, from time.Time) (map[int64]TableDay, error)
	Logger    *slog.Logger // nil: discard
	HTTP      HTTP
}

// Care is player care.
type Care struct {
	cfg Config
}

// New is player care from its configuration.
func New(cfg Config) *Care {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	return &Care{cfg: cfg}
}

func (c *Care) now() time.Time {
	if c.cfg.Now != nil {
		return c.cfg.Now()
	}
	return time.Now()
}

// store is the store's care (nil: none).
func (c *Care) store() sabot.Care { return c.cfg.Store }

// careFor is the care a player sets himself here. An operator's player
// sets his limits and exclusions with his operator, whose wallet
// his money is: the endpoints refuse him with the reason. An
// exclusion on record for him (set before, or by the pit) still holds at
// his launch and at every stake.
func (c *Care) careFor(u *sabot.User) (sabot.Care, error) {
	st := c.store()
	if st == nil {
		return nil, sabot.Errorf(sabot.ENOTFOUND, "this server's wallets are the operator's: its responsible-gaming tools are too")
	}
	if u.OperatorID != "" {
		return nil, sabot.Errorf(sabot.EFORBIDDEN, "refused: your account and its money are your operator's: set your limits, time-outs and exclusions on its site").
			WithReason("operator_care", nil)
	}
	return st, nil
}

func (c *Care) cooling() time.Duration {
	if c.cfg.Cooling > 0 {
		return c.cfg.Cooling
	}
	return DefaultCooling
}

// effective is a limit as it stands now: a pending raise or removal whose
// cooling period is over has applied (nil: removed).
func effective(l sabot.Limit, now time.Time) *sabot.Limit {
	if l.Pending != sabot.NoPending && !now.Before(l.PendingFrom) {
		if l.Pending == sabot.RemovalPending {
			return nil
		}
		l.Amount, l.Pending, l.PendingFrom = l.Pending, sabot.NoPending, time.Time{}
	}
	return &l
}

func careRefusal(reason, format string, l *sabot.Limit, used, amount money.Amount, a ...any) error {
	e := sabot.Errorf(sabot.EFORBIDDEN, format, a...)
	e.Reason = reason
	e.Params = map[string]any{"period": l.Period, "limit": int64(l.Amount), "used": int64(used), "amount": int64(amount)}
	return e
}

// StakeGuard is the check of a player's stake made in the transaction that
// records it (sabot.StakeGuard): the session it came from still
// stands, no exclusion is in force, and no stake or loss limit of his would
// be passed. The store runs it after the stake's postings, which hold the
// player's wallet: his stakes at every table, on every node, are checked
// one after the other, each against the usage the others left. nil where
// the store keeps no care, or nothing is staked.
func (c *Care) StakeGuard(session string, userID int64, stake money.Amount) *sabot.StakeGuard {
	if stake <= 0 {
		return nil
	}
	return c.BetGuard(session, userID, stake)
}

// BetGuard is StakeGuard for a bet placed or changed: a bet changed down
// or to the same stake stakes nothing, yet is play all the same, so the
// session and the exclusions are checked whatever it stakes (a player
// blocked on another node cannot move his bet before the notice comes);
// the limits, only what it adds. nil where the store keeps no care.
func (c *Care) BetGuard(session string, userID int64, stake money.Amount) *sabot.StakeGuard {
	if c.store() == nil || userID == 0 {
		return nil
	}
	now := c.now()
	return &sabot.StakeGuard{UserID: userID, Session: session, Check: func(e sabot.Eligibility) error {
		if !e.SessionLive {
			return ErrSessionOver
		}
		if err := exclusionRefusal(&e.Care, now); err != nil {
			return err
		}
		if stake <= 0 {
			return nil
		}
		// The usage read includes this stake: staked by it, lost by it.
		return careLimits(e.Limits, now, e.Usage, stake, stake, "stake", "loss")
	}}
}

// ErrSessionOver refuses a stake from a session that is over (logged out,
// idle too long, ended on any node).
var ErrSessionOver = sabot.Errorf(sabot.EUNAUTHORIZED, "log in again: the session is over (logged out, idle too long or ended elsewhere); the stake is refused").
	WithReason("session_over", nil)

// Deposit refuses a credit past a deposit limit.
func (c *Care) Deposit(ctx context.Context, userID int64, amount money.Amount) error {
	st := c.store()
	if st == nil || amount <= 0 {
		return nil
	}
	ls, err := st.Limits(ctx, userID)
	if err != nil || len(ls) == 0 {
		return err
	}
	return careLimits(ls, c.now(), func(since time.Time) (sabot.Usage, error) { return st.Usage(ctx, userID, since) }, amount, 0, "deposit")
}

// DepositGuard checks a credit against the player's deposit limits in the
// transaction that records it (two credits at once each
// read the usage before the other; the credit's postings hold his wallet,
// so his credits are checked one after the other). nil where the store
// keeps no care.
func (c *Care) DepositGuard(userID int64, amount money.Amount) *sabot.StakeGuard {
	if c.store() == nil || amount <= 0 {
		return nil
	}
	now := c.now()
	return &sabot.StakeGuard{UserID: userID, Check: func(e sabot.Eligibility) error {
		// The usage read includes this credit.
		usage := func(since time.Time) (sabot.Usage, error) {
			u, err := e.Usage(since)
			u.Credited -= amount
			return u, err
		}
		return careLimits(e.Limits, now, usage, amount, 0, "deposit")
	}}
}

// careLimits refuses an amount that would take the player past one of his
// limits of the kinds given: usage reads what a period has used, which
// includes already of the amount (a stake read in its own transaction).
func careLimits(ls []sabot.Limit, now time.Time, usage func(time.Time) (sabot.Usage, error), amount, included money.Amount, kinds ...string) error {
	if amount <= 0 {
		return nil
	}
	read := map[string]sabot.Usage{}
	for _, raw := range ls {
		l := effective(raw, now)
		if l == nil || !slices.Contains(kinds, l.Kind) {
			continue
		}
		u, ok := read[l.Period]
		if !ok {
			var err error
			if u, err = usage(now.Add(-carePeriods[l.Period])); err != nil {
				return err
			}
			u.Staked -= included
			u.Net += included
			read[l.Period] = u
		}
		switch l.Kind {
		case "stake":
			if u.Staked+amount > l.Amount {
				return careRefusal("stake_limit", "refused: your stake limit is %s a %s; %s staked so far, %s more would pass it", l, u.Staked, amount, l.Amount, l.Period, u.Staked, amount)
			}
		case "loss":
			lost := max(-u.Net, 0)
			if lost+amount > l.Amount {
				return careRefusal("loss_limit", "refused: your loss limit is %s a %s; %s lost so far, a stake of %s could pass it", l, lost, amount, l.Amount, l.Period, lost, amount)
			}
		case "deposit":
			if u.Credited+amount > l.Amount {
				return careRefusal("deposit_limit", "refused: the player's deposit limit is %s a %s; %s credited so far, %s more would pass it", l, u.Credited, amount, l.Amount, l.Period, u.Credited, amount)
			}
		}
	}
	return nil
}

// Excluded refuses a player under a time-out or a self-exclusion, or
// blocked by the pit.
func (c *Care) Excluded(ctx context.Context, userID int64) error {
	st := c.store()
	if st == nil {
		return nil
	}
	pc, err := st.CareOf(ctx, userID)
	if err != nil {
		return err
	}
	return exclusionRefusal(pc, c.now())
}

// exclusionRefusal is the refusal of a player whose exclusion is in force
// (nil: none is).
func exclusionRefusal(pc *sabot.PlayerCare, now time.Time) error {
	if pc.Blocked != "" {
		// The pit's reason is the pit's: the player is told to ask.
		return sabot.Errorf(sabot.EFORBIDDEN, "refused: the casino has blocked this account; ask the pit").WithReason("blocked", nil)
	}
	if pc.Exclusion == "" || !now.Before(pc.ExcludedUntil) {
		return nil
	}
	e := sabot.Errorf(sabot.EFORBIDDEN, "refused: a %s is in force until %s: no play until then", pc.Exclusion, pc.ExcludedUntil.UTC().Format(time.RFC3339))
	e.Reason = "excluded"
	e.Params = map[string]any{"exclusion": pc.Exclusion, "until": pc.ExcludedUntil.UTC().Format(time.RFC3339)}
	return e
}
