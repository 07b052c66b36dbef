package actor

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"sync"
	"time"

	"sabot"
	"sabot/internal/live"
	"sabot/internal/operator"
	"sabot/internal/report"
	"sabot/internal/seal"
	"sabot/money"
)

// Host is what a table's actor asks of the server that runs it: the store,
// the clocks, the ledger's accounts, player care's checks of a stake, the
// operator's wallet, the staff's live table, the key of the seeds and the
// settings. The server fills one for all its tables (internal/server,
// tables.go); a test fills the fields it needs, the others take their
// defaults.
type Host struct {
	Store sabot.Store
	// Ctx is the server's: a table's actor stops when it ends. nil: never.
	Ctx    context.Context
	Logger *slog.Logger // nil: discard
	Now    func() time.Time
	Timing Timing
	// Metrics are the tables' metrics (nil: a registry of their own).
	Metrics *Metrics

	// Account is the ID of a ledger account, and Balance its balance (0 if
	// it cannot be read); nil: read from the store each time.
	Account func(ctx context.Context, kind string, owner int64) (int64, error)
	Balance func(ctx context.Context, kind string, owner int64) money.Amount
	// Balances is Balance for several owners at once, read together (one
	// read transaction for a deal's or a settlement's wallets); nil: each
	// read by Balance.
	Balances func(ctx context.Context, kind string, owners []int64) map[int64]money.Amount

	// StakeGuard and BetGuard are player care's checks of a stake, and of
	// a bet placed or changed whatever it stakes, made in the transaction
	// that records it (care.Care); nil: none.
	StakeGuard func(session string, userID int64, stake money.Amount) *sabot.StakeGuard
	BetGuard   func(session string, userID int64, stake money.Amount) *sabot.StakeGuard

	// Operator is the operator's wallet whose players' stakes a table
	// debits (internal/operator); nil, or one without a wallet: the
	// built-in wallets only.
	Operator *operator.Operator

	// SeedKey seals the seed of each live shoe in the log, and a
	// snapshot's shoes (seal.go); nil: in the clear (tests).
	SeedKey *seal.Key
	// SnapshotEvery is how many rounds a table plays between its
	// snapshots (0: DefaultSnapshotEvery; negative: none).
	SnapshotEvery int
	// SnapshotRecords is how many records a table writes between its
	// snapshots, rounds or none (0: DefaultSnapshotRecords; negative:
	// rounds only).
	SnapshotRecords int
	// MaxBoxesWithoutBet bounds the boxes a player holds without a bet of
	// his on them (AR-21; 0: DefaultMaxBoxesWithoutBet; negative: none).
	MaxBoxesWithoutBet int
	// ReseatAfter is how long a box given up for no bet is not its
	// holder's again; UnbetWindow how long the boxes a player was given up
	// for no bet count against MaxBoxesWithoutBet; SitsPerMinute how many
	// times a player sits down at a table in a minute (0:
	// DefaultReseatAfter, DefaultUnbetWindow, DefaultSitsPerMinute;
	// negative: none).
	ReseatAfter   time.Duration
	UnbetWindow   time.Duration
	SitsPerMinute int
	// CashApproval and FloatLimit are a live table's bounds of cash
	// (internal/live; 0: live's defaults, negative: none).
	CashApproval money.Amount
	FloatLimit   money.Amount
	// CashShift is the shift over which a live table sums a walk-in's
	// buy-ins, and a dealer's, against cash_approval (0:
	// live.DefaultCashShift; negative: each buy-in alone).
	CashShift time.Duration

	// Theories are the exact figures of the rule sets the return watch
	// compares each table with (rtpwatch.go); nil: not watched. RTPZ and
	// RTPMinRounds replace its band (0: report's; tests).
	Theories     *report.Theories
	RTPZ         float64
	RTPMinRounds int64

	// CheckID checks a command's IDs (Command; nil: not checked).
	CheckID func(field, id string) error

	once sync.Once
	live *live.Live // the staff's live table, as the table's commands ask it
}

// defaults fills what the host left empty (metrics of their own, an
// operator without a wallet) and makes the live table's part.
func (h *Host) defaults() {
	h.once.Do(func() {
		if h.Metrics == nil {
			h.Metrics = NewMetrics()
		}
		if h.Operator == nil {
			h.Operator = operator.New(operator.Config{})
		}
		h.live = &live.Live{Store: h.Store, Now: h.now, CashApproval: h.CashApproval, FloatLimit: h.FloatLimit, CashShift: h.CashShift,
			Account: h.account, Balance: h.balance}
	})
}

// wallet says whether the operator's wallet is set up.
func (h *Host) wallet() bool { return h.Operator.Has() }

