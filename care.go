package sabot

import (
	"context"
	"sabot/money"
	"time"
)

// Care is a Store that keeps the players' responsible-gaming settings on
// the built-in wallets (docs/players.md): limits on deposits,
// losses and stakes over a rolling period, the reality check and the
// exclusions. The policy (when a change applies, what a limit refuses) is
// player care's (internal/care); the store keeps what it is given and
// reads the ledger.
type Care interface {
	// Limits returns a player's limits, pending changes included.
	Limits(ctx context.Context, userID int64) ([]Limit, error)
	// PutLimit writes a player's limit of its kind and period as given;
	// DeleteLimit removes it.
	PutLimit(ctx context.Context, userID int64, l Limit) error
	DeleteLimit(ctx context.Context, userID int64, kind, period string) error
	// CareOf returns a player's reality check and exclusion (the defaults
	// if none was set); PutCare writes them.
	CareOf(ctx context.Context, userID int64) (*PlayerCare, error)
	PutCare(ctx context.Context, userID int64, c PlayerCare) error
	// SetBlock writes the pit's block of a player (reason "": lifted),
	// and nothing else of his care.
	SetBlock(ctx context.Context, userID int64, reason string, at time.Time) error
	// Usage sums a player's wallet entries since a time: what was credited
	// to it, staked from it and its net at the tables.
	Usage(ctx context.Context, userID int64, since time.Time) (Usage, error)
	// EndSessions deletes every session of a player and returns how many.
	EndSessions(ctx context.Context, userID int64) (int, error)
	// LiveSessions counts a player's sessions used at since or later (an
	// older one is over: idle too long).
	LiveSessions(ctx context.Context, userID int64, since time.Time) (int, error)
	// SweepSessions deletes every session last used before a time (idle
	// too long: over) and returns how many.
	SweepSessions(ctx context.Context, before time.Time) (int, error)
	// Seen records that a player registered or logged in from each of
	// marks ("address:…", "device:…"; kept as hashes; his latest
	// MaxSeenMarks only) at a time, and
	// returns the other players seen from any of them whose exclusion is
	// in force then.
	Seen(ctx context.Context, userID int64, marks []string, at time.Time) ([]Sighting, error)
}

// MaxSeenMarks is how many marks (Care.Seen) a store keeps of one player:
// his latest (a client that sends a new device cookie at each login adds
// no more than these).
const MaxSeenMarks = 32

// Sighting is a player under an exclusion seen before from a mark (its
// kind: "address" or "device") that another player now comes from.
type Sighting struct {
	UserID    int64
	Name      string
	Mark      string
	Exclusion string
	Until     time.Time
}

// Limit is a responsible-gaming limit: Kind "deposit", "loss" or "stake",
// over Period "day", "week" or "month" (rolling), at most Amount. A raise or
// a removal waits for its cooling period: Pending is the amount it raises
// to (NoPending: none; RemovalPending: the limit goes) from PendingFrom.
type Limit struct {
	Kind        string       `json:"kind"`
	Period      string       `json:"period"`
	Amount      money.Amount `json:"amount"`
	Pending     money.Amount `json:"pending"`
	PendingFrom time.Time    `json:"pending_from"`
	SetAt       time.Time    `json:"set_at"`
}

// A Limit's Pending: none, or the limit's removal.
const (
	NoPending      money.Amount = -1
	RemovalPending money.Amount = -2
)

// PlayerCare is a player's reality check (every RealityMinutes of a
// session, 0 none) and exclusion ("time-out" or "self-exclusion", from
// ExcludedFrom until ExcludedUntil; "" none).
type PlayerCare struct {
	RealityMinutes int       `json:"reality_minutes"`
	Exclusion      string    `json:"exclusion,omitempty"`
	ExcludedFrom   time.Time `json:"excluded_from,omitzero"`
	ExcludedUntil  time.Time `json:"excluded_until,omitzero"`
	// Blocked is the reason the pit gave for blocking the player ("": not
	// blocked), BlockedAt when; a block holds until the pit lifts it. Read
	// here, written only by SetBlock (PutCare leaves it as it is).
	Blocked   string    `json:"-"`
	BlockedAt time.Time `json:"-"`
}

// Usage is what a player's wallet saw over a period: Credited (credits to
// it, the pit's and the welcome), Staked (stakes put on the tables, less
// those returned unplayed) and Net (everything won and lost at the tables,
// stakes in play counted as lost until settled).
type Usage struct {
	Credited money.Amount `json:"credited"`
	Staked   money.Amount `json:"staked"`
	Net      money.Amount `json:"net"`
}
