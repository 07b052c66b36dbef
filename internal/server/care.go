package server

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"sabot"
	"sabot/money"
)

// Responsible gaming on the built-in wallets (issue 15; docs/players.md).
// A player sets limits on deposits, losses and stakes over a rolling day,
// week or month: a first limit or a lower one applies at once, a raise or a
// removal after the cooling period (Server.CareCooling). A stake (a bet, a
// double, a split, insurance) that would take the player past a stake or a
// loss limit is refused, and so is a credit past a deposit limit, each with
// a reason and its values; nothing changes. A reality check comes every
// RealityMinutes of a session. A time-out or a self-exclusion ends the
// player's sessions, takes him off the tables and refuses his logins until
// it ends; it cannot be shortened; the pit sees it in the significant-event
// log. An operator's wallet (issue 14) brings its own: Server.Care is the
// point where the checks are made, and a server without a sabot.Care store
// makes none.

// The periods of a limit, rolling back from now.
var carePeriods = map[string]time.Duration{"day": 24 * time.Hour, "week": 7 * 24 * time.Hour, "month": 30 * 24 * time.Hour}

var careKinds = []string{"deposit", "loss", "stake"}

// DefaultCareCooling is how long a raise or a removal of a limit waits.
const DefaultCareCooling = 24 * time.Hour

// RealityChoices are the reality-check intervals a player may choose, in
// minutes (0: none).
var RealityChoices = []int{0, 15, 30, 45, 60, 90, 120}

// The exclusions a player may choose, in days.
var exclusionDays = map[string][]int{"time-out": {1, 7, 30}, "self-exclusion": {180, 365, 1825}}

func (s *Server) care() sabot.Care {
	c, _ := s.Store.(sabot.Care)
	return c
}

// careFor is the care a player sets himself here. An operator's player
// (issue 14) sets his limits and exclusions with his operator, whose wallet
// his money is: the endpoints refuse him with the reason (issue 25). An
// exclusion on record for him (set before, or by the pit) still holds at
// his launch and at every stake.
func (s *Server) careFor(u *sabot.User) (sabot.Care, error) {
	c := s.care()
	if c == nil {
		return nil, sabot.Errorf(sabot.ENOTFOUND, "this server's wallets are the operator's: its responsible-gaming tools are too")
	}
	if u.OperatorID != "" {
		return nil, sabot.Errorf(sabot.EFORBIDDEN, "refused: your account and its money are your operator's: set your limits, time-outs and exclusions on its site").
			WithReason("operator_care", nil)
	}
	return c, nil
}

