package client

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"slices"
	"sync"
	"time"

	"sabot"
	"sabot/card"
	"sabot/internal/wire"
	"sabot/money"
	"sabot/rules"
)

// Bot is a player that plays over the real protocol: it sits at a box,
// bets each round and decides by a basic strategy, over its table's
// WebSocket. It reconnects and resyncs when the connection drops (a server
// restart), and records the time from each decision it sends to the event
// that shows it applied.
type Bot struct {
	Client *Client
	Name   string
	Table  int64
	Box    int
	Stake  money.Amount
	Rounds int           // rounds to play (0: until ctx is done)
	Think  time.Duration // pause before each decision
	// Jitter spreads the pause: each is drawn uniformly between
	// Think×(1−Jitter) and Think×(1+Jitter) (0: exactly Think).
	Jitter float64
	// Latency, if set, receives each decision-to-event time.
	Latency func(time.Duration)
	// Crowd, if set, is shared by the bots of a table: each keeps playing
	// until all have played their rounds, so that nobody is left alone at a
	// table that needs several bettors (AR-03, VE-20).
	Crowd *Crowd

	// Count, if set, makes the bot a card counter: it counts the cards it
	// sees and bets Stake × Ramp(true count) (docs/pit.md), and
	// plays Count.Deviate's index plays where it gives one.
	Count *BotCount
	// Behind makes the bot a back bettor (ES-03, VE-03): it does not sit;
	// it bets Stake on Box, another player's, while that box has a holder,
	// and with a Count only at a true count at or above Count.BackAt. Each
	// round it sees settled counts as one of its Rounds.
	Behind bool

	launch string // the operator's token it launches with (BotsConfig.Launch)

	joined   bool // it has joined its Crowd
	mu       sync.Mutex
	counted  bool
	played   int
	errors   int
	races    int
	lastErrs []string
}

// BotCount is a counting bot's count: a balanced system's tags by card
// value (Tags[1] the Ace, Tags[10] the ten-values), the shoe's decks, and
// the ramp from the true count to units of Stake.
type BotCount struct {
	Tags  [11]int
	Decks int
	Ramp  func(trueCount float64) int64 // nil: 1 unit
	// Deviate, if set, gives the decision the count calls for at a hand
	// against the up card (an index play), given the decisions open; false
	// to play the basic strategy (Strategy).
	Deviate func(trueCount float64, hand []card.Card, up card.Card, legal func(kind string) bool) (string, bool)
	// BackAt is the true count at and above which a back bettor (Bot.Behind)
	// bets.
	BackAt float64
	// Burns are the cards burned at the start of a shoe (EG-03): out of
	// the shoe, never seen.
	Burns int

	running, out, inRound int  // the running count; cards out at the deal; cards dealt since
	cut                   bool // the cut card came out: a new shoe after this round
	// lost: cards came out of the shoe that the bot never saw (it
	// resubscribed by a snapshot mid-shoe): it has no count until the next
	// shoe, and meanwhile bets one unit and plays the basic strategy.
	lost bool
}

// resync counts what a snapshot shows of its shoe: the cards out of it
// (burns included), and the cards of the round in view. Where those are
// every card dealt since the shuffle (nothing dealt yet, or the shoe's
// first round in view) the count is exact; else cards came out that the
// bot never saw, and its count is lost until the next shoe.
func (c *BotCount) resync(v *wire.TableView) {
	c.running, c.out, c.inRound, c.cut, c.lost = 0, 0, 0, false, false
	out := v.Shoe.Read
	if !v.Shoe.Physical {
		out = c.Decks*52 - v.Shoe.Remaining
	}
	var shown []string
	if r := v.Round; r != nil {
		shown = append(shown, r.Dealer.Cards...)
		for _, h := range r.Hands {
			shown = append(shown, h.Cards...)
		}
	}
	switch {
	case out <= c.Burns:
		c.out = out
	case v.Round != nil && out == c.Burns+len(shown):
		c.out, c.inRound = c.Burns, len(shown)
		for _, s := range shown {
			if x, err := card.Parse(s); err == nil { // "??": face down, counted when revealed
				c.running += c.Tags[x.Value()]
			}
		}
	default:
		c.lost = true
	}
}

