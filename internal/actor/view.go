package actor

import (
	"encoding/json"
	"sort"

	"sabot/card"
	"sabot/engine"
	"sabot/internal/recall"
	"sabot/internal/wire"
	"sabot/rules"
	"sabot/table"
)

// What clients see. A card dealt face down (the hole card, an AR-17 double
// card) is "??" until it is turned, and no total counts it; the shoe's seed
// and its undealt cards never leave the server before the shoe is over.

// OnTimeout is what the server decides for a player whose timer runs out.
const OnTimeout = "betting window: the round is dealt; optional window (challenge, insurance, even money, back bettors' answer, VE-13 choice): closed; a hand: stands, or declares its Ace 11 where one must be declared (AR-11), or draws where it may not stand (VE-06), until the next hand's turn"

func cardText(c card.Card) string { return c.String() }

// handView shows a hand's cards, a face-down one as Hidden, and the total
// of the cards shown.
func handView(h *engine.Hand) wire.HandView {
	v := wire.HandView{Cards: []string{}}
	fd := h.FaceDown()
	var shown []card.Card
	for i, c := range h.Cards() {
		if i == fd {
			v.Cards = append(v.Cards, wire.Hidden)
			continue
		}
		v.Cards = append(v.Cards, cardText(c))
		shown = append(shown, c)
	}
	if len(shown) > 0 {
		if fd < 0 {
			v.Total = h.Total() // declarations (AR-11, VE-13) count
		} else {
			v.Total = rules.CountOf(shown...).Total()
		}
	}
	if r := h.Result(); r != rules.Pending {
		v.Result = r.String()
	}
	return v
}

func (a *Table) view() *wire.TableView {
	v := &wire.TableView{ID: a.cfg.ID, Name: a.cfg.Name, Profile: a.cfg.Profile, Options: a.cfg.Options, TestMode: a.cfg.TestMode,
		Closed: a.closed, Seats: []wire.SeatView{}, Bets: []wire.BetView{}}
	if a.closed == "" && a.shut != nil { // 003 §11
		v.Closed, v.InvitedTo, v.PitClosed = a.shut.text(), a.shut.to, true
	}
	if a.t == nil {
		return v
	}
	tm := a.s.timing()
	v.Rules = wire.RulesView{Boxes: a.p.Boxes, BackBetsPerBox: a.p.BackBetsPerBox, MinBet: a.p.MinBet, MaxBet: a.p.MaxBet,
		MinBetsToStart: a.p.MinBetsToStart, LoneCustomerBoxes: a.p.LoneCustomerBoxes, DoubleForLess: a.p.DoubleForLess,
		BankRotates: a.p.BankRotates, BankRounds: a.p.BankRounds,
		BetWindowMS: tm.BetWindow.Milliseconds(), DecisionMS: tm.Decision.Milliseconds(), WindowMS: tm.Window.Milliseconds(), OnTimeout: OnTimeout, SeatIdleMS: tm.SeatIdle.Milliseconds()}
	for _, d := range a.p.Departures() {
		v.Rules.Departs = append(v.Rules.Departs, d.String())
	}
	for box := 1; box <= a.p.Boxes; box++ {
		if h := a.t.Holder(box); h != "" {
			v.Seats = append(v.Seats, wire.SeatView{Box: box, Player: h})
		}
	}
	for _, b := range a.t.Bets() {
		v.Bets = append(v.Bets, wire.BetView{Player: b.Player, Box: b.Box, Stake: b.Stake})
	}
	v.Bank = a.t.Bank()
	v.Shoe = wire.ShoeView{ID: recall.ShoeID(a.cfg.ID, a.t.ShoeNo())}
	if sh := a.t.Shoe(); sh != nil {
		v.Shoe.Remaining = sh.Remaining()
	} else {
		v.Shoe.Physical, v.Shoe.CutCard = true, a.t.CutCardOut()
		v.Shoe.Read = a.shoePos
		if a.dealt {
			v.Shoe.Read = a.roundPos + len(a.t.Cards())
		}
	}
	v.Need = a.needView()
	v.Corrections = a.correctionsView()
	v.Cash = a.cashView()
	if sh := a.shoes[a.t.ShoeNo()]; sh != nil {
		v.Shoe.Commitment = sh.commitment
	}
	v.Shoe.Await, v.Shoe.AuthorisedBy, v.Shoe.CutBy = string(a.t.Awaiting()), a.t.ShuffleAuthorisedBy(), a.t.CutBy()
	if a.t.Awaiting() == table.StepCut { // AR-07, EG-02
		v.Shoe.Cutter, _ = a.cutter()
		v.Shoe.CutMin, v.Shoe.CutMax = a.t.CutRange()
	}
	if a.timer.kind == betTimer {
		v.BettingDeadline = a.timer.due.UnixMilli()
	}
	v.KeepBetWindow = tm.KeepBetWindow && !a.t.Physical()
	for _, p := range a.t.Seated() {
		if a.ready[p] {
			v.Ready = append(v.Ready, p)
		}
	}
	if !a.dealt && len(v.Bets) > 0 {
		if err := a.t.CanDeal(); err != nil {
			v.Waiting = waitingView(err)
		} else if err := a.t.ShoeReady(); err != nil && a.forced == nil {
			v.Waiting = waitingView(err)
		}
	}
	if a.dealt || a.t.RoundNo() > 0 {
		v.Round = a.roundView()
	}
	if a.dealt {
		v.Turn = a.turn()
	}
	return v
}

