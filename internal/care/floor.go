package care

import (
	"net/http"
	"strings"
	"time"

	"sabot"
	"sabot/internal/httpjson"
	"sabot/internal/wire"
	"sabot/money"
)

// The pit's floor (GET /api/admin/floor): every table of the lobby with
// its state and seats, its win today against the theoretical, and each
// seated player's block or exclusion and today's rating, in one answer:
// the floor used to ask /api/admin/players once per seated player at each
// reload, and the tables report once a minute.

// MaxFloorPlayers bounds the seated players whose care and rating one
// floor answer reads; past it the seats are listed without them and the
// answer says it is truncated.
const MaxFloorPlayers = 50

// FloorView is the pit's floor.
type FloorView struct {
	Tables []FloorTable `json:"tables"`
	// From is the start of the day the ratings cover (?from=, else
	// midnight UTC); Truncated says that more than MaxFloorPlayers players
	// were seated, the later ones without their care and rating.
	From      time.Time `json:"from"`
	Truncated bool      `json:"truncated,omitempty"`
}

// FloorTable is one table: its lobby view (its state, its rules, its
// seats), the players at its boxes and its day.
type FloorTable struct {
	Table   *wire.TableView `json:"table"`
	Players []FloorPlayer   `json:"players"`
	// Today is the table's win over the pit's day against its
	// theoretical, as the tables report gives it (nil: the floor shows
	// none, or no report read yet).
	Today *TableDay `json:"today,omitempty"`
}

// TableDay is a table's day as the tables report gives it (docs/pit.md):
// the rounds settled, the house's win and theoretical win, and the band
// the win is expected in; Outside says the win is outside it.
type TableDay struct {
	Rounds   int64        `json:"rounds"`
	Win      money.Amount `json:"win"`
	Theo     money.Amount `json:"theo_win"`
	BandLow  money.Amount `json:"band_low"`
	BandHigh money.Amount `json:"band_high"`
	Outside  bool         `json:"outside_band"`
}

// FloorPlayer is a box's holder as the floor shows him. A walk-in (an
// account "#table-box") has neither care nor rating.
type FloorPlayer struct {
	Box       int        `json:"box"`
	Player    string     `json:"player"`
	WalkIn    bool       `json:"walk_in,omitempty"`
	Exclusion string     `json:"exclusion,omitempty"`
	Until     *time.Time `json:"until,omitempty"`
	Blocked   *BlockView `json:"blocked,omitempty"`
	// Rating is his rating over today (nil: no round of his today, or
	// past the cap).
	Rating *Rating `json:"rating,omitempty"`
}

// Rating is a player's rating over a period, as the players' report
// gives it (docs/pit.md). Win and Theo are the house's: what the house
// won from him, and its theoretical win.
type Rating struct {
	Rounds    int64        `json:"rounds"`
	AvgBet    money.Amount `json:"avg_bet"`
	Win       money.Amount `json:"win"`
	Theo      money.Amount `json:"theo_win"`
	SkillTheo money.Amount `json:"skill_theo"`
}

// floorDay bounds ?from=: the start of the pit's day, at most 48 hours
// before now (any time zone's midnight).
const floorDay = 48 * time.Hour

// HandleFloor answers GET /api/admin/floor?from=: the FloorView.
func (c *Care) HandleFloor(w http.ResponseWriter, r *http.Request, pit *sabot.User) {
	now := c.now().UTC()
	from := now.Truncate(24 * time.Hour)
	if x := r.URL.Query().Get("from"); x != "" {
		t, err := time.Parse(time.RFC3339, x)
		if err != nil || t.After(now) || now.Sub(t) > floorDay {
			c.cfg.HTTP.Error(w, r, sabot.Errorf(sabot.EINVALID, "from=%q: give the start of the pit's day, an RFC 3339 time within %v before now", x, floorDay))
			return
		}
		from = t.UTC()
	}
	v, err := c.floor(r, from)
	if err != nil {
		c.cfg.HTTP.Error(w, r, err)
		return
	}
	httpjson.Write(w, http.StatusOK, v)
}

func (c *Care) floor(r *http.Request, from time.Time) (*FloorView, error) {
	ctx := r.Context()
	out := &FloorView{Tables: []FloorTable{}, From: from}
	var names []string // the seated players read, at most MaxFloorPlayers
	read := map[string]bool{}
	for _, tv := range c.cfg.Tables.Lobby(r) {
		ft := FloorTable{Table: tv, Players: []FloorPlayer{}}
		for _, s := range tv.Seats {
			if s.Player == "" {
				continue
			}
			p := FloorPlayer{Box: s.Box, Player: s.Player, WalkIn: strings.HasPrefix(s.Player, "#")}
			if !p.WalkIn && !read[s.Player] {
				if len(names) < MaxFloorPlayers {
					read[s.Player] = true
					names = append(names, s.Player)
				} else {
					out.Truncated = true
				}
			}
			ft.Players = append(ft.Players, p)
		}
		out.Tables = append(out.Tables, ft)
	}
	views := map[string]FloorPlayer{}
	st, now := c.store(), c.now()
	for _, name := range names {
		var p FloorPlayer
		if u, err := c.cfg.Users.UserByName(ctx, name); err == nil && st != nil {
			pc, err := st.CareOf(ctx, u.ID)
			if err != nil {
				return nil, err
			}
			if pc.Exclusion != "" && now.Before(pc.ExcludedUntil) {
				until := pc.ExcludedUntil.UTC()
				p.Exclusion, p.Until = pc.Exclusion, &until
			}
			if pc.Blocked != "" {
				p.Blocked = blockView(u, pc)
			}
		} else if err != nil && sabot.ErrorCode(err) != sabot.ENOTFOUND {
			return nil, err
		}
		views[name] = p
	}
	var ratings map[string]Rating
	if c.cfg.Ratings != nil && len(names) > 0 {
		var err error
		if ratings, err = c.cfg.Ratings(r, from, names); err != nil {
			return nil, err
		}
	}
	if c.cfg.TableDays != nil && len(out.Tables) > 0 {
		days, err := c.cfg.TableDays(r, from)
		if err != nil {
			return nil, err
		}
		for i := range out.Tables {
			if d, ok := days[out.Tables[i].Table.ID]; ok {
				out.Tables[i].Today = &d
			}
		}
	}
	for i := range out.Tables {
		for j := range out.Tables[i].Players {
			p := &out.Tables[i].Players[j]
			v, ok := views[p.Player]
			if !ok {
				continue
			}
			p.Exclusion, p.Until, p.Blocked = v.Exclusion, v.Until, v.Blocked
			if x, ok := ratings[p.Player]; ok {
				p.Rating = &x
			}
		}
	}
	return out, nil
}