// see counts an event's card: a new shoe starts the count again (the
// round in which the cut card came out is the shoe's last: the bot bets
// on the next one at a count of 0, as a counter who saw the cut card), a
// deal says how many cards are out (burns included), each card turned
// face up counts (a face-down one when it is revealed).
func (c *BotCount) see(e *wire.Event) {
	switch e.Kind {
	case wire.EvCutCard:
		c.cut = true
	case wire.EvSettle, wire.EvShoe:
		if c.cut || e.Kind == wire.EvShoe {
			c.running, c.out, c.inRound, c.cut, c.lost = 0, 0, 0, false, false
		}
	case wire.EvDeal:
		c.out, c.inRound = e.ShoePos, 0
	case wire.EvCard, wire.EvReveal:
		if e.Kind == wire.EvCard {
			c.inRound++
		}
		if x, err := card.Parse(e.Card); err == nil {
			c.running += c.Tags[x.Value()]
		}
	}
}

// trueCount is the running count over the decks left: the cards out at
// the deal and those dealt since, face down too; 0 while the count is
// lost.
func (c *BotCount) trueCount() float64 {
	if c.lost {
		return 0
	}
	left := max(float64(c.Decks*52-c.out-c.inRound)/52, 0.5)
	return float64(c.running) / left
}

// units is the bet in units at the true count now.
func (c *BotCount) units() int64 {
	if c.Ramp == nil || c.lost {
		return 1
	}
	return c.Ramp(c.trueCount())
}

// deviate is the index play the count calls for in a turn, if any.
func (c *BotCount) deviate(t *wire.TurnView, player string) (wire.Action, bool) {
	if c == nil || c.Deviate == nil || c.lost || t.Phase != "playing" || len(t.Dealer) == 0 {
		return wire.Action{}, false
	}
	up, err := card.Parse(t.Dealer[0])
	if err != nil {
		return wire.Action{}, false
	}
	var hand []card.Card
	for _, s := range t.Cards {
		x, err := card.Parse(s)
		if err != nil {
			return wire.Action{}, false
		}
		hand = append(hand, x)
	}
	find := func(kind string) (wire.Action, bool) {
		for _, a := range t.Legal {
			if a.Player == player && a.Kind == kind && a.Box == t.Box && a.Hand == t.Hand {
				return a, true
			}
		}
		return wire.Action{}, false
	}
	kind, ok := c.Deviate(c.trueCount(), hand, up, func(k string) bool { _, ok := find(k); return ok })
	if !ok {
		return wire.Action{}, false
	}
	return find(kind)
}

// Crowd counts the bots of a table that have yet to play their rounds.
type Crowd struct {
	mu        sync.Mutex
	remaining int
	joined    int           // the bots that have had their table's first snapshot
	all       chan struct{} // closed when every bot has
}

// join waits, once a bot has its first snapshot of the table, until every
// bot of the crowd has had its own: the bots sit down together. Else one
// late to subscribe finds the shoe begun (a table whose seated players
// all said "deal" deals at once), and a counter has no count of it.
func (c *Crowd) join(ctx context.Context) {
	if c == nil {
		return
	}
	c.mu.Lock()
	if c.all == nil {
		c.all = make(chan struct{})
	}
	all := c.all
	if c.joined++; c.joined == c.remaining {
		close(all)
	}
	c.mu.Unlock()
	select {
	case <-all:
	case <-ctx.Done():
	}
}

// NewCrowd returns a crowd of n bots.
func NewCrowd(n int) *Crowd { return &Crowd{remaining: n} }

func (c *Crowd) done() bool {
	if c == nil {
		return true
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.remaining <= 0
}

// finished says whether the bot may stop: its rounds played, and its
// crowd's.
func (b *Bot) finished() bool {
	if b.Rounds == 0 {
		return false
	}
	b.mu.Lock()
	reached := b.played >= b.Rounds
	if reached && !b.counted && b.Crowd != nil {
		b.counted = true
		b.Crowd.mu.Lock()
		b.Crowd.remaining--
		b.Crowd.mu.Unlock()
	}
	b.mu.Unlock()
	return reached && b.Crowd.done()
}

// BotStats is how a bot's session went.
type BotStats struct {
	Rounds int
	Errors int
	// Races are decisions refused because the table went on while they
	// were on their way (a window closed by its timer, a turn that moved
	// on): a normal race of a live table, not an error.
	Races     int
	LastError string
}

// Stats returns the bot's counts so far.
func (b *Bot) Stats() BotStats {
	b.mu.Lock()
	defer b.mu.Unlock()
	s := BotStats{Rounds: b.played, Errors: b.errors, Races: b.races}
	if len(b.lastErrs) > 0 {
		s.LastError = b.lastErrs[len(b.lastErrs)-1]
	}
	return s
}

// race counts a decision that lost a race with the table (BotStats.Races).
func (b *Bot) race() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.races++
}