func (a *Table) roundView() *wire.RoundView {
	r := a.t.Round()
	rv := &wire.RoundView{ID: recall.RoundID(a.cfg.ID, a.t.RoundNo()), No: a.t.RoundNo(), Phase: r.Phase().String(), Test: a.cfg.TestMode,
		Dealer: handView(r.Dealer()), Hands: []wire.HandView{}, Bets: []wire.BetView{}}
	if void, why := r.Void(); void {
		rv.Void = why
	}
	for _, box := range r.Boxes() {
		hs := r.Hands(box)
		for i := range hs {
			hv := handView(&hs[i])
			hv.Box, hv.Hand, hv.Holder = box, i+1, r.Holder(box)
			rv.Hands = append(rv.Hands, hv)
		}
	}
	for _, b := range r.Bets() {
		bv := wire.BetView{Player: b.Player, Box: b.Box, Hand: b.Hand, Kind: b.Kind.String(), Stake: b.Stake}
		if b.Settled() {
			bv.Result, bv.Net = b.Result.String(), b.Net
		}
		rv.Bets = append(rv.Bets, bv)
	}
	return rv
}

// turn says who decides now.
func (a *Table) turn() *wire.TurnView {
	r := a.t.Round()
	if !a.dealt || r.Phase() == engine.Done {
		return nil
	}
	tv := &wire.TurnView{Round: a.t.RoundNo(), Phase: r.Phase().String(), Players: []string{}, Legal: []wire.Action{}}
	if a.timer.kind == decisionTimer {
		tv.Deadline = a.timer.due.UnixMilli()
	}
	tv.Box, tv.Hand = r.Current()
	tv.Dealer = handView(r.Dealer()).Cards
	if hs := r.Hands(tv.Box); tv.Hand > 0 && tv.Hand <= len(hs) {
		tv.Cards = handView(&hs[tv.Hand-1]).Cards
	}
	var buf [64]engine.Action
	seen := map[string]bool{}
	for _, x := range r.LegalActions(buf[:0]) {
		if x.Kind == engine.Close || inWindow(r.Phase()) && a.declined[declineKey{x.Player, x.Box}] {
			continue
		}
		tv.Legal = append(tv.Legal, wire.ActionOf(x))
		// ES-11: insurance still open while the boxes play is offered to
		// its bettors (Legal) but waits for nobody: they are not in turn.
		late := r.Phase() == engine.Playing && (x.Kind == engine.Insure || x.Kind == engine.EvenMoney)
		if !seen[x.Player] && !late {
			seen[x.Player] = true
			tv.Players = append(tv.Players, x.Player)
		}
	}
	sort.Strings(tv.Players)
	if inWindow(r.Phase()) {
		tv.Default = "close"
	} else if act, ok := defaultAction(r); ok {
		tv.Default = act.Kind.String()
		if act.Kind == engine.Declare {
			tv.Default = "declare 11"
		}
	}
	return tv
}

