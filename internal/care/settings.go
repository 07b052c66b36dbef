package care

import (
	"context"
	"fmt"
	"slices"
	"time"

	"sabot"
	"sabot/internal/tablelog"
	"sabot/money"
)

// A player's own settings: his limits, his reality check, his time-out or
// self-exclusion (/api/me/care).

// View is a player's responsible-gaming settings and this session's
// account (GET /api/me/care).
type View struct {
	Limits         []LimitView `json:"limits"`
	RealityMinutes int         `json:"reality_minutes"`
	RealityChoices []int       `json:"reality_choices"`
	// SessionStarted is when this session began; SessionNet what the
	// player has won (lost: negative) at the tables since.
	SessionStarted time.Time        `json:"session_started"`
	SessionNet     money.Amount     `json:"session_net"`
	CoolingHours   float64          `json:"cooling_hours"`
	Exclusions     map[string][]int `json:"exclusions"`
	// StakeRoom is the most a stake may take now under the stake and loss
	// limits (nil: neither is set): the table's page offers no double or
	// split that a limit would refuse.
	StakeRoom *money.Amount `json:"stake_room,omitempty"`
}

// LimitView is a limit as it stands, with what the period has used of it.
type LimitView struct {
	Kind        string        `json:"kind"`
	Period      string        `json:"period"`
	Amount      money.Amount  `json:"amount"`
	Used        money.Amount  `json:"used"`
	Pending     *money.Amount `json:"pending,omitempty"` // a raise waiting
	Removal     bool          `json:"removal,omitempty"` // a removal waiting
	PendingFrom *time.Time    `json:"pending_from,omitempty"`
}

func (c *Care) view(ctx context.Context, u *sabot.User, session *sabot.Session) (*View, error) {
	st, err := c.careFor(u)
	if err != nil {
		return nil, err
	}
	now := c.now()
	v := &View{Limits: []LimitView{}, RealityChoices: RealityChoices, CoolingHours: c.cooling().Hours(), Exclusions: exclusionDays}
	ls, err := st.Limits(ctx, u.ID)
	if err != nil {
		return nil, err
	}
	for _, raw := range ls {
		l := effective(raw, now)
		if l == nil {
			continue
		}
		us, err := st.Usage(ctx, u.ID, now.Add(-carePeriods[l.Period]))
		if err != nil {
			return nil, err
		}
		lv := LimitView{Kind: l.Kind, Period: l.Period, Amount: l.Amount}
		switch l.Kind {
		case "stake":
			lv.Used = us.Staked
		case "loss":
			lv.Used = max(-us.Net, 0)
		case "deposit":
			lv.Used = us.Credited
		}
		if l.Kind == "stake" || l.Kind == "loss" {
			// careLimits refuses a stake past Amount - Used.
			room := max(l.Amount-lv.Used, 0)
			if v.StakeRoom == nil || room < *v.StakeRoom {
				v.StakeRoom = &room
			}
		}
		if l.Pending != sabot.NoPending {
			from := l.PendingFrom
			lv.PendingFrom = &from
			if l.Pending == sabot.RemovalPending {
				lv.Removal = true
			} else {
				p := l.Pending
				lv.Pending = &p
			}
		}
		v.Limits = append(v.Limits, lv)
	}
	pc, err := st.CareOf(ctx, u.ID)
	if err != nil {
		return nil, err
	}
	v.RealityMinutes = pc.RealityMinutes
	if session != nil {
		v.SessionStarted = session.Created
		us, err := st.Usage(ctx, u.ID, session.Created)
		if err != nil {
			return nil, err
		}
		v.SessionNet = us.Net
	}
	return v, nil
}

// LimitRequest sets a limit (POST /api/me/care/limits): an amount in minor
// units, or none to remove it.
type LimitRequest struct {
	Kind   string        `json:"kind"`
	Period string        `json:"period"`
	Amount *money.Amount `json:"amount"`
}