func (b *Bot) fail(msg string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.errors++
	b.lastErrs = append(b.lastErrs, msg)
	if len(b.lastErrs) > 8 {
		b.lastErrs = b.lastErrs[1:]
	}
}

// Run plays until the bot's rounds are played or ctx is done, then stands
// up. Connection failures are retried; only ctx ends it early.
func (b *Bot) Run(ctx context.Context) error {
	epoch, since := "", int64(0)
	var st botState // across connections: a reconnection that resumes the events (no snapshot) goes on from it
	for {
		err := b.session(ctx, &st, &epoch, &since)
		if err == nil || ctx.Err() != nil {
			break
		}
		select {
		case <-ctx.Done():
		case <-time.After(100 * time.Millisecond):
		}
	}
	// Stand up (best effort), so the seat is free again.
	lctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	b.Client.Command(lctx, b.Table, wire.OpLeave, wire.CommandRequest{})
	return ctx.Err()
}

type botState struct {
	seated   bool
	holder   string // who holds the bot's box (a back bettor's: Bot.Behind)
	pending  bool   // a bet is down for the next round
	inRound  bool
	betRound bool // the bot has a stake in the round in play
	bank     bool // the bot holds a family table's bank (FAM-02): it plays the dealer's hand, it does not bet
	turn     *wire.TurnView
	waiting  string // the command ID awaiting its answer
	withdraw string // the command ID of a last withdrawal
	betID    string // the command ID of the last bet
	// keep: the table keeps its betting window until every seated player
	// says "deal" (wire.TableView.KeepBetWindow); said: the bot has, in
	// this window; dealID: that command's ID (its refusal, AR-03 or
	// VE-20 unmet, leaves the window to its timer).
	keep, said bool
	dealID     string
	// dealtSinceBet: a round was dealt after the last bet was sent;
	// releasedSinceBet: the bot's box was given up after it (AR-21: the
	// betting window closed before the bet arrived).
	dealtSinceBet    bool
	releasedSinceBet bool
	sentAction       string    // the action kind sent, to time its event
	sentAt           time.Time // when it was sent
	// unanswered is the last command sent and not yet answered: a socket
	// that closes takes its answer with it, and perhaps the command (a
	// node stopped, drained, cut off), so the next connection sends it
	// again, under the same command ID (applied once: a duplicate is
	// answered as such). resent is its ID once sent again: a refusal of
	// it as out of turn only says the table went on without it.
	unanswered *wire.CommandRequest
	resent     string
	resends    int // the times unanswered was sent again after an unavailable or internal answer
	// seq is the last event seen; decision and decisionSeq the command ID
	// of the last decision sent and the event it was sent after: refused
	// as a conflict after a later event, it lost a race with the table.
	seq          int64
	decision     string
	decisionSeq  int64
	decisionTurn *wire.TurnView // the turn the decision answered
}

// sent is what a snapshot does not tell: the commands on their way.
func (st *botState) sent() botState {
	return botState{waiting: st.waiting, withdraw: st.withdraw, betID: st.betID, dealID: st.dealID, dealtSinceBet: st.dealtSinceBet,
		releasedSinceBet: st.releasedSinceBet, sentAction: st.sentAction, sentAt: st.sentAt, unanswered: st.unanswered, resent: st.resent, resends: st.resends,
		seq: st.seq, decision: st.decision, decisionSeq: st.decisionSeq}
}

