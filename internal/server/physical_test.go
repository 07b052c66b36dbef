package server_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"sabot"
	"sabot/internal/client"
	"sabot/internal/live"
	"sabot/internal/recall"
	"sabot/internal/server"
	"sabot/internal/testwait"
	"sabot/internal/wire"
)

// staff makes a member of a live table's staff through the pit and logs
// him in.
func (h *harness) staff(name, role string) *client.Client {
	h.t.Helper()
	ctx := context.Background()
	must(0, h.admin.Do(ctx, "POST", "/api/admin/staff", live.StaffRequest{Name: name, Password: password, Role: role}, nil))
	c := &client.Client{URL: h.srv.URL()}
	must(c.Login(ctx, name, password))
	return c
}

// need reads whom the table's next card is for (nil: none is due).
func need(t *testing.T, c *client.Client, table int64) *wire.NeedView {
	t.Helper()
	return must(c.Table(context.Background(), table)).Need
}

// A table dealt from a physical shoe: the server
// draws no card; the table says whose the next card is, in the order the
// engine deals (ES-12); the dealer sends each card read; a malformed code,
// a card when none is due and a card the shoe cannot hold are refused with
// the reason and change nothing; the round settles, the ledger balances,
// and a restart in the middle of the round (the log replayed) goes on where
// it stood.
func TestPhysicalShoeOverHTTP(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	h := newHarness(t, nil, slow)
	tb := h.table("spain", false, map[string]string{"shoe": "physical", "player_cut": "false", "decks": "1", "cut_card_reserve": "10", "burn_cards": "1", "max_hands": "4"})
	v := must(h.admin.Table(ctx, tb))
	if !v.Shoe.Physical || v.Shoe.Commitment != "" || v.Options["shoe"] != "physical" {
		t.Fatalf("a physical table's shoe: %+v", v.Shoe)
	}
	dealer := h.admin
	_, err := dealer.Command(ctx, tb, "card", wire.CommandRequest{Card: "AS"})
	wantCode(t, err, sabot.ECONFLICT, "no card is due: no round is in play")

	ana, ben := h.player("ana", 100000), h.player("ben", 100000)
	must(ana.Command(ctx, tb, "sit", wire.CommandRequest{Box: 1}))
	must(ben.Command(ctx, tb, "sit", wire.CommandRequest{Box: 2}))
	must(ana.Command(ctx, tb, "bet", wire.CommandRequest{Box: 1, Stake: 1000}))
	must(ben.Command(ctx, tb, "bet", wire.CommandRequest{Box: 2, Stake: 1000}))
	must(h.admin.Command(ctx, tb, "no-more-bets", wire.CommandRequest{})) // the dealer's call deals

	// Rien ne va plus: the round waits for its first card, box 1's.
	wants := []wire.NeedView{{Round: 1, Box: 1, Hand: 1}, {Round: 1, Box: 2, Hand: 1}, {Round: 1}, {Round: 1, Box: 1, Hand: 1}, {Round: 1, Box: 2, Hand: 1}}
	for i, c := range strings.Fields("TS 9H 6D 7C 8S") {
		n := need(t, ana, tb)
		if n == nil || *n != wants[i] {
			t.Fatalf("card %d: the table asks for %+v, want %+v", i+1, n, wants[i])
		}
		if i == 2 {
			// Refusals: a malformed code, a card the one-deck shoe has
			// given already; nothing changes.
			_, err := dealer.Command(ctx, tb, "card", wire.CommandRequest{Card: "1X"})
			wantCode(t, err, sabot.EINVALID, `card "1X": a card is its rank`)
			_, err = dealer.Command(ctx, tb, "card", wire.CommandRequest{Card: "TS"})
			wantCode(t, err, sabot.ECONFLICT, "a shoe of 1 deck holds 1 TS; 1 came out since the shuffle")
			if n2 := need(t, ana, tb); *n2 != *n {
				t.Fatalf("a refused card changed the table: it asks for %+v", n2)
			}
			_, err = ana.Command(ctx, tb, "card", wire.CommandRequest{Card: "6D"})
			wantCode(t, err, sabot.EFORBIDDEN, "")
		}
		must(dealer.Command(ctx, tb, "card", wire.CommandRequest{Card: c}))
	}
	v = must(ana.Table(ctx, tb))
	if v.Need != nil || v.Turn == nil || v.Turn.Players[0] != "ana" || v.Shoe.Read != 5 {
		t.Fatalf("after the first cards: need %+v, turn %+v, read %d", v.Need, v.Turn, v.Shoe.Read)
	}
	_, err = dealer.Command(ctx, tb, "card", wire.CommandRequest{Card: "2C"})
	wantCode(t, err, sabot.ECONFLICT, "no card is due: the round waits for a decision")

	must(ana.Command(ctx, tb, "act", wire.CommandRequest{Action: "stand", Box: 1})) // 17
	must(ben.Command(ctx, tb, "act", wire.CommandRequest{Action: "hit", Box: 2}))   // 17, hits
	if n := need(t, ben, tb); n == nil || n.Box != 2 {
		t.Fatalf("after ben's hit the table asks for %+v", n)
	}
	must(dealer.Command(ctx, tb, "card", wire.CommandRequest{Card: "4H"})) // 21

	// A crash in the middle of the round: the log replays to where it was.
	h.restart(slow)
	ana.URL, ben.URL, dealer = h.srv.URL(), h.srv.URL(), h.admin
	if n := need(t, ana, tb); n == nil || n.Box != 0 {
		t.Fatalf("after a restart the table asks for %+v, want the dealer's card", n)
	}
	// An undo before anyone acted, recorded; then the dealer's cards.
	must(dealer.Command(ctx, tb, "card", wire.CommandRequest{Card: "9D"}))
	must(dealer.Command(ctx, tb, "undo-card", wire.CommandRequest{}))
	must(dealer.Command(ctx, tb, "card", wire.CommandRequest{Card: "TD"})) // 16
	must(dealer.Command(ctx, tb, "card", wire.CommandRequest{Card: "5S"})) // 21
	v = waitRound(t, ana, tb, 1)
	if got := strings.Join(v.Round.Dealer.Cards, " "); got != "6D TD 5S" {
		t.Fatalf("the dealer's cards %s", got)
	}
	if w := wallet(t, ana); w != 99000 {
		t.Fatalf("ana lost 17 to 21: wallet %d", w)
	}
	if w := wallet(t, ben); w != 100000 {
		t.Fatalf("ben pushed 21 to 21: wallet %d", w)
	}
	checkLedger(t, h.st)
	if _, err := dealer.Command(ctx, tb, "force-cards", wire.CommandRequest{Cards: "AS"}); err == nil {
		t.Fatal("a physical table took forced cards")
	}
	_, err = dealer.Command(ctx, tb, "configure", wire.CommandRequest{Options: map[string]string{"shoe": "shuffled"}})
	wantCode(t, err, sabot.EINVALID, "shoe: a table's shoe (shuffled or physical) is chosen when it opens")

	// The round is recalled and replayed from its record like any other.
	rec := must(ana.Round(ctx, v.Round.ID))
	if rec.Net["ana"] != -1000 || rec.Net["ben"] != 0 || !rec.Physical || rec.Forced {
		t.Fatalf("recall: %+v", rec)
	}
	// Deliverable 5: who read each card in, and when; the card taken back.
	var read []string
	for _, r := range rec.Readings {
		if r.By != "pit" || r.At.IsZero() {
			t.Fatalf("a reading %+v", r)
		}
		read = append(read, r.Kind+":"+r.Card)
	}
	// The card taken back is hidden from a player while its shoe goes on
	// (AR-23 (d), as a burn); the pit's recall has it.
	if got := strings.Join(read, " "); got != "card:TS card:9H card:6D card:7C card:8S card:4H card:9D undo: card:TD card:5S" {
		t.Fatalf("the round's readings as ana recalls them: %s", got)
	}
	read = nil
	for _, r := range must(h.admin.Round(ctx, v.Round.ID)).Readings {
		read = append(read, r.Kind+":"+r.Card)
	}
	if got := strings.Join(read, " "); got != "card:TS card:9H card:6D card:7C card:8S card:4H card:9D undo:9D card:TD card:5S" {
		t.Fatalf("the round's readings: %s", got)
	}
	rep, _, err := recall.ReplayRound(ctx, h.st, v.Round.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !rep.OK() {
		t.Fatalf("replay: %v", rep.Problems)
	}
}

// The shoe option is the table's: anything but shuffled or physical is
// refused when the table opens; a shuffled table reads no card.
func TestPhysicalShoeOption(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	h := newHarness(t, nil, slow)
	_, err := h.admin.CreateTable(ctx, wire.TableRequest{Name: "x", Profile: "spain", Options: map[string]string{"shoe": "paper"}})
	wantCode(t, err, sabot.EINVALID, "shoe=paper: give shuffled")
	tb := h.table("spain", true, map[string]string{"shoe": "shuffled"})
	_, err = h.admin.Command(ctx, tb, "card", wire.CommandRequest{Card: "AS"})
	wantCode(t, err, sabot.ECONFLICT, "cards are read only at a table opened with shoe=physical")
	if v := must(h.admin.Table(ctx, tb)); v.Shoe.Physical || v.Shoe.Commitment == "" {
		t.Fatalf("a shuffled table's shoe: %+v", v.Shoe)
	}
}

// A physical table restored from its snapshot (written after each round
// here) keeps its shoe: the cards read since the shuffle still count.
func TestPhysicalShoeSnapshot(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	h := &harness{t: t, st: openStore(t, t.TempDir()+"/sabot.db"), set: func(s *server.Server) { s.SnapshotEvery = 1 }}
	h.start(slow)
	tb := h.table("spain", false, map[string]string{"shoe": "physical", "player_cut": "false", "decks": "1", "cut_card_reserve": "10", "burn_cards": "1", "max_hands": "4"})
	ana := h.player("ana", 100000)
	must(ana.Command(ctx, tb, "sit", wire.CommandRequest{Box: 1}))
	must(ana.Command(ctx, tb, "bet", wire.CommandRequest{Box: 1, Stake: 1000}))
	must(h.admin.Command(ctx, tb, "no-more-bets", wire.CommandRequest{})) // the dealer's call deals
	for _, c := range strings.Fields("TS 6D 7C") {
		must(h.admin.Command(ctx, tb, "card", wire.CommandRequest{Card: c}))
	}
	must(ana.Command(ctx, tb, "act", wire.CommandRequest{Action: "stand", Box: 1}))
	for _, c := range strings.Fields("TD 2H") {
		must(h.admin.Command(ctx, tb, "card", wire.CommandRequest{Card: c}))
	}
	waitRound(t, ana, tb, 1)
	if snaps := must(h.st.Find(ctx, sabot.LogQuery{Kinds: []string{sabot.LogSnapshot}, TableID: tb})); len(snaps) == 0 {
		t.Fatal("no snapshot was written")
	}
	h.restart(slow)
	ana.URL = h.srv.URL()
	if v := must(ana.Table(ctx, tb)); !v.Shoe.Physical || v.Shoe.Read != 5 {
		t.Fatalf("after a restart from the snapshot: %+v", v.Shoe)
	}
	must(ana.Command(ctx, tb, "bet", wire.CommandRequest{Box: 1, Stake: 1000}))
	must(h.admin.Command(ctx, tb, "no-more-bets", wire.CommandRequest{}))
	_, err := h.admin.Command(ctx, tb, "card", wire.CommandRequest{Card: "TS"})
	wantCode(t, err, sabot.ECONFLICT, "a shoe of 1 deck holds 1 TS; 1 came out since the shuffle")
	checkLedger(t, h.st)
}

// The live table's staff and card readers: the
// pit makes a dealer, who reads cards at the console and may not play; the
// pit issues a reader to the physical table, whose token sends cards to
// that table only (a repeat is answered "duplicate"); a revoked reader,
// an unknown token and a player are refused; each card's record names the
// reader.
func TestCardReader(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	h := newHarness(t, nil, slow)
	tb := h.table("spain", false, map[string]string{"shoe": "physical", "player_cut": "false", "decks": "1", "cut_card_reserve": "10", "burn_cards": "1", "max_hands": "4"})
	other := h.table("spain", false, map[string]string{"shoe": "physical", "player_cut": "false"})
	shuffled := h.table("spain", false, nil)

	var staff live.StaffView
	must(0, h.admin.Do(ctx, "POST", "/api/admin/staff", live.StaffRequest{Name: "dora", Password: password, Role: "dealer"}, &staff))
	err := h.admin.Do(ctx, "POST", "/api/admin/staff", live.StaffRequest{Name: "zed", Password: password, Role: "croupier"}, nil)
	wantCode(t, err, sabot.EINVALID, `role "croupier": give dealer or inspector`)
	dora := &client.Client{URL: h.srv.URL()}
	must(dora.Login(ctx, "dora", password))
	_, err = dora.Command(ctx, tb, "sit", wire.CommandRequest{Box: 1})
	wantCode(t, err, sabot.EFORBIDDEN, "the staff do not play: a dealer runs the tables")

	var issued live.DeviceIssued
	must(0, h.admin.Do(ctx, "POST", "/api/admin/devices", live.DeviceRequest{Table: tb, Name: "reader 1"}, &issued))
	if issued.Device.TableID != tb || !strings.HasPrefix(issued.Token, "dev_") || len(issued.Token) < 40 {
		t.Fatalf("issued %+v", issued)
	}
	err = h.admin.Do(ctx, "POST", "/api/admin/devices", live.DeviceRequest{Table: shuffled, Name: "reader 2"}, nil)
	wantCode(t, err, sabot.ECONFLICT, "a card reader serves a table opened with shoe=physical")
	ana := h.player("ana", 100000)
	err = ana.Do(ctx, "POST", "/api/admin/devices", live.DeviceRequest{Table: tb, Name: "mine"}, nil)
	wantCode(t, err, sabot.EFORBIDDEN, "administrators only")

	reader := &client.Client{URL: h.srv.URL(), Header: map[string]string{"Authorization": "Device " + issued.Token}}
	send := func(c *client.Client, table int64, card, id string) (*wire.CommandResult, error) {
		var res wire.CommandResult
		err := c.Do(ctx, "POST", fmt.Sprintf("/api/tables/%d/cards", table), wire.CommandRequest{Card: card, CommandID: id}, &res)
		return &res, err
	}
	_, err = send(reader, tb, "AS", "r-0")
	wantCode(t, err, sabot.ECONFLICT, "no card is due: no round is in play")
	must(ana.Command(ctx, tb, "sit", wire.CommandRequest{Box: 1}))
	must(ana.Command(ctx, tb, "bet", wire.CommandRequest{Box: 1, Stake: 1000}))
	must(h.admin.Command(ctx, tb, "no-more-bets", wire.CommandRequest{})) // the dealer's call deals
	first := must(send(reader, tb, "TS", "r-1"))
	again := must(send(reader, tb, "TS", "r-1"))
	if !again.Duplicate || again.Seq != first.Seq {
		t.Fatalf("a card sent again: %+v after %+v", again, first)
	}
	if v := must(ana.Table(ctx, tb)); len(v.Round.Hands) == 0 || strings.Join(v.Round.Hands[0].Cards, " ") != "TS" {
		t.Fatalf("after the reader's card: %+v", v.Round)
	}
	must(dora.Command(ctx, tb, "card", wire.CommandRequest{Card: "6D"})) // the console too
	// A card the one-deck shoe cannot hold, from the reader: refused, nothing changes.
	_, err = send(reader, tb, "TS", "r-1b")
	wantCode(t, err, sabot.ECONFLICT, "a shoe of 1 deck holds 1 TS; 1 came out since the shuffle")
	_, err = send(reader, tb, "T", "r-1c")
	wantCode(t, err, sabot.EINVALID, `card "T": a card is its rank`)
	_, err = send(reader, other, "7C", "r-2")
	wantCode(t, err, sabot.EFORBIDDEN, "reads table")
	_, err = send(&client.Client{URL: h.srv.URL(), Header: map[string]string{"Authorization": "Device dev_nothing"}}, tb, "7C", "r-3")
	wantCode(t, err, sabot.EUNAUTHORIZED, "unknown device token")
	_, err = send(ana, tb, "7C", "r-4") // a player's session is not a device
	wantCode(t, err, sabot.EUNAUTHORIZED, "Authorization: Device TOKEN")

	must(0, h.admin.Do(ctx, "POST", fmt.Sprintf("/api/admin/devices/%d/revoke", issued.Device.ID), nil, nil))
	_, err = send(reader, tb, "7C", "r-5")
	wantCode(t, err, sabot.EUNAUTHORIZED, "the pit revoked this device")

	recs := must(h.st.Find(ctx, sabot.LogQuery{Kinds: []string{sabot.LogCard}, TableID: tb}))
	if len(recs) != 2 || !strings.Contains(string(recs[0].Payload), fmt.Sprintf(`"by":"reader 1","device":%d`, issued.Device.ID)) ||
		!strings.Contains(string(recs[1].Payload), `"by":"dora"`) {
		t.Fatalf("the cards' records: %s / %s", recs[0].Payload, recs[1].Payload)
	}
}

// "No more bets" at the dealer's word (AR-22, VE-04): the round is dealt
// before the betting window runs out, if the bets allow it; else the
// refusal says what is missing (AR-03), with its reason.
func TestNoMoreBets_AR22(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	h := newHarness(t, nil, slow)
	ar := h.table("argentina", false, map[string]string{"shoe": "physical", "player_cut": "false"})
	ana, ben := h.player("ana", 100000), h.player("ben", 100000)
	must(ana.Command(ctx, ar, "sit", wire.CommandRequest{Box: 1}))
	must(ana.Command(ctx, ar, "bet", wire.CommandRequest{Box: 1, Stake: 1000}))
	_, err := h.admin.Command(ctx, ar, "no-more-bets", wire.CommandRequest{})
	wantCode(t, err, sabot.ECONFLICT, "AR-03")
	var e *sabot.Error
	if !errors.As(err, &e) || e.Reason != "table_minimum_bets" {
		t.Fatalf("the refusal's reason: %+v", err)
	}
	_, err = ana.Command(ctx, ar, "no-more-bets", wire.CommandRequest{})
	wantCode(t, err, sabot.EFORBIDDEN, "the dealer's")

	es := h.table("spain", false, map[string]string{"shoe": "physical", "player_cut": "false"})
	must(ana.Command(ctx, es, "sit", wire.CommandRequest{Box: 1}))
	must(ben.Command(ctx, es, "sit", wire.CommandRequest{Box: 2}))
	must(ana.Command(ctx, es, "bet", wire.CommandRequest{Box: 1, Stake: 1000}))
	must(ben.Command(ctx, es, "bet", wire.CommandRequest{Box: 2, Stake: 1000}))
	testwait.Pause(50 * time.Millisecond) // a moment in which nothing may happen
	if v := must(ana.Table(ctx, es)); v.Round != nil || v.Need != nil || v.BettingDeadline != 0 {
		t.Fatal("a physical table dealt, or set a betting deadline, before the dealer called")
	}
	must(h.admin.Command(ctx, es, "no-more-bets", wire.CommandRequest{}))
	v := must(ana.Table(ctx, es))
	if v.Need == nil || v.Need.Box != 1 || v.Round == nil || v.Round.No != 1 {
		t.Fatalf("after the call: need %+v round %+v", v.Need, v.Round)
	}
	_, err = h.admin.Command(ctx, es, "no-more-bets", wire.CommandRequest{})
	wantCode(t, err, sabot.ECONFLICT, "round 1 is in play")
}

// The inspector's authority: the dealer asks for
// an AR-23 correction, which waits, survives a restart, and takes effect
// only once the inspector (not the dealer, nor whoever asked) approves it;
// each step is a significant event naming both people. (b): a box dealt
// three cards: its bet void. (d): a card out of turn burned: it counts in
// the shoe. A correction the round cannot take is refused and stays
// waiting; one refused is dropped. A void of a round waiting for a card is
// the inspector's, every stake returned.
func TestInspectorCorrections_AR23(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	h := newHarness(t, nil, slow)
	tb := h.table("spain", false, map[string]string{"shoe": "physical", "player_cut": "false", "decks": "1", "cut_card_reserve": "10", "burn_cards": "1", "max_hands": "4"})
	dora, ivo := h.staff("dora", "dealer"), h.staff("ivo", "inspector")
	ana, ben := h.player("ana", 100000), h.player("ben", 100000)
	must(ana.Command(ctx, tb, "sit", wire.CommandRequest{Box: 1}))
	must(ben.Command(ctx, tb, "sit", wire.CommandRequest{Box: 2}))
	must(ana.Command(ctx, tb, "bet", wire.CommandRequest{Box: 1, Stake: 1000}))
	must(ben.Command(ctx, tb, "bet", wire.CommandRequest{Box: 2, Stake: 1000}))
	must(h.admin.Command(ctx, tb, "no-more-bets", wire.CommandRequest{})) // the dealer's call deals
	for _, c := range strings.Fields("TS 9H 6D 7C 8S") {
		must(dora.Command(ctx, tb, "card", wire.CommandRequest{Card: c}))
	}
	_, err := dora.Command(ctx, tb, "correct", wire.CommandRequest{Case: "i"})
	wantCode(t, err, sabot.EINVALID, "case i: a player's cards put into the discard by mistake give no claim: there is nothing to correct (ES-01)") // spain: the table head's, not AR-23
	_, err = dora.Command(ctx, tb, "correct", wire.CommandRequest{Case: "b", Box: 5})
	wantCode(t, err, sabot.EINVALID, "no box 5 in play")

	// (b): box 2 got three cards.
	b := must(dora.Command(ctx, tb, "correct", wire.CommandRequest{Case: "b", Box: 2}))
	v := must(ana.Table(ctx, tb))
	if len(v.Corrections) != 1 || v.Corrections[0].ID != b.Seq || v.Corrections[0].Asked != "dora" {
		t.Fatalf("the corrections waiting: %+v", v.Corrections)
	}
	_, err = dora.Command(ctx, tb, "approve", wire.CommandRequest{Correction: b.Seq})
	wantCode(t, err, sabot.EFORBIDDEN, "the inspector's or the pit's only")
	h.restart(slow) // the request waits through a restart
	for _, c := range []*client.Client{ana, ben, dora, ivo} {
		c.URL = h.srv.URL()
	}
	if v := must(ana.Table(ctx, tb)); len(v.Corrections) != 1 {
		t.Fatalf("after a restart, corrections waiting: %+v", v.Corrections)
	}
	must(ivo.Command(ctx, tb, "approve", wire.CommandRequest{Correction: b.Seq}))
	_, err = ivo.Command(ctx, tb, "approve", wire.CommandRequest{Correction: b.Seq})
	wantCode(t, err, sabot.ENOTFOUND, "no correction")

	// (d): a card out of turn, burned; (c) at a table without a hole card
	// cannot be applied: it waits, and the inspector refuses it.
	d := must(dora.Command(ctx, tb, "correct", wire.CommandRequest{Case: "d", Card: "AS"}))
	// The players have no right to know the burned card's value (AR-23 (d)).
	if v := must(ana.Table(ctx, tb)); len(v.Corrections) != 1 || v.Corrections[0].Card != 0 || strings.Contains(v.Corrections[0].Text, "AS") {
		t.Fatalf("the correction as the table shows it: %+v", v.Corrections)
	}
	must(ivo.Command(ctx, tb, "approve", wire.CommandRequest{Correction: d.Seq}))
	c := must(dora.Command(ctx, tb, "correct", wire.CommandRequest{Case: "c"}))
	_, err = ivo.Command(ctx, tb, "approve", wire.CommandRequest{Correction: c.Seq})
	wantCode(t, err, sabot.EINVALID, "there is no unturned hole card")
	must(ivo.Command(ctx, tb, "refuse-correction", wire.CommandRequest{Correction: c.Seq}))
	pit := must(h.admin.Command(ctx, tb, "correct", wire.CommandRequest{Case: "g"}))
	_, err = h.admin.Command(ctx, tb, "approve", wire.CommandRequest{Correction: pit.Seq})
	wantCode(t, err, sabot.EFORBIDDEN, "pit asked for correction")
	must(ivo.Command(ctx, tb, "refuse-correction", wire.CommandRequest{Correction: pit.Seq}))

	// A correction left undecided lapses with its round.
	lapse := must(dora.Command(ctx, tb, "correct", wire.CommandRequest{Case: "g"}))
	// ana plays on; the dealer draws 10 and 2: 18 beats ana's 17.
	must(ana.Command(ctx, tb, "act", wire.CommandRequest{Action: "stand", Box: 1}))
	_, err = dora.Command(ctx, tb, "card", wire.CommandRequest{Card: "AS"})
	wantCode(t, err, sabot.ECONFLICT, "a shoe of 1 deck holds 1 AS") // burned
	must(dora.Command(ctx, tb, "card", wire.CommandRequest{Card: "TD"}))
	must(dora.Command(ctx, tb, "card", wire.CommandRequest{Card: "2H"}))
	v = waitRound(t, ana, tb, 1)
	if w := wallet(t, ana); w != 99000 {
		t.Fatalf("ana lost 17 to 18: %d", w)
	}
	if len(v.Corrections) != 0 {
		t.Fatalf("corrections of a round over still wait: %+v", v.Corrections)
	}
	_, err = ivo.Command(ctx, tb, "approve", wire.CommandRequest{Correction: lapse.Seq})
	wantCode(t, err, sabot.ENOTFOUND, "no correction")
	if w := wallet(t, ben); w != 100000 {
		t.Fatalf("ben's bet was void (AR-23 (b)): %d", w)
	}
	for _, r := range v.Round.Bets {
		if r.Player == "ben" && r.Result != "void" {
			t.Fatalf("ben's bet: %+v", r)
		}
	}
	events := must(h.st.Find(ctx, sabot.LogQuery{Kinds: []string{sabot.LogAdmin}, TableID: tb}))
	var said []string
	for _, e := range events {
		said = append(said, string(e.Payload))
	}
	all := strings.Join(said, "\n")
	for _, want := range []string{
		`correction (b) round 1 box 2: a box got more than two cards in the deal: that bet is void, the cards burned (ES-01) (asked by dora, approved by ivo)`,
		`correction (d) round 1 card AS: a card drawn out of turn is burned (ES-01) (asked by dora, approved by ivo)`,
		`(asked by dora, refused by ivo)`,
	} {
		if !strings.Contains(all, want) {
			t.Errorf("the significant events lack %q:\n%s", want, all)
		}
	}
	checkLedger(t, h.st)

	// A void while the round waits for its first card: the inspector's.
	must(ana.Command(ctx, tb, "bet", wire.CommandRequest{Box: 1, Stake: 1000}))
	must(dora.Command(ctx, tb, "no-more-bets", wire.CommandRequest{}))
	if n := need(t, ana, tb); n == nil {
		t.Fatal("round 2 does not wait for a card")
	}
	_, err = dora.Command(ctx, tb, "void", wire.CommandRequest{})
	wantCode(t, err, sabot.EFORBIDDEN, "the inspector's or the pit's only")
	must(ivo.Command(ctx, tb, "void", wire.CommandRequest{}))
	v = waitRound(t, ana, tb, 2)
	if w := wallet(t, ana); w != 99000 || v.Round.Void == "" {
		t.Fatalf("after the void: wallet %d, round %+v", w, v.Round)
	}
	// The log says who ordered the void: the inspector, not "the pit".
	evs := must(recall.Events(ctx, h.st, recall.EventQuery{Table: tb}))
	var voids []string
	for _, e := range evs {
		if e.Round == 2 {
			voids = append(voids, e.Summary)
		}
	}
	if s := strings.Join(voids, "\n"); !strings.Contains(s, "void by the inspector ivo") || strings.Contains(s, "by the pit") {
		t.Errorf("the inspector's void is logged as:\n%s", s)
	}
	checkLedger(t, h.st)
}

// Walk-in players at a live table: the dealer
// seats one, sells him chips for cash (from the table's cash float: the
// ledger balances), enters his bet and his decisions, and changes his chips
// back when he leaves; an online player plays the same round. A walk-in
// never logs in; a player cannot speak for one; the staff still do not
// play on their own account.
func TestWalkIn(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	h := newHarness(t, nil, slow)
	tb := h.table("spain", false, map[string]string{"shoe": "physical", "player_cut": "false", "decks": "1", "cut_card_reserve": "10", "burn_cards": "1", "max_hands": "4"})
	dora := h.staff("dora", "dealer")
	ana := h.player("ana", 100000)
	must(ana.Command(ctx, tb, "sit", wire.CommandRequest{Box: 1}))

	must(dora.Command(ctx, tb, "seat-walk-in", wire.CommandRequest{Box: 2}))
	v := must(ana.Table(ctx, tb))
	guest := ""
	for _, s := range v.Seats {
		if s.Box == 2 {
			guest = s.Player
		}
	}
	if !strings.HasPrefix(guest, fmt.Sprintf("#%d-", tb)) {
		t.Fatalf("the walk-in at box 2 is %q", guest)
	}
	_, err := dora.Command(ctx, tb, "seat-walk-in", wire.CommandRequest{Box: 1})
	wantCode(t, err, sabot.ECONFLICT, "box 1 is taken by ana")
	_, err = dora.Command(ctx, tb, "buy-in", wire.CommandRequest{Box: 1, Stake: 5000})
	wantCode(t, err, sabot.ECONFLICT, "box 1 is not held by a walk-in player")
	must(dora.Command(ctx, tb, "buy-in", wire.CommandRequest{Box: 2, Stake: 5000}))
	_, err = (&client.Client{URL: h.srv.URL()}).Login(ctx, guest, "")
	if sabot.ErrorCode(err) == "" {
		t.Fatal("a walk-in logged in")
	}

	// The bets: ana's online, the walk-in's entered by the dealer.
	_, err = ana.Command(ctx, tb, "bet", wire.CommandRequest{Box: 2, Stake: 1000, WalkIn: 2})
	wantCode(t, err, sabot.EFORBIDDEN, "the dealer's")
	_, err = dora.Command(ctx, tb, "bet", wire.CommandRequest{Box: 2, Stake: 1000})
	wantCode(t, err, sabot.EFORBIDDEN, "the staff do not play")
	_, err = dora.Command(ctx, tb, "bet", wire.CommandRequest{Box: 1, Stake: 1000, WalkIn: 1})
	wantCode(t, err, sabot.ECONFLICT, "box 1 is not held by a walk-in player")
	_, err = dora.Command(ctx, tb, "bet", wire.CommandRequest{Box: 2, Stake: 6000, WalkIn: 2})
	wantCode(t, err, sabot.EINSUFFICIENT, "")
	must(dora.Command(ctx, tb, "bet", wire.CommandRequest{Box: 2, Stake: 1000, WalkIn: 2}))
	must(ana.Command(ctx, tb, "bet", wire.CommandRequest{Box: 1, Stake: 1000}))
	h.restart(slow) // the walk-in is known again from the log
	ana.URL, dora.URL = h.srv.URL(), h.srv.URL()
	h.admin.URL = h.srv.URL()
	must(dora.Command(ctx, tb, "no-more-bets", wire.CommandRequest{}))
	for _, c := range strings.Fields("TS 9H 6D 7C 8S") {
		must(dora.Command(ctx, tb, "card", wire.CommandRequest{Card: c}))
	}
	must(ana.Command(ctx, tb, "act", wire.CommandRequest{Action: "stand", Box: 1}))           // 17
	must(dora.Command(ctx, tb, "act", wire.CommandRequest{Action: "hit", Box: 2, WalkIn: 2})) // 17, hits
	must(dora.Command(ctx, tb, "card", wire.CommandRequest{Card: "2C"}))                      // 19
	must(dora.Command(ctx, tb, "act", wire.CommandRequest{Action: "stand", Box: 2, WalkIn: 2}))
	must(dora.Command(ctx, tb, "card", wire.CommandRequest{Card: "TD"}))
	must(dora.Command(ctx, tb, "card", wire.CommandRequest{Card: "2H"})) // 18
	v = waitRound(t, ana, tb, 1)
	net := map[string]int64{}
	for _, b := range v.Round.Bets {
		net[b.Player] += int64(b.Net)
	}
	if net["ana"] != -1000 || net[guest] != 1000 {
		t.Fatalf("the round's nets %v", net)
	}

	// The walk-in changes his chips back: 5,000 bought, 6,000 returned.
	must(dora.Command(ctx, tb, "cash-out", wire.CommandRequest{Box: 2}))
	must(dora.Command(ctx, tb, "leave", wire.CommandRequest{WalkIn: 2}))
	float := must(h.st.Account(ctx, sabot.AccountHouse, tb))
	if float.Balance != 1000 {
		t.Fatalf("the table's cash float after 5,000 sold and 6,000 changed back: %d", float.Balance)
	}
	if v := must(ana.Table(ctx, tb)); len(v.Seats) != 1 {
		t.Fatalf("seats after the walk-in left: %+v", v.Seats)
	}
	events := must(h.st.Find(ctx, sabot.LogQuery{Kinds: []string{sabot.LogAdmin}, TableID: tb}))
	var said []string
	for _, e := range events {
		said = append(said, string(e.Payload))
	}
	if all := strings.Join(said, "\n"); !strings.Contains(all, "buys 50.00 in chips at box 2 (by dora)") || !strings.Contains(all, "changes 60.00 in chips back to cash at box 2 (by dora)") {
		t.Fatalf("the significant events:\n%s", all)
	}
	checkLedger(t, h.st)
}

// AR-23 (f) at a physical table: the dealer skipped box 1 and completed the
// bank's hand; on the inspector's approval the round asks for the bank's
// cards, then the skipped players play against the seen bank or withdraw
// their bets.
func TestBankFirst_AR23(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	h := newHarness(t, nil, slow)
	tb := h.table("spain", false, map[string]string{"shoe": "physical", "player_cut": "false"})
	dora := h.staff("dora", "dealer")
	ana, ben := h.player("ana", 100000), h.player("ben", 100000)
	must(ana.Command(ctx, tb, "sit", wire.CommandRequest{Box: 1}))
	must(ben.Command(ctx, tb, "sit", wire.CommandRequest{Box: 2}))
	must(ana.Command(ctx, tb, "bet", wire.CommandRequest{Box: 1, Stake: 1000}))
	must(ben.Command(ctx, tb, "bet", wire.CommandRequest{Box: 2, Stake: 1000}))
	must(dora.Command(ctx, tb, "no-more-bets", wire.CommandRequest{}))
	for _, c := range strings.Fields("TS 9H 6D 8C 7S") { // ana 18, ben 16, the dealer 6
		must(dora.Command(ctx, tb, "card", wire.CommandRequest{Card: c}))
	}
	_, err := ana.Command(ctx, tb, "act", wire.CommandRequest{Action: "withdraw", Box: 1})
	wantCode(t, err, sabot.EINVALID, "a bet is withdrawn only by a player skipped before the bank was completed")
	f := must(dora.Command(ctx, tb, "correct", wire.CommandRequest{Case: "f"}))
	must(h.admin.Command(ctx, tb, "approve", wire.CommandRequest{Correction: f.Seq}))
	if n := need(t, ana, tb); n == nil || n.Box != 0 {
		t.Fatalf("after (f) the table asks for %+v, want the bank's card", n)
	}
	must(dora.Command(ctx, tb, "card", wire.CommandRequest{Card: "TD"})) // 16
	must(dora.Command(ctx, tb, "card", wire.CommandRequest{Card: "2C"})) // 18
	v := must(ana.Table(ctx, tb))
	if v.Turn == nil || v.Turn.Box != 1 || strings.Join(v.Turn.Dealer, " ") != "6D TD 2C" {
		t.Fatalf("ana's turn against the seen bank: %+v", v.Turn)
	}
	offered := false
	for _, l := range v.Turn.Legal {
		offered = offered || l.Kind == "withdraw"
	}
	if !offered {
		t.Fatalf("withdrawing is not offered: %+v", v.Turn.Legal)
	}
	must(ana.Command(ctx, tb, "act", wire.CommandRequest{Action: "stand", Box: 1}))    // 18 against 18
	must(ben.Command(ctx, tb, "act", wire.CommandRequest{Action: "withdraw", Box: 2})) // his 16 back
	v = waitRound(t, ana, tb, 1)
	if strings.Join(v.Round.Dealer.Cards, " ") != "6D TD 2C" {
		t.Fatalf("the dealer drew again: %v", v.Round.Dealer.Cards)
	}
	if wallet(t, ana) != 100000 || wallet(t, ben) != 100000 {
		t.Fatalf("wallets %d, %d: ana pushed, ben withdrew", wallet(t, ana), wallet(t, ben))
	}
	checkLedger(t, h.st)
	rep, _, err := recall.ReplayRound(ctx, h.st, v.Round.ID)
	if err != nil || !rep.OK() {
		t.Fatalf("replay: %v %+v", err, rep)
	}
}

// Secrecy at a physical table (AR-09): the hole card read face down is
// not shown to the players until the dealer turns it; the corrections
// waiting are bounded; a ruling on a dispute is the inspector's, written
// with his name.
func TestPhysicalSecrecyAndRuling_AR09(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	h := newHarness(t, nil, slow)
	tb := h.table("argentina", false, map[string]string{"shoe": "physical", "player_cut": "false", "min_bets_to_start": "1"})
	ana := h.player("ana", 100000)
	must(ana.Command(ctx, tb, "sit", wire.CommandRequest{Box: 1}))
	must(ana.Command(ctx, tb, "bet", wire.CommandRequest{Box: 1, Stake: 1000}))
	must(h.admin.Command(ctx, tb, "no-more-bets", wire.CommandRequest{}))
	hole := false
	for _, c := range strings.Fields("TS 5D 7C AS") {
		n := need(t, ana, tb)
		if n == nil {
			break
		}
		if n.Box == 0 && n.FaceDown {
			hole = true
			c = "AS"
		}
		must(h.admin.Command(ctx, tb, "card", wire.CommandRequest{Card: c}))
		if hole {
			break
		}
	}
	if !hole {
		t.Fatal("the table never asked for a face-down hole card")
	}
	v := must(ana.Table(ctx, tb))
	if got := strings.Join(v.Round.Dealer.Cards, " "); strings.Contains(got, "AS") || !strings.Contains(got, "??") {
		t.Fatalf("the dealer's cards as ana sees them: %s", got)
	}

	// The corrections waiting are bounded: a careless console cannot pile
	// them up.
	for range live.MaxPending {
		must(h.admin.Command(ctx, tb, "correct", wire.CommandRequest{Case: "g"}))
	}
	_, err := h.admin.Command(ctx, tb, "correct", wire.CommandRequest{Case: "g"})
	wantCode(t, err, sabot.ECONFLICT, "corrections wait for the inspector already")

	_, err = ana.Command(ctx, tb, "ruling", wire.CommandRequest{Reason: "mine"})
	wantCode(t, err, sabot.EFORBIDDEN, "the inspector's or the pit's only")
	_, err = h.admin.Command(ctx, tb, "ruling", wire.CommandRequest{Reason: "  "})
	wantCode(t, err, sabot.EINVALID, "a ruling says what was decided")
	must(h.admin.Command(ctx, tb, "ruling", wire.CommandRequest{Reason: "box 1's second card stands"}))
	recs := must(h.st.Find(ctx, sabot.LogQuery{Kinds: []string{sabot.LogAdmin}, TableID: tb}))
	if last := string(recs[len(recs)-1].Payload); !strings.Contains(last, `"event":"ruling"`) || !strings.Contains(last, `"by":"pit"`) {
		t.Fatalf("the ruling's record: %s", last)
	}
}

// A table's staff option names who may work it: a dealer not on it is
// refused there (and may work a table that names no staff); the pit and
// the table's own card readers always may.
func TestTableStaff(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	h := newHarness(t, nil, slow)
	dora, zed := h.staff("dora", "dealer"), h.staff("zed", "dealer")
	mine := h.table("spain", false, map[string]string{"shoe": "physical", "player_cut": "false", "staff": "dora, ivo"})
	open := h.table("spain", false, map[string]string{"shoe": "physical", "player_cut": "false"})
	ana := h.player("ana", 100000)
	for _, tb := range []int64{mine, open} {
		must(ana.Command(ctx, tb, "sit", wire.CommandRequest{Box: 1}))
		must(ana.Command(ctx, tb, "bet", wire.CommandRequest{Box: 1, Stake: 1000}))
	}
	_, err := zed.Command(ctx, mine, "no-more-bets", wire.CommandRequest{})
	wantCode(t, err, sabot.EFORBIDDEN, "zed is not on this table's staff (its staff option: dora, ivo)")
	_, err = zed.Command(ctx, mine, "seat-walk-in", wire.CommandRequest{Box: 2})
	wantCode(t, err, sabot.EFORBIDDEN, "not on this table's staff")
	must(zed.Command(ctx, open, "no-more-bets", wire.CommandRequest{}))
	must(dora.Command(ctx, mine, "no-more-bets", wire.CommandRequest{}))
	must(h.admin.Command(ctx, mine, "card", wire.CommandRequest{Card: "TS"}))
	if v := must(ana.Table(ctx, mine)); v.Rules.MaxBet == 0 || v.Options["staff"] != "dora, ivo" {
		t.Fatalf("the staff option is the table's, the rules untouched: %+v %v", v.Rules, v.Options)
	}
}

// A walk-in's commands are recorded as his, the dealer who entered them
// in the record's client ID.
func TestWalkInRecordsTheDealer(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	h := newHarness(t, nil, slow)
	tb := h.table("spain", false, map[string]string{"shoe": "physical", "player_cut": "false"})
	dora := h.staff("dora", "dealer")
	me := must(dora.Me(ctx))
	must(dora.Command(ctx, tb, "seat-walk-in", wire.CommandRequest{Box: 1}))
	must(dora.Command(ctx, tb, "buy-in", wire.CommandRequest{Box: 1, Stake: 5000}))
	must(dora.Command(ctx, tb, "bet", wire.CommandRequest{Box: 1, Stake: 1000, WalkIn: 1}))
	bets := must(h.st.Find(ctx, sabot.LogQuery{Kinds: []string{sabot.LogBet}, TableID: tb}))
	if len(bets) != 1 || !strings.HasPrefix(bets[0].ClientID, fmt.Sprintf("%d:", me.ID)) || !strings.Contains(string(bets[0].Payload), `"player":"#`) {
		t.Fatalf("the walk-in's bet record: client %q, %s", bets[0].ClientID, bets[0].Payload)
	}
}