// setLimit applies the rule: a first or lower limit at once; a raise or a
// removal after the cooling period (asked again, the same change keeps its
// date; another starts the period again).
func (c *Care) setLimit(ctx context.Context, u *sabot.User, req LimitRequest) error {
	st, err := c.careFor(u)
	if err != nil {
		return err
	}
	if !slices.Contains(careKinds, req.Kind) {
		return sabot.Errorf(sabot.EINVALID, "a limit's kind is deposit, loss or stake, not %q", req.Kind)
	}
	if _, ok := carePeriods[req.Period]; !ok {
		return sabot.Errorf(sabot.EINVALID, "a limit's period is day, week or month, not %q", req.Period)
	}
	if req.Amount != nil && (*req.Amount < 0 || !req.Amount.Valid()) {
		return sabot.Errorf(sabot.EINVALID, "a limit is an amount from 0 to %d minor units", money.Max)
	}
	ls, err := st.Limits(ctx, u.ID)
	if err != nil {
		return err
	}
	now := c.now()
	var cur *sabot.Limit
	for _, l := range ls {
		if l.Kind == req.Kind && l.Period == req.Period {
			cur = effective(l, now)
		}
	}
	if cur == nil {
		if req.Amount == nil {
			return nil // no limit, and none asked for
		}
		return st.PutLimit(ctx, u.ID, sabot.Limit{Kind: req.Kind, Period: req.Period, Amount: *req.Amount, Pending: sabot.NoPending, SetAt: now})
	}
	next := *cur
	next.SetAt = now
	want := sabot.RemovalPending
	if req.Amount != nil {
		want = *req.Amount
	}
	switch {
	case want != sabot.RemovalPending && want <= cur.Amount: // lower: at once, and nothing waits
		next.Amount, next.Pending, next.PendingFrom = want, sabot.NoPending, time.Time{}
	case cur.Pending == want: // the same change asked again
		return nil
	default: // a raise or a removal: after the cooling period
		next.Pending, next.PendingFrom = want, now.Add(c.cooling())
	}
	return st.PutLimit(ctx, u.ID, next)
}

// setReality sets the player's reality check, every minutes of a session
// (0: none).
func (c *Care) setReality(ctx context.Context, u *sabot.User, minutes int) error {
	st, err := c.careFor(u)
	if err != nil {
		return err
	}
	if !slices.Contains(RealityChoices, minutes) {
		return sabot.Errorf(sabot.EINVALID, "a reality check comes every %v minutes (0: none), not %d", RealityChoices, minutes)
	}
	pc, err := st.CareOf(ctx, u.ID)
	if err != nil {
		return err
	}
	pc.RealityMinutes = minutes
	return st.PutCare(ctx, u.ID, *pc)
}

// ExclusionRequest is a time-out or a self-exclusion for a number of days
// (POST /api/me/care/exclusion).
type ExclusionRequest struct {
	Kind string `json:"kind"`
	Days int    `json:"days"`
}

// exclude puts a player under a time-out or a self-exclusion: recorded, a
// significant event, his sessions ended and his sockets closed, and he is
// taken off every table (his bets for the next round returned; a round in
// play goes on to its settlement by the timers).
func (c *Care) exclude(ctx context.Context, u *sabot.User, req ExclusionRequest) (*sabot.PlayerCare, error) {
	st, err := c.careFor(u)
	if err != nil {
		return nil, err
	}
	days, ok := exclusionDays[req.Kind]
	if !ok {
		return nil, sabot.Errorf(sabot.EINVALID, "an exclusion is a time-out or a self-exclusion, not %q", req.Kind)
	}
	if !slices.Contains(days, req.Days) {
		return nil, sabot.Errorf(sabot.EINVALID, "a %s lasts %v days, not %d", req.Kind, days, req.Days)
	}
	pc, err := st.CareOf(ctx, u.ID)
	if err != nil {
		return nil, err
	}
	now := c.now()
	until := now.AddDate(0, 0, req.Days)
	if pc.Exclusion != "" && until.Before(pc.ExcludedUntil) {
		return nil, sabot.Errorf(sabot.ECONFLICT, "refused: a %s is in force until %s; an exclusion is never shortened", pc.Exclusion, pc.ExcludedUntil.UTC().Format(time.RFC3339))
	}
	pc.Exclusion, pc.ExcludedFrom, pc.ExcludedUntil = req.Kind, now, until
	if err := st.PutCare(ctx, u.ID, *pc); err != nil {
		return nil, err
	}
	var ev tablelog.Event = tablelog.TimeOut{User: u.Name, Days: req.Days, Until: until.UTC().Format(time.RFC3339), Text: fmt.Sprintf("%s chose a %s of %d days, until %s", u.Name, req.Kind, req.Days, until.UTC().Format(time.RFC3339))}
	if req.Kind == tablelog.EventSelfExclusion {
		ev = tablelog.SelfExclusion(ev.(tablelog.TimeOut))
	}
	c.cfg.Event(ctx, nil, ev)
	if _, err := st.EndSessions(ctx, u.ID); err != nil {
		return nil, err
	}
	// His sockets closed and his places at the tables given up, on every
	// node; his stakes are refused from the commit above.
	c.cfg.Tables.Bar(ctx, u.ID)
	return pc, nil
}