// session is one connection: it returns nil when the bot has played its
// rounds, an error when the connection failed.
func (b *Bot) session(ctx context.Context, st *botState, epoch *string, since *int64) error {
	f, err := b.Client.Subscribe(ctx, b.Table, *epoch, *since)
	if err != nil {
		return err
	}
	defer f.Close()
	// A command sent on the last connection and not answered there is
	// sent again (its answer comes after the snapshot or the events
	// missed, which show whether it was applied).
	st.waiting = ""
	if u := st.unanswered; u != nil {
		if _, err := f.Send(ctx, *u); err != nil {
			return err
		}
		st.waiting, st.resent = u.CommandID, u.CommandID
	}
	for {
		if b.finished() && !st.inRound && st.waiting == "" {
			if !st.pending {
				return nil
			}
			// A bet down for a round it will not play: take it back first.
			req := wire.CommandRequest{Op: wire.OpWithdraw, Box: b.Box, CommandID: b.Client.NextCommandID()}
			st.unanswered = &req
			id, err := f.Send(ctx, req)
			if err != nil {
				return err
			}
			st.waiting, st.pending, st.withdraw = id, false, id
		}
		m, err := f.Next(ctx)
		if err != nil {
			return err
		}
		switch m.Type {
		case wire.MsgSnapshot:
			if m.Table == nil {
				continue
			}
			if m.Epoch != "" {
				*epoch, *since = m.Epoch, m.Seq
			}
			b.fromSnapshot(st, m.Table)
			st.seq = max(st.seq, m.Seq)
			if !b.joined {
				b.joined = true
				b.Crowd.join(ctx)
			}
		case wire.MsgEvent:
			if m.Seq != *since+1 && *since != 0 {
				return fmt.Errorf("missed events %d to %d: resync", *since+1, m.Seq-1)
			}
			*since, st.seq = m.Seq, m.Seq
			b.onEvent(st, m.Event)
		case wire.MsgResult, wire.MsgError:
			if m.Type == wire.MsgError && st.unanswered != nil && m.CommandID == st.unanswered.CommandID &&
				(m.Code == sabot.EUNAVAILABLE || m.Code == sabot.EINTERNAL) && st.resends < DefaultResends {
				// The server or its database failed the command (perhaps
				// after applying it): ask for the table again (a new
				// connection's snapshot) and send it again under its
				// command ID, applied once.
				st.resends++
				return fmt.Errorf("%s: %s: sending it again", m.Code, m.Error)
			}
			if m.CommandID == st.waiting {
				st.waiting = ""
			}
			if st.unanswered != nil && m.CommandID == st.unanswered.CommandID {
				st.unanswered, st.resends = nil, 0
			}
			resent := m.CommandID == st.resent && m.CommandID != ""
			if resent {
				st.resent = ""
			}
			// A decision refused after a later event, or refused as one
			// the table had gone past (RaceReason: its answer may come
			// before the event that moved the table on).
			raced := m.Type == wire.MsgError && m.Code == sabot.ECONFLICT && m.CommandID == st.decision &&
				(st.seq > st.decisionSeq || RaceReason(m.Code, m.Reason))
			if m.CommandID == st.decision {
				st.decision = ""
			}
			if raced {
				// The decision met a table that had gone on (the window
				// closed by its timer, the turn moved) while it was on its
				// way: the state as it stands now decides what next. The
				// turn it answered is past: the bot waits for the next
				// turn the table shows, not the same decision again.
				if st.turn == st.decisionTurn {
					st.turn = nil
				}
				b.race()
			} else if m.Type == wire.MsgError && resent && m.Code == sabot.ECONFLICT {
				// Sent again after a lost connection, too late: the table
				// went on (a timeout applied the default, the round was
				// dealt). The state as it stands now decides what next.
				st.pending = st.pending && m.CommandID != st.betID
			} else if m.Type == wire.MsgError && m.CommandID == st.betID && m.Code == sabot.ECONFLICT && (st.dealtSinceBet || st.releasedSinceBet) {
				// The bet came after "rien ne va plus" (AR-22; the deal's
				// event comes before the answer), or after its box was
				// given up as the window closed (AR-21): the bot sits
				// this round out (sits again) and bets for the next.
				st.pending, st.betRound = false, false
			} else if m.Type == wire.MsgError && m.CommandID == st.dealID && m.CommandID != "" {
				// "deal" refused (the table's conditions unmet, or the
				// round dealt meanwhile): the window's timer deals.
			} else if m.Type == wire.MsgError && m.CommandID != st.withdraw { // a withdrawal too late is no error: the bot plays the round
				b.fail(m.Code + ": " + m.Error)
				if m.Code == sabot.EINSUFFICIENT {
					return errors.New(m.Error)
				}
			}
		}
		if err := b.next(ctx, f, st); err != nil {
			return err
		}
	}
}