// Timing is the table service's clocks: the betting window, the decision
// timers and the idle time after which a session must log in again.
type Timing struct {
	BetWindow   time.Duration // from the first bet to "rien ne va plus"
	Decision    time.Duration // a player's decision on a hand
	Window      time.Duration // an optional window (challenge, insurance, back bettors' answers)
	SessionIdle time.Duration // a session unused this long must log in again
	// SeatIdle is how long a box may be held with no round dealt before
	// it is given up (AR-21); two betting windows by default.
	SeatIdle time.Duration
	// KeepBetWindow keeps the betting window open to its end once every
	// seated box has a bet, so that a player builds his stake from
	// several chips, bets a second box and others bet behind him; it ends
	// early when every seated player has said "deal" (callDeal). False
	// deals as soon as every seated box has a bet (a quick table, as most
	// tests' are); DefaultTiming, and so `sabot serve`, keeps the window.
	KeepBetWindow bool
}

// DefaultTiming is the timing of `sabot serve` unless flags change it.
var DefaultTiming = Timing{BetWindow: 15 * time.Second, Decision: 30 * time.Second, Window: 10 * time.Second, SessionIdle: 30 * time.Minute,
	SeatIdle: 30 * time.Second, KeepBetWindow: true}

// WithDefaults is t with each zero field DefaultTiming's.
func (t Timing) WithDefaults() Timing {
	if t.BetWindow <= 0 {
		t.BetWindow = DefaultTiming.BetWindow
	}
	if t.Decision <= 0 {
		t.Decision = DefaultTiming.Decision
	}
	if t.Window <= 0 {
		t.Window = DefaultTiming.Window
	}
	if t.SessionIdle <= 0 {
		t.SessionIdle = DefaultTiming.SessionIdle
	}
	if t.SeatIdle <= 0 {
		t.SeatIdle = DefaultTiming.SeatIdle
	}
	return t
}

func (h *Host) logger() *slog.Logger {
	if h.Logger == nil {
		return slog.New(slog.DiscardHandler)
	}
	return h.Logger
}

func (h *Host) now() time.Time {
	if h.Now != nil {
		return h.Now()
	}
	return time.Now()
}

func (h *Host) timing() Timing { return h.Timing.WithDefaults() }

func (h *Host) ctx() context.Context {
	if h.Ctx == nil {
		return context.Background()
	}
	return h.Ctx
}

func (h *Host) account(ctx context.Context, kind string, owner int64) (int64, error) {
	if h.Account != nil {
		return h.Account(ctx, kind, owner)
	}
	acc, err := h.Store.Account(ctx, kind, owner)
	if err != nil {
		return 0, err
	}
	return acc.ID, nil
}

// balances are the balances of the accounts of a kind and owners (0 where
// one cannot be read).
func (h *Host) balances(ctx context.Context, kind string, owners []int64) map[int64]money.Amount {
	if h.Balances != nil {
		return h.Balances(ctx, kind, owners)
	}
	out := make(map[int64]money.Amount, len(owners))
	for _, o := range owners {
		if _, ok := out[o]; !ok {
			out[o] = h.balance(ctx, kind, o)
		}
	}
	return out
}

func (h *Host) balance(ctx context.Context, kind string, owner int64) money.Amount {
	if h.Balance != nil {
		return h.Balance(ctx, kind, owner)
	}
	acc, err := h.Store.Account(ctx, kind, owner)
	if err != nil {
		return 0
	}
	return acc.Balance
}

func (h *Host) stakeGuard(c *Command, userID int64, stake money.Amount) *sabot.StakeGuard {
	if h.StakeGuard == nil {
		return nil
	}
	return h.StakeGuard(c.session, userID, stake)
}

// followGuard is the guard of a back bettor's stake that follows the
// holder's decision: no session of his sent it.
func (h *Host) followGuard(userID int64, stake money.Amount) *sabot.StakeGuard {
	if h.StakeGuard == nil {
		return nil
	}
	return h.StakeGuard("", userID, stake)
}

func (h *Host) betGuard(c *Command, userID int64, stake money.Amount) *sabot.StakeGuard {
	if h.BetGuard == nil {
		return nil
	}
	return h.BetGuard(c.session, userID, stake)
}

func (h *Host) maxBoxesWithoutBet() int {
	if h.MaxBoxesWithoutBet == 0 {
		return DefaultMaxBoxesWithoutBet
	}
	return h.MaxBoxesWithoutBet
}

func (h *Host) reseatAfter() time.Duration {
	if h.ReseatAfter == 0 {
		return DefaultReseatAfter
	}
	return h.ReseatAfter
}

func (h *Host) unbetWindow() time.Duration {
	if h.UnbetWindow == 0 {
		return DefaultUnbetWindow
	}
	return h.UnbetWindow
}

func (h *Host) sitsPerMinute() int {
	if h.SitsPerMinute == 0 {
		return DefaultSitsPerMinute
	}
	return h.SitsPerMinute
}

func (h *Host) cashShift() time.Duration {
	if h.CashShift == 0 {
		return live.DefaultCashShift
	}
	return h.CashShift
}

func (h *Host) liveDeps() *live.Live { return h.live }

// RandomID is n random bytes in hex.
func RandomID(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}