func (s *Server) careCooling() time.Duration {
	if s.CareCooling > 0 {
		return s.CareCooling
	}
	return DefaultCareCooling
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

// stakeGuard is the check of a player's stake made in the transaction that
// records it (issue 25; sabot.StakeGuard): the session it came from still
// stands, no exclusion is in force, and no stake or loss limit of his would
// be passed. The store runs it after the stake's postings, which hold the
// player's wallet: his stakes at every table, on every node, are checked
// one after the other, each against the usage the others left. nil where
// the store keeps no care, or nothing is staked.
func (s *Server) stakeGuard(c *command, userID int64, stake money.Amount) *sabot.StakeGuard {
	if s.care() == nil || stake <= 0 || userID == 0 {
		return nil
	}
	now := s.now()
	return &sabot.StakeGuard{UserID: userID, Session: c.session, Check: func(e sabot.Eligibility) error {
		if !e.SessionLive {
			return errStakeSession
		}
		if err := exclusionRefusal(&e.Care, now); err != nil {
			return err
		}
		// The usage read includes this stake: staked by it, lost by it.
		return careLimits(e.Limits, now, e.Usage, stake, stake, "stake", "loss")
	}}
}

// errStakeSession refuses a stake from a session that is over (logged out,
// idle too long, ended on any node).
var errStakeSession = sabot.Errorf(sabot.EUNAUTHORIZED, "log in again: the session is over (logged out, idle too long or ended elsewhere); the stake is refused").
	WithReason("session_over", nil)

// careDeposit refuses a credit past a deposit limit.
func (s *Server) careDeposit(ctx context.Context, userID int64, amount money.Amount) error {
	c := s.care()
	if c == nil || amount <= 0 {
		return nil
	}
	ls, err := c.Limits(ctx, userID)
	if err != nil || len(ls) == 0 {
		return err
	}
	return careLimits(ls, s.now(), func(since time.Time) (sabot.Usage, error) { return c.Usage(ctx, userID, since) }, amount, 0, "deposit")
}

// depositGuard checks a credit against the player's deposit limits in the
// transaction that records it (issue 25, item 5: two credits at once each
// read the usage before the other; the credit's postings hold his wallet,
// so his credits are checked one after the other). nil where the store
// keeps no care.
func (s *Server) depositGuard(userID int64, amount money.Amount) *sabot.StakeGuard {
	if s.care() == nil || amount <= 0 {
		return nil
	}
	now := s.now()
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

// excluded refuses a player under a time-out or a self-exclusion.
func (s *Server) excluded(ctx context.Context, userID int64) error {
	c := s.care()
	if c == nil {
		return nil
	}
	pc, err := c.CareOf(ctx, userID)
	if err != nil {
		return err
	}
	return exclusionRefusal(pc, s.now())
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

// CareView is a player's responsible-gaming settings and this session's
// account (GET /api/me/care).
type CareView struct {
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
	// split that a limit would refuse (issue 28).
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

func (s *Server) careView(ctx context.Context, u *sabot.User, session *sabot.Session) (*CareView, error) {
	c, err := s.careFor(u)
	if err != nil {
		return nil, err
	}
	now := s.now()
	v := &CareView{Limits: []LimitView{}, RealityChoices: RealityChoices, CoolingHours: s.careCooling().Hours(), Exclusions: exclusionDays}
	ls, err := c.Limits(ctx, u.ID)
	if err != nil {
		return nil, err
	}
	for _, raw := range ls {
		l := effective(raw, now)
		if l == nil {
			continue
		}
		us, err := c.Usage(ctx, u.ID, now.Add(-carePeriods[l.Period]))
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
	pc, err := c.CareOf(ctx, u.ID)
	if err != nil {
		return nil, err
	}
	v.RealityMinutes = pc.RealityMinutes
	if session != nil {
		v.SessionStarted = session.Created
		us, err := c.Usage(ctx, u.ID, session.Created)
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
func (s *Server) setLimit(ctx context.Context, u *sabot.User, req LimitRequest) error {
	c, err := s.careFor(u)
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
	ls, err := c.Limits(ctx, u.ID)
	if err != nil {
		return err
	}
	now := s.now()
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
		return c.PutLimit(ctx, u.ID, sabot.Limit{Kind: req.Kind, Period: req.Period, Amount: *req.Amount, Pending: sabot.NoPending, SetAt: now})
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
		next.Pending, next.PendingFrom = want, now.Add(s.careCooling())
	}
	return c.PutLimit(ctx, u.ID, next)
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
func (s *Server) exclude(ctx context.Context, u *sabot.User, req ExclusionRequest) (*sabot.PlayerCare, error) {
	c, err := s.careFor(u)
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
	pc, err := c.CareOf(ctx, u.ID)
	if err != nil {
		return nil, err
	}
	now := s.now()
	until := now.AddDate(0, 0, req.Days)
	if pc.Exclusion != "" && until.Before(pc.ExcludedUntil) {
		return nil, sabot.Errorf(sabot.ECONFLICT, "refused: a %s is in force until %s; an exclusion is never shortened", pc.Exclusion, pc.ExcludedUntil.UTC().Format(time.RFC3339))
	}
	pc.Exclusion, pc.ExcludedFrom, pc.ExcludedUntil = req.Kind, now, until
	if err := c.PutCare(ctx, u.ID, *pc); err != nil {
		return nil, err
	}
	s.event(ctx, nil, adminPayload{Event: req.Kind, User: u.Name, Days: req.Days, Until: until.UTC().Format(time.RFC3339), Text: fmt.Sprintf("%s chose a %s of %d days, until %s", u.Name, req.Kind, req.Days, until.UTC().Format(time.RFC3339))}, nil, "")
	if _, err := c.EndSessions(ctx, u.ID); err != nil {
		return nil, err
	}
	// His sockets closed and his places at the tables given up, on every
	// node (revoke.go); his stakes are refused from the commit above.
	s.revoke(ctx, sabot.Revocation{UserID: u.ID, Player: true}, nil)
	return pc, nil
}

// commandNamed is the table command of a name.
func commandNamed(op string) *tableCommand {
	for _, c := range tableCommands {
		if c.name == op {
			return c
		}
	}
	panic("no table command " + op)
}

// The endpoints, under /api/me/care.

func (s *Server) handleCare(w http.ResponseWriter, r *http.Request, u *sabot.User) {
	_, token, _ := s.authenticate(r, false)
	var session *sabot.Session
	if token != "" {
		session, _ = s.Store.SessionByToken(r.Context(), token)
	}
	v, err := s.careView(r.Context(), u, session)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, v)
}

func (s *Server) handleCareLimit(w http.ResponseWriter, r *http.Request, u *sabot.User) {
	var req LimitRequest
	if err := decode(r, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	if err := s.setLimit(r.Context(), u, req); err != nil {
		s.writeError(w, r, err)
		return
	}
	s.handleCare(w, r, u)
}

func (s *Server) handleCareReality(w http.ResponseWriter, r *http.Request, u *sabot.User) {
	var req struct {
		Minutes int `json:"minutes"`
	}
	if err := decode(r, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	c, err := s.careFor(u)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if !slices.Contains(RealityChoices, req.Minutes) {
		s.writeError(w, r, sabot.Errorf(sabot.EINVALID, "a reality check comes every %v minutes (0: none), not %d", RealityChoices, req.Minutes))
		return
	}
	pc, err := c.CareOf(r.Context(), u.ID)
	if err == nil {
		pc.RealityMinutes = req.Minutes
		err = c.PutCare(r.Context(), u.ID, *pc)
	}
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.handleCare(w, r, u)
}

func (s *Server) handleCareExclusion(w http.ResponseWriter, r *http.Request, u *sabot.User) {
	var req ExclusionRequest
	if err := decode(r, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	pc, err := s.exclude(r.Context(), u, req)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, pc)
}

// Re-registration after an exclusion (issue 25): every registration and
// login of a player records where it came from — his address and his
// browser, which the server names with a cookie of its own — and one from
// where a player under an exclusion was seen is a significant event for the
// pit; a registration there gets no welcome credit.

// deviceCookie names a browser: a random ID the server gives it at its
// first registration or login.
const deviceCookie = "sabot_device"

// browser is the browser's ID, given now if it has none.
func (s *Server) browser(w http.ResponseWriter, r *http.Request) string {
	if c, err := r.Cookie(deviceCookie); err == nil && len(c.Value) == 32 && strings.Trim(c.Value, "0123456789abcdef") == "" {
		return c.Value
	}
	id := randomID(16)
	http.SetCookie(w, &http.Cookie{Name: deviceCookie, Value: id, Path: "/", MaxAge: 5 * 365 * 24 * 3600, HttpOnly: true,
		Secure: r.TLS != nil, SameSite: http.SameSiteLaxMode})
	return id
}

// sighted records where a player registers or logs in from ("registered",
// "logged in") and tells the pit of every player under an exclusion seen
// there before; it says whether there was one.
func (s *Server) sighted(ctx context.Context, w http.ResponseWriter, r *http.Request, u *sabot.User, what string) bool {
	c := s.care()
	if c == nil || u.Admin || u.Role != "" || u.OperatorID != "" {
		return false
	}
	marks := []string{"address:" + clientKey(s.clientAddr(r)), "device:" + s.browser(w, r)}
	xs, err := c.Seen(ctx, u.ID, marks, s.now())
	if err != nil {
		s.logger().Warn("where a player came from was not recorded", "user", u.Name, "err", err)
		return false
	}
	var names []string
	kinds := map[string][]string{}
	for _, x := range xs {
		if kinds[x.Name] == nil {
			names = append(names, x.Name)
		}
		kinds[x.Name] = append(kinds[x.Name], x.Mark)
	}
	for _, name := range names {
		i := slices.IndexFunc(xs, func(x sabot.Sighting) bool { return x.Name == name })
		until, under := "", "blocked by the pit"
		if !xs[i].Until.IsZero() {
			until = xs[i].Until.UTC().Format(time.RFC3339)
			under = fmt.Sprintf("under a %s until %s", xs[i].Exclusion, until)
		}
		text := fmt.Sprintf("%s %s from the %s of %s, %s", u.Name, what, strings.Join(kinds[name], " and "), name, under)
		if what == "registered" {
			text += ": no welcome credit"
		}
		s.event(ctx, nil, adminPayload{Event: "excluded-seen", User: u.Name, Name: name, Until: until, Text: text}, nil, "")
	}
	return len(names) > 0
}