func (b *Bot) fromSnapshot(st *botState, v *wire.TableView) {
	*st = st.sent()
	if b.Count != nil {
		b.Count.resync(v)
	}
	st.bank = v.Bank == b.Name
	st.keep = v.KeepBetWindow
	st.said = slices.Contains(v.Ready, b.Name)
	for _, s := range v.Seats {
		st.seated = st.seated || s.Player == b.Name && s.Box == b.Box
		if s.Box == b.Box {
			st.holder = s.Player
		}
	}
	for _, x := range v.Bets {
		st.pending = st.pending || x.Player == b.Name
	}
	if v.Round != nil && v.Round.Phase != "done" && v.Turn != nil {
		st.inRound, st.turn = true, v.Turn
		for _, x := range v.Round.Bets {
			st.betRound = st.betRound || x.Player == b.Name
		}
	}
}

func (b *Bot) onEvent(st *botState, e *wire.Event) {
	if b.Count != nil {
		b.Count.see(e)
	}
	switch e.Kind {
	case wire.EvSit:
		if e.Player == b.Name && e.Box == b.Box {
			st.seated = true
		}
		if e.Box == b.Box {
			st.holder = e.Player
		}
	case wire.EvLeave:
		if e.Player == b.Name {
			st.seated, st.pending = false, false
		}
		if e.Player == st.holder {
			st.holder = ""
		}
	case wire.EvRelease: // AR-21: one box given up, the bet on it returned
		if e.Box == b.Box && e.Player == st.holder {
			st.holder = ""
		}
		if e.Player == b.Name && e.Box == b.Box {
			st.seated = false
			st.pending = st.pending && e.Amount == 0 // a bet on its way is refused: its answer clears it
			st.releasedSinceBet = true
		}
	case wire.EvBet:
		if e.Player == b.Name {
			st.pending = true
		}
	case wire.EvWithdraw:
		if e.Player == b.Name {
			st.pending = false
		}
	case wire.EvDeal:
		st.said = false
		st.inRound, st.betRound, st.turn = true, st.pending, nil
		st.dealtSinceBet = true
		st.pending = false
	case wire.EvTurn:
		st.turn = e.Turn
	case wire.EvAction:
		st.turn = nil
		if e.Action != nil && e.Action.Player == b.Name && st.sentAction == e.Action.Kind && !st.sentAt.IsZero() {
			if b.Latency != nil {
				b.Latency(time.Since(st.sentAt))
			}
			st.sentAt = time.Time{}
		}
	case wire.EvSettle:
		if st.betRound || st.bank || b.Behind {
			b.mu.Lock()
			b.played++
			b.mu.Unlock()
		}
		st.inRound, st.betRound, st.turn = false, false, nil
		if e.NewBank != "" {
			st.bank = e.NewBank == b.Name
		}
	}
}

// pause is the bot's time to think before a decision: Think, spread by
// Jitter.
func (b *Bot) pause() time.Duration {
	j := min(max(b.Jitter, 0), 1)
	return time.Duration(float64(b.Think) * (1 - j + 2*j*rand.Float64()))
}

// next sends the bot's next command, if it has one to send now.
func (b *Bot) next(ctx context.Context, f *Feed, st *botState) error {
	if st.waiting != "" {
		return nil
	}
	send := func(req wire.CommandRequest) error {
		req.CommandID = b.Client.NextCommandID()
		st.unanswered = &req
		id, err := f.Send(ctx, req)
		st.waiting = id
		return err
	}
	switch {
	case !st.seated && !b.Behind:
		return send(wire.CommandRequest{Op: wire.OpSit, Box: b.Box})
	case st.turn != nil && slices.Contains(st.turn.Players, b.Name):
		act, ok := b.Count.deviate(st.turn, b.Name)
		if !ok {
			act = Strategy(st.turn, b.Name)
		}
		if b.Think > 0 {
			time.Sleep(b.pause())
		}
		st.sentAction, st.sentAt = act.Kind, time.Now()
		var err error
		if act.Kind == wire.OpDecline {
			st.sentAction = "" // declines show as their own event
			err = send(wire.CommandRequest{Op: wire.OpDecline, Box: act.Box, Hand: act.Hand})
		} else {
			st.turn = nil
			err = send(wire.CommandRequest{Op: wire.OpAct, Action: act.Kind, Box: act.Box, Hand: act.Hand, Stake: act.Stake, Value: act.Value})
		}
		st.decision, st.decisionSeq, st.decisionTurn = st.waiting, st.seq, st.turn
		return err
	case !st.inRound && !st.pending && !st.bank && !b.finished():
		if b.Behind && (st.holder == "" || st.holder == b.Name || b.Count != nil && b.Count.trueCount() < b.Count.BackAt) {
			return nil // nobody's box to bet behind, or the count is not high enough
		}
		st.pending = true
		stake := b.Stake
		if b.Count != nil {
			stake *= money.Amount(b.Count.units())
		}
		err := send(wire.CommandRequest{Op: wire.OpBet, Box: b.Box, Stake: stake})
		st.betID, st.dealtSinceBet, st.releasedSinceBet = st.waiting, false, false
		return err
	case st.keep && !st.inRound && st.pending && st.seated && !st.said && !st.bank && !b.Behind:
		// Its bet is down: the bot says so, and the window ends once every
		// seated player has.
		st.said = true
		err := send(wire.CommandRequest{Op: wire.OpDeal})
		st.dealID = st.waiting
		return err
	}
	return nil
}

