package care

import (
	"net/http"
	"time"

	"sabot/internal/wire"
	"sabot/money"
)

// The pit's view of the players: found by the start of
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
	Exclusion string     `json:"exclusion,omitempty"`
	Until     *time.Time `json:"until,omitempty"`
	Blocked   *BlockView `json:"blocked,omitempty"`
	// Rounds are his last rounds, as recall lists them (Config.Rounds).
	Rounds []wire.RoundSummary `json:"rounds"`
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

func (c *Care) players(r *http.Request, q string, limit int) ([]PlayerView, error) {
	ctx := r.Context()
	us, err := c.cfg.Users.Players(ctx, q, limit)
	if err != nil {
		return nil, err
	}
	seats := c.cfg.Tables.Seats(r)
	st := c.store()
	now := c.now()
	out := make([]PlayerView, 0, len(us))
	for _, u := range us {
		v := PlayerView{ID: u.ID, Name: u.Name, Operator: u.OperatorID != "", Seats: seats[u.Name], Limits: []PlayerLimit{}}
		if v.Seats == nil {
			v.Seats = []PlayerSeat{}
		}
		if !v.Operator {
			w := c.cfg.Wallet(ctx, u.ID)
			v.Wallet = &w
		}
		if st != nil {
			ls, err := st.Limits(ctx, u.ID)
			if err != nil {
				return nil, err
			}
			for _, l := range ls {
				v.Limits = append(v.Limits, PlayerLimit{Kind: l.Kind, Period: l.Period, Amount: l.Amount})
			}
			pc, err := st.CareOf(ctx, u.ID)
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
		if v.Rounds, err = c.cfg.Rounds(ctx, u, PlayerRoundsShown); err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}