// eventOf turns an engine event into what clients see: a face-down card
// without its face.
func eventOf(e engine.Event, round int, by string) wire.Event {
	w := wire.Event{Round: round, Box: e.Box, Hand: e.Hand, Player: e.Player}
	switch e.Kind {
	case engine.EvBet:
		w.Kind, w.Bet, w.Amount = wire.EvStake, e.BetKind.String(), e.Amount
	case engine.EvCard:
		w.Kind = wire.EvCard
		if e.FaceDown {
			w.FaceDown = true
		} else {
			w.Card = cardText(e.Card)
		}
	case engine.EvReveal:
		w.Kind, w.Card = wire.EvReveal, cardText(e.Card)
	case engine.EvBurn:
		w.Kind = wire.EvBurn
		if e.FaceDown { // AR-23 item 14: a face-down bank card discarded keeps its face
			w.FaceDown = true
		} else {
			w.Card = cardText(e.Card)
		}
	case engine.EvAction:
		act := wire.ActionOf(e.Action)
		w.Kind, w.Action, w.By = wire.EvAction, &act, by
		if e.Action.Player == "" && by == "player" {
			w.By = "dealer"
		}
	case engine.EvWindow:
		w.Kind, w.Phase = wire.EvWindow, e.Phase.String()
	case engine.EvCutCard:
		w.Kind = wire.EvCutCard
	case engine.EvVoid:
		w.Kind, w.Text = wire.EvVoid, e.Text
		w.Reason, w.Params = recall.VoidReason(e.Text), recall.VoidParams(e.Text)
	case engine.EvResult:
		w.Kind, w.Bet, w.Result, w.Amount = wire.EvResult, e.BetKind.String(), e.Result.String(), e.Amount
	case engine.EvDone:
		w.Kind = wire.EvDone
	default:
		w.Kind = e.Kind.String()
	}
	return w
}

// publishRound publishes the round's engine events not yet published.
func (a *Table) publishRound(by string) {
	ev := a.t.Round().Events()
	for _, e := range ev[a.sent:] {
		a.publish(eventOf(e, a.t.RoundNo(), by))
	}
	a.sent = len(ev)
}

func (a *Table) publishTurn() {
	if tv := a.turn(); tv != nil {
		a.publish(wire.Event{Kind: wire.EvTurn, Round: tv.Round, Turn: tv})
	}
}

// publish sends an event to every subscriber (feed.publish).
func (a *Table) publish(e wire.Event) {
	a.feed.publish(e)
	a.s.Metrics.events.Inc()
}

func (a *Table) snapshotMsg() []byte {
	data, _ := json.Marshal(wire.Message{Type: wire.MsgSnapshot, Epoch: a.feed.epoch, Seq: a.feed.seq, Table: a.view()})
	return data
}

// subscribe adds a subscriber: the events it missed since its last seq if
// this table still has them, else a snapshot.
func (a *Table) subscribe(s *Subscriber, since int64, epoch string) {
	a.feed.subscribe(s, since, epoch, a.snapshotMsg)
}

// resync sends every subscriber a fresh snapshot.
func (a *Table) resync() { a.feed.out(a.snapshotMsg()) }

// needView is whom the next card of a physical shoe is for (nil: no card
// is due).
func (a *Table) needView() *wire.NeedView {
	n, ok := a.t.Need()
	if !ok || !a.dealt {
		return nil
	}
	return &wire.NeedView{Round: a.t.RoundNo(), Box: n.Box, Hand: n.Hand, FaceDown: n.FaceDown, Replace: n.Replace}
}