// Strategy picks a decision for player from a turn: a simple basic
// strategy on hard totals, soft totals and pairs; every optional window is
// declined; an Ace is declared 11 (AR-11).
func Strategy(t *wire.TurnView, player string) wire.Action {
	var mine []wire.Action
	for _, a := range t.Legal {
		if a.Player == player {
			mine = append(mine, a)
		}
	}
	if len(mine) == 0 {
		return wire.Action{Kind: wire.OpDecline}
	}
	legal := func(kind string) (wire.Action, bool) {
		for _, a := range mine {
			if a.Kind == kind && (kind != "declare" || a.Value == 11) {
				return a, true
			}
		}
		return wire.Action{}, false
	}
	if t.Phase != "playing" {
		return wire.Action{Kind: wire.OpDecline, Player: player, Box: mine[0].Box, Hand: mine[0].Hand}
	}
	if a, ok := legal("declare"); ok {
		return a
	}
	var cs []card.Card
	for _, s := range t.Cards {
		if c, err := card.Parse(s); err == nil {
			cs = append(cs, c)
		}
	}
	up := 10
	if len(t.Dealer) > 0 {
		if c, err := card.Parse(t.Dealer[0]); err == nil {
			up = c.Value()
			if c.IsAce() {
				up = 11
			}
		}
	}
	want := "stand"
	count := rules.CountOf(cs...)
	total, soft := count.Total(), count.Soft()
	switch {
	case len(cs) == 2 && cs[0].Value() == cs[1].Value() && pairSplits(cs[0].Value(), up):
		want = "split"
	case soft:
		switch {
		case total >= 19 || total == 18 && up <= 8:
			want = "stand"
		case total >= 15 && up >= 4 && up <= 6 || total == 18 && up >= 3 && up <= 6:
			want = "double"
		default:
			want = "hit"
		}
	case total >= 17:
		want = "stand"
	case total >= 13:
		want = map[bool]string{true: "stand", false: "hit"}[up <= 6]
	case total == 12:
		want = map[bool]string{true: "stand", false: "hit"}[up >= 4 && up <= 6]
	case total == 11 || total == 10 && up <= 9 || total == 9 && up >= 3 && up <= 6:
		want = "double"
	default:
		want = "hit"
	}
	for _, k := range []string{want, map[string]string{"double": "hit", "split": "hit"}[want], "stand", "hit"} {
		if a, ok := legal(k); ok {
			return a
		}
	}
	return mine[0]
}

func pairSplits(v, up int) bool {
	switch v {
	case 1, 8: // Aces (value 1) and eights
		return true
	case 9:
		return up <= 9 && up != 7
	case 7, 2, 3:
		return up <= 7
	case 6:
		return up <= 6
	case 4:
		return up == 5 || up == 6
	}
	return false
}

// BotsConfig is a crowd of bots: tables made for them, players registered
// and credited, each playing its rounds at its box.
type BotsConfig struct {
	URL                      string // a server's base URL, or several nodes' separated by commas (Client.URL)
	AdminName, AdminPassword string // to create tables and credit the players
	Tables, Players, Rounds  int    // players per table, rounds per player
	Profile                  string
	Options                  map[string]string
	Stake, Credit            money.Amount
	Think                    time.Duration
	ThinkJitter              float64 // Bot.Jitter
	Prefix                   string  // of the players' names (default: random)
	// Count, if set, makes each bot a card counter with a copy of it
	// (Bot.Count): its Decks are filled from the table's rules.
	Count *BotCount
	// Backers, if set, adds back bettors at each table (Bot.Behind), the
	// k-th behind box k of the players' (cycling): then Count is theirs,
	// and the players bet flat. The profile must take back bets (ES-03,
	// VE-03; AR-05).
	Backers int
	// Launch, if set, gives the operator's token of each player (table i,
	// box j, from 1): the bots come from the operator's site
	// and play on its wallet, with no registration or credit.
	Launch func(table, box int) string
	// Playing, if set, is called once every bot is registered, credited
	// and about to play: where a measure of the play alone begins.
	Playing func()
}

