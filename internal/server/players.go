package server

import (
	"context"
	"net/http"
	"time"

	"sabot"
	"sabot/money"
)

// The pit's view of the players (issue 28, item 8): found by the start of
// their name, each with his wallet, where he sits at the tables this node
// serves, his limits, his exclusion or block, and his last rounds.

// PlayerView is one player as the pit sees him (GET /api/admin/players).
type PlayerView struct {
	ID       int64         `json:"id"`
	Name     string        `json:"name"`
	Operator bool          `json:"operator,omitempty"` // launched from an operator: his money and his limits are the operator's
	Wallet   *money.Amount `json:"wallet,omitempty"`   // absent for an operator's player
	Seats    []PlayerSeat  `json:"seats"`
	Limits   []PlayerLimit `json:"limits"`
	// Exclusion is his time-out or self-exclusion in force, Until its end.
	Exclusion string         `json:"exclusion,omitempty"`
	Until     *time.Time     `json:"until,omitempty"`
	Blocked   *BlockView     `json:"blocked,omitempty"`
	Rounds    []RoundSummary `json:"rounds"`
}

// PlayerSeat is a box a player holds at a table this node serves.
type PlayerSeat struct {
	Table int64  `json:"table"`
	Name  string `json:"name"`
	Box   int    `json:"box"`
}

// PlayerLimit is one of a player's limits as it stands.
type PlayerLimit struct {
	Kind   string       `json:"kind"`
	Period string       `json:"period"`
	Amount money.Amount `json:"amount"`
}

// The pit's search: at most MaxPlayersPage players, each with his last
// PlayerRoundsShown rounds.
const (
	DefaultPlayersPage = 20
	MaxPlayersPage     = 50
	PlayerRoundsShown  = 5
	MaxPlayerQuery     = 64
)

func (s *Server) handlePlayers(w http.ResponseWriter, r *http.Request, pit *sabot.User) {
	limit, err := pageLimit(r, DefaultPlayersPage, MaxPlayersPage)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	q := r.URL.Query().Get("q")
	if len(q) > MaxPlayerQuery {
		s.writeError(w, r, sabot.Errorf(sabot.EINVALID, "q: a name's start of at most %d bytes", MaxPlayerQuery))
		return
	}
	vs, err := s.players(r.Context(), q, limit)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, vs)
}

func (s *Server) players(ctx context.Context, q string, limit int) ([]PlayerView, error) {
	us, err := s.Store.Players(ctx, q, limit)
	if err != nil {
		return nil, err
	}
	seats := map[string][]PlayerSeat{}
	for _, a := range s.tableList() {
		rep := a.do(ctx, &command{inside: viewTable})
		if rep.err != nil || rep.view == nil {
			continue // moved or stopped meanwhile
		}
		for _, st := range rep.view.Seats {
			seats[st.Player] = append(seats[st.Player], PlayerSeat{Table: a.created.ID, Name: a.created.Name, Box: st.Box})
		}
	}
	c := s.care()
	now := s.now()
	out := make([]PlayerView, 0, len(us))
	for _, u := range us {
		v := PlayerView{ID: u.ID, Name: u.Name, Operator: u.OperatorID != "", Seats: seats[u.Name], Limits: []PlayerLimit{}}
		if v.Seats == nil {
			v.Seats = []PlayerSeat{}
		}
		if !v.Operator {
			w := s.balance(ctx, sabot.AccountWallet, u.ID)
			v.Wallet = &w
		}
		if c != nil {
			ls, err := c.Limits(ctx, u.ID)
			if err != nil {
				return nil, err
			}
			for _, l := range ls {
				v.Limits = append(v.Limits, PlayerLimit{Kind: l.Kind, Period: l.Period, Amount: l.Amount})
			}
			pc, err := c.CareOf(ctx, u.ID)
			if err != nil {
				return nil, err
			}
			if pc.Exclusion != "" && now.Before(pc.ExcludedUntil) {
				until := pc.ExcludedUntil.UTC()
				v.Exclusion, v.Until = pc.Exclusion, &until
			}
			if pc.Blocked != "" {
				v.Blocked = blockView(u, pc)
			}
		}
		if v.Rounds, err = PlayerRounds(ctx, s.Store, u, "", PlayerRoundsShown); err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}
