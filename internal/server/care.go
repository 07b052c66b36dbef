package server

import (
	"context"
	"net/http"

	"sabot"
	"sabot/internal/care"
	"sabot/internal/recall"
	"sabot/internal/tablelog"
	"sabot/internal/wire"
	"sabot/money"
)

// Player care (internal/care): the players' limits, exclusions and reality
// checks, the pit's block and the pit's view of the players. The server
// gives it the store's care, its tables (careTables), its significant-event
// log and its HTTP plumbing, and mounts its endpoints behind its
// authentication (http.go); the table's stakes carry its guard.

// DefaultCareCooling is how long a raise or a removal of a limit waits.
const DefaultCareCooling = care.DefaultCooling

func (s *Server) care() sabot.Care {
	c, _ := s.Store.(sabot.Care)
	return c
}

// playerCare is the server's player care, made at its first use from the
// server's fields.
func (s *Server) playerCare() *care.Care {
	s.careOnce.Do(func() {
		s.careSys = care.New(care.Config{
			Store:   s.care(),
			Users:   s.Store,
			Tables:  careTables{s},
			Now:     s.now,
			Cooling: s.CareCooling,
			Event: func(ctx context.Context, by *sabot.User, e tablelog.Event) {
				s.event(ctx, by, e, nil, "")
			},
			Wallet: func(ctx context.Context, userID int64) money.Amount {
				return s.balance(ctx, sabot.AccountWallet, userID)
			},
			Rounds: func(ctx context.Context, u *sabot.User, n int) ([]wire.RoundSummary, error) {
				return recall.PlayerRounds(ctx, s.Store, u, "", n)
			},
			Ratings:   s.floorRatings,
			TableDays: s.floorTables,
			Logger:    s.logger(),
			HTTP:      careHTTP{s},
		})
	})
	return s.careSys
}

// careTables is what player care asks of the tables.
type careTables struct{ s *Server }

// Seats are the boxes held at the tables of every node: the lobby's
// tables (this node's, and those the other live nodes list), as the pit's
// request r sees them.
func (t careTables) Seats(r *http.Request) map[string][]care.PlayerSeat {
	seats := map[string][]care.PlayerSeat{}
	for _, v := range t.s.lobby(r.Context(), r) {
		for _, st := range v.Seats {
			seats[st.Player] = append(seats[st.Player], care.PlayerSeat{Table: v.ID, Name: v.Name, Box: st.Box})
		}
	}
	return seats
}

// Lobby is the view of the tables of every node, as the pit's request r
// sees them.
func (t careTables) Lobby(r *http.Request) []*wire.TableView { return t.s.lobby(r.Context(), r) }

// Bar closes a player's sockets and gives up his places at the tables, on
// every node (revoke.go).
func (t careTables) Bar(ctx context.Context, userID int64) {
	t.s.revoke(ctx, sabot.Revocation{UserID: userID, Player: true}, nil)
}

// careHTTP is the server's HTTP plumbing, as player care's endpoints take
// it.
type careHTTP struct{ s *Server }

func (h careHTTP) Decode(r *http.Request, v any) error { return decode(r, v) }

func (h careHTTP) Error(w http.ResponseWriter, r *http.Request, err error) { h.s.writeError(w, r, err) }

func (h careHTTP) PageLimit(r *http.Request, def, most int) (int, error) {
	return pageLimit(r, def, most)
}

// Session is the session of the request's bearer token (nil: none).
func (h careHTTP) Session(r *http.Request) *sabot.Session {
	_, token, _ := h.s.authenticate(r, false)
	var session *sabot.Session
	if token != "" {
		session, _ = h.s.Store.SessionByToken(r.Context(), token)
	}
	return session
}

// stakeGuard is player care's check of a stake, made in the transaction
// that records it (care.Care.StakeGuard).
func (s *Server) stakeGuard(session string, userID int64, stake money.Amount) *sabot.StakeGuard {
	return s.playerCare().StakeGuard(session, userID, stake)
}

// betGuard is care's check of a bet placed or changed, whatever it stakes
// (care.Care.BetGuard).
func (s *Server) betGuard(session string, userID int64, stake money.Amount) *sabot.StakeGuard {
	return s.playerCare().BetGuard(session, userID, stake)
}

// depositGuard checks a credit against the player's deposit limits in the
// transaction that records it (care.Care.DepositGuard).
func (s *Server) depositGuard(userID int64, amount money.Amount) *sabot.StakeGuard {
	return s.playerCare().DepositGuard(userID, amount)
}

// excluded refuses a player under a time-out or a self-exclusion, or
// blocked by the pit.
func (s *Server) excluded(ctx context.Context, userID int64) error {
	return s.playerCare().Excluded(ctx, userID)
}

// sighted records where a player registers or logs in from ("registered",
// "logged in") and tells the pit of every player under an exclusion seen
// there before; it says whether there was one (care.Care.Sighted).
func (s *Server) sighted(ctx context.Context, w http.ResponseWriter, r *http.Request, u *sabot.User, what string) bool {
	return s.playerCare().Sighted(ctx, w, r, u, clientKey(s.clientAddr(r)), what)
}