// BotsReport is what a crowd of bots measured.
type BotsReport struct {
	Tables, Players int
	Rounds          int // rounds played, summed over players
	Decisions       int
	Errors          int
	Races           int           // decisions that met a table gone on (BotStats.Races): no error
	Elapsed         time.Duration // from the first bet to the last bot done
	P50, P99, Max   time.Duration // decision to the event that shows it
	LastErrors      []string
}

// DecisionsPerSecond is the decision rate over the run.
func (r *BotsReport) DecisionsPerSecond() float64 {
	if r.Elapsed <= 0 {
		return 0
	}
	return float64(r.Decisions) / r.Elapsed.Seconds()
}

// RunBots sets up the tables and players and plays until every bot has
// played its rounds or ctx is done.
// setupFor bounds the tries of one step of the bots' setup (a login, a
// table, a player) while their server does not answer: a restart.
const setupFor = time.Minute

// setup runs a step of the bots' setup, again while it fails as a server
// that is down or restarting fails (Resend), for up to setupFor.
func setup(ctx context.Context, step func() error) error {
	deadline := time.Now().Add(setupFor)
	wait := 100 * time.Millisecond
	for {
		err := step()
		if err == nil || !Resend(err) || time.Now().After(deadline) {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(max(wait, RetryAfterOf(err))):
		}
		wait = min(2*wait, 2*time.Second)
	}
}

// RetryAfterOf is the wait an error's server asked for (0: none).
func RetryAfterOf(err error) time.Duration { return min(sabot.RetryAfter(err), 5*time.Second) }

