package sabot

import (
	"context"
	"time"
)

// User is a registered player (or an administrator).
type User struct {
	ID           int64
	Name         string
	PasswordHash []byte // bcrypt
	Admin        bool
	// Role is a member of the staff's at a live table: RoleDealer
	// or RoleInspector; a walk-in player's, RoleGuest; "" for a player (or
	// the pit, Admin). Staff do not play.
	Role string
	// OperatorID is the operator's ID of a player who comes from an
	// operator's site and plays on the operator's wallet (docs/wallet.md); ""
	// for everyone else. Such a player has no password
	// and never logs in: the operator's token opens his session.
	OperatorID string
	Created    time.Time
	// Credentials is the version of the user's password: it moves on with
	// each change (SetPassword). A session is made against the version
	// read with the hash it matched, and only while that is still the
	// user's.
	Credentials int64
}

// The roles (User.Role; docs/live.md).
const (
	RoleDealer    = "dealer"    // deals a physical shoe: reads its cards in, at the console
	RoleInspector = "inspector" // the Inspector or Jefe de Mesa: approves the dealer's corrections (AR-23)
	// RoleGuest is a walk-in player at a live table: the dealer seats him,
	// sells him chips for cash and enters his bets and decisions. He has no
	// password and never logs in; his name starts with '#', which no
	// registered name has.
	RoleGuest = "guest"
)

// Staff reports whether the user works the tables rather than plays.
func (u *User) Staff() bool { return u.Role == RoleDealer || u.Role == RoleInspector }

// Session is a login: a random token, valid until it has been idle too long.
type Session struct {
	Token    string // stored hashed; the client holds the plain token
	UserID   int64
	Created  time.Time
	LastSeen time.Time
	// Credentials is the User.Credentials the session's login matched:
	// CreateSession refuses it (EUNAUTHORIZED, reason
	// "credentials_changed") once the user's have moved on.
	Credentials int64
}

// Revocation says that a player's session ended (a logout, an idle
// expiry) or, with Player, that the player may no longer play at all (a
// time-out, a self-exclusion): every node closes what it holds of him.
// Origin is the node that made it.
type Revocation struct {
	UserID int64  `json:"user"`
	Player bool   `json:"player,omitempty"`
	Origin string `json:"origin,omitempty"`
}

// Revoker is a Store several nodes share that carries revocations from the
// node that makes one to every other, at once (PostgreSQL: NOTIFY). It is
// the prompt half: the stake's own transaction (StakeGuard) refuses a
// stake of an ended session or an excluded player whether or not a node
// heard.
type Revoker interface {
	// Revoke tells every node watching, after the change it follows has
	// committed.
	Revoke(ctx context.Context, r Revocation) error
	// WatchRevocations calls fn with each revocation, until ctx ends. After
	// a break in the watch (revocations may have been missed) it calls fn
	// with a Revocation of UserID 0: check everything.
	WatchRevocations(ctx context.Context, fn func(Revocation)) error
}