func RunBots(ctx context.Context, cfg BotsConfig) (*BotsReport, error) {
	hc := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 256, MaxIdleConns: 1024}}
	admin := &Client{URL: cfg.URL, HTTP: hc}
	if err := setup(ctx, func() error { _, err := admin.Login(ctx, cfg.AdminName, cfg.AdminPassword); return err }); err != nil {
		return nil, fmt.Errorf("admin login: %w", err)
	}
	if cfg.Prefix == "" {
		cfg.Prefix = "bot-" + randomID(3)
	}
	if cfg.Profile == "" {
		cfg.Profile = "venice"
	}
	if cfg.Stake == 0 {
		cfg.Stake = 100
	}
	if cfg.Credit == 0 {
		cfg.Credit = cfg.Stake * money.Amount(cfg.Rounds+10) * 8
	}
	prof, err := sabot.ProfileOf(cfg.Profile, cfg.Options)
	if err != nil {
		return nil, err
	}
	if cfg.Backers > 0 && prof.BackBetsPerBox == 0 {
		return nil, fmt.Errorf("back bettors: the profile %s takes no back bets (AR-05)", cfg.Profile)
	}
	withCount := func(b *Bot) {
		c := *cfg.Count
		c.Decks, c.Burns = prof.Decks, prof.BurnCards
		b.Count = &c
	}
	var bots []*Bot
	for i := 0; i < cfg.Tables; i++ {
		crowd := NewCrowd(0)
		var v *wire.TableView
		err := setup(ctx, func() (err error) {
			v, err = admin.CreateTable(ctx, wire.TableRequest{Name: fmt.Sprintf("%s-%d", cfg.Prefix, i+1), Profile: cfg.Profile, Options: botOptions(cfg.Options)})
			return err
		})
		if err != nil {
			return nil, fmt.Errorf("create table: %w", err)
		}
		for j := 0; j < cfg.Players && j < v.Rules.Boxes; j++ {
			name := fmt.Sprintf("%s-%d-%d", cfg.Prefix, i+1, j+1)
			// Spread over the nodes where there are several.
			b := &Bot{Client: &Client{URL: Rotate(cfg.URL, len(bots)), HTTP: hc}, Name: name, Table: v.ID, Box: j + 1,
				Stake: cfg.Stake, Rounds: cfg.Rounds, Think: cfg.Think, Jitter: cfg.ThinkJitter, Crowd: crowd}
			if cfg.Launch != nil {
				b.launch = cfg.Launch(i+1, j+1)
			}
			if cfg.Count != nil && cfg.Backers == 0 {
				withCount(b)
			}
			bots = append(bots, b)
			crowd.remaining++
		}
		holders := min(cfg.Players, v.Rules.Boxes)
		for k := 0; k < cfg.Backers && holders > 0; k++ {
			b := &Bot{Client: &Client{URL: Rotate(cfg.URL, len(bots)), HTTP: hc}, Name: fmt.Sprintf("%s-%d-b%d", cfg.Prefix, i+1, k+1),
				Table: v.ID, Box: k%holders + 1, Behind: true, Stake: cfg.Stake, Rounds: cfg.Rounds, Think: cfg.Think, Jitter: cfg.ThinkJitter, Crowd: crowd}
			if cfg.Count != nil {
				withCount(b)
			}
			bots = append(bots, b)
			crowd.remaining++
		}
	}
	// Register, credit and log in, a few at a time (bcrypt is slow on purpose).
	sem := make(chan struct{}, 8)
	errs := make(chan error, len(bots))
	var wg sync.WaitGroup
	for _, b := range bots {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			if b.launch != "" {
				res, err := b.Client.Launch(ctx, b.launch)
				for try := 1; try < 5 && sabot.ErrorCode(err) == sabot.EUNAVAILABLE; try++ {
					res, err = b.Client.Launch(ctx, b.launch) // the operator's wallet did not answer in time
				}
				if err != nil {
					errs <- err
					return
				}
				b.Name = res.User.Name
				return
			}
			pw := "bot-password-" + b.Name
			// Registered by the administrator: not throttled as
			// anybody's registrations from one address are.
			reg := &Client{URL: cfg.URL, HTTP: hc, Token: admin.Token}
			tried := false
			if err := setup(ctx, func() error {
				err := reg.Register(ctx, b.Name, pw)
				if tried && sabot.ErrorCode(err) == sabot.ECONFLICT {
					return nil // registered by the try whose answer was lost
				}
				tried = true
				return err
			}); err != nil {
				errs <- err
				return
			}
			// A credit whose answer was lost may be sent twice: the bot
			// then has more play money (the ledger balances all the same).
			if err := setup(ctx, func() error { return admin.Credit(ctx, b.Name, cfg.Credit) }); err != nil {
				errs <- err
				return
			}
			if err := setup(ctx, func() error { _, err := b.Client.Login(ctx, b.Name, pw); return err }); err != nil {
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	if err := <-errs; err != nil {
		return nil, fmt.Errorf("players: %w", err)
	}
	var mu sync.Mutex
	var lat []time.Duration
	rep := &BotsReport{Tables: cfg.Tables, Players: len(bots)}
	if cfg.Playing != nil {
		cfg.Playing()
	}
	start := time.Now()
	for _, b := range bots {
		b.Latency = func(d time.Duration) {
			mu.Lock()
			lat = append(lat, d)
			mu.Unlock()
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			b.Run(ctx)
		}()
	}
	wg.Wait()
	rep.Elapsed = time.Since(start)
	for _, b := range bots {
		s := b.Stats()
		rep.Rounds += s.Rounds
		rep.Errors += s.Errors
		rep.Races += s.Races
		if s.LastError != "" && len(rep.LastErrors) < 10 {
			rep.LastErrors = append(rep.LastErrors, b.Name+": "+s.LastError)
		}
	}
	slices.Sort(lat)
	rep.Decisions = len(lat)
	if n := len(lat); n > 0 {
		rep.P50, rep.P99, rep.Max = lat[n/2], lat[min(n-1, n*99/100)], lat[n-1]
	}
	return rep, ctx.Err()
}

// botOptions are the options of the bots' tables: cfg's, and player_cut
// off unless they set it. The bots' tables have no inspector to authorise
// a new shoe's shuffle (AR-07, EG-02), which they would wait for.
func botOptions(opts map[string]string) map[string]string {
	if _, ok := opts["player_cut"]; ok {
		return opts
	}
	out := map[string]string{"player_cut": "false"}
	for k, v := range opts {
		out[k] = v
	}
	return out
}
