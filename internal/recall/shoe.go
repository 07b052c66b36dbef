package recall

import (
	"context"
	"fmt"

	"sabot"
	"sabot/card"
	"sabot/internal/seal"
	"sabot/internal/tablelog"
	"sabot/internal/wire"
	"sabot/shoe"
)

// Pages of a shoe's rounds (GET /api/shoes/{id}?limit=&after=).
const (
	DefaultShoePage = 100 // a shoe of 8 decks plays about 80 rounds
	MaxShoePage     = 200
)

// ShoeInfo returns a page of a shoe: its commitment, its seed if revealed,
// up to limit of its rounds after round after (0: from the first), with
// their cards once the seed is revealed. Every record it reads is found on
// an index (the shoe's, the rounds'): its cost follows the page, not the
// table's log.
func ShoeInfo(ctx context.Context, st Log, id string, after, limit int) (*wire.ShoeReport, error) {
	tid, no, err := ParseRoundID(id)
	if err != nil {
		return nil, err
	}
	if limit < 1 || limit > MaxShoePage || after < 0 {
		return nil, sabot.Errorf(sabot.EINVALID, "a page of a shoe is 1 to %d rounds after a round of it", MaxShoePage)
	}
	t, err := st.TableByID(ctx, tid)
	if err != nil {
		return nil, err
	}
	rep := &wire.ShoeReport{ID: ShoeID(tid, no), Profile: t.Profile, Options: t.Options, Rounds: []string{}}
	heads, err := st.Find(ctx, sabot.LogQuery{Kinds: []string{sabot.LogShoe, sabot.LogShoeReveal, sabot.LogShoeStep}, TableID: tid, Shoe: int64(no)})
	if err != nil {
		return nil, err
	}
	found := false
	for _, r := range heads {
		p := kinds[r.Kind]
		if p.shoe == nil {
			continue
		}
		if err := p.shoe(rep, r); err != nil {
			return nil, err
		}
		found = found || r.Kind == sabot.LogShoe
	}
	if !found {
		return nil, sabot.Errorf(sabot.ENOTFOUND, "no shoe %s", rep.ID)
	}
	deals, err := st.Find(ctx, sabot.LogQuery{Kinds: []string{sabot.LogDeal}, TableID: tid, Shoe: int64(no), FromRound: int64(after) + 1, Limit: limit + 1})
	if err != nil {
		return nil, err
	}
	if len(deals) > limit {
		deals = deals[:limit]
		rep.Next = RoundID(tid, int(deals[limit-1].RoundNo))
	}
	for _, d := range deals {
		rep.Rounds = append(rep.Rounds, RoundID(tid, int(d.RoundNo)))
	}
	if !rep.Revealed || len(deals) == 0 {
		return rep, nil
	}
	// The rounds' cards: their settlements, on the rounds' index.
	closes, err := st.Find(ctx, sabot.LogQuery{Kinds: []string{sabot.LogSettle, sabot.LogVoid}, TableID: tid,
		FromRound: deals[0].RoundNo, ToRound: deals[len(deals)-1].RoundNo})
	if err != nil {
		return nil, err
	}
	cards := map[int64][]card.Card{}
	for _, r := range closes {
		var p tablelog.SettleCards
		if err := tablelog.Decode(r, &p); err != nil {
			return nil, sabot.Internal(err)
		}
		cards[r.RoundNo] = p.Record.Cards
	}
	for _, d := range deals {
		var p tablelog.DealForced
		if err := tablelog.Decode(d, &p); err != nil {
			return nil, sabot.Internal(err)
		}
		c, closed := cards[d.RoundNo]
		if c == nil {
			c = []card.Card{}
		}
		rep.Dealt = append(rep.Dealt, wire.DealtRound{Round: RoundID(tid, int(d.RoundNo)), Forced: p.Forced != nil, Closed: closed, Cards: c})
	}
	return rep, nil
}

// VerifyShoe checks a revealed shoe in the store: the seed and the order it
// gives hash to the commitment published when the shoe started, and every
// round of the shoe drew exactly the next cards of that order (`sabot
// verify --db`).
func VerifyShoe(ctx context.Context, st Log, id string) (*wire.VerifyReport, error) {
	info, err := WholeShoe(func(after int) (*wire.ShoeReport, error) { return ShoeInfo(ctx, st, id, after, MaxShoePage) })
	if err != nil {
		return nil, err
	}
	return CheckShoe(info)
}

// WholeShoe reads every page of a shoe (page gives the one after a round)
// into one report.
func WholeShoe(page func(after int) (*wire.ShoeReport, error)) (*wire.ShoeReport, error) {
	info, err := page(0)
	if err != nil {
		return nil, err
	}
	for next := info.Next; next != ""; {
		_, after, err := ParseRoundID(next)
		if err != nil {
			return nil, err
		}
		more, err := page(after)
		if err != nil {
			return nil, err
		}
		if more.Next != "" && more.Next == next {
			return nil, sabot.Errorf(sabot.EINVALID, "the pages of shoe %s do not move on from %s", info.ID, next)
		}
		info.Rounds = append(info.Rounds, more.Rounds...)
		info.Dealt = append(info.Dealt, more.Dealt...)
		next = more.Next
	}
	info.Next = ""
	return info, nil
}

// CheckShoe checks a revealed shoe from its report (ShoeInfo, or GET
// /api/shoes/{id}, every page): the seed and the order it gives hash to the
// commitment, and every round drew exactly the next cards of that order.
func CheckShoe(info *wire.ShoeReport) (*wire.VerifyReport, error) {
	if !info.Revealed {
		return nil, sabot.Errorf(sabot.ECONFLICT, "shoe %s is still in play: it is verified once its seed is revealed", info.ID)
	}
	p, err := sabot.ProfileOf(info.Profile, info.Options)
	if err != nil {
		return nil, err
	}
	seed, err := seal.ParseSeed(info.Seed)
	if err != nil {
		return nil, sabot.Errorf(sabot.EINVALID, "shoe %s: %v", info.ID, err)
	}
	var order []card.Card
	if info.Steps { // AR-07, EG-02: committed before the player's cut
		order = seal.ShoeOrderUncut(p, seed)
	} else if order, err = seal.ShoeOrder(p, seed); err != nil {
		return nil, sabot.Internal(err)
	}
	rep := &wire.VerifyReport{Shoe: info.ID, Commitment: info.Commitment, Matches: seal.Commitment(seed, order) == info.Commitment}
	if !rep.Matches {
		rep.Problems = append(rep.Problems, "the revealed seed does not give the committed order")
	}
	// Deal the shoe again, as the table did, and compare each round's cards.
	sh := shoe.New(p.Decks, seed)
	if info.Steps {
		// The recorded cut, public, applied to the committed order.
		sh.PrepareUncut(p.ShoeProcedure())
		if info.CutAt == 0 && len(info.Dealt) > 0 {
			rep.Problems = append(rep.Problems, "the shoe was dealt from and its log records no cut (AR-07, EG-02)")
		} else if info.CutAt != 0 {
			if _, err := sh.FinishCut(p.ShoeProcedure(), info.CutAt); err != nil {
				rep.Problems = append(rep.Problems, fmt.Sprintf("the recorded cut: %v", err))
			}
		}
	} else if _, err := sh.Prepare(p.ShoeProcedure(), 0); err != nil {
		return nil, sabot.Internal(err)
	}
	for _, d := range info.Dealt {
		if !d.Closed {
			rep.Problems = append(rep.Problems, fmt.Sprintf("round %s: not settled in the log", d.Round))
			continue
		}
		if d.Forced {
			rep.Skipped = append(rep.Skipped, d.Round)
			continue
		}
		for i, c := range d.Cards {
			got, ok := sh.Draw()
			if !ok || got != c {
				rep.Problems = append(rep.Problems, fmt.Sprintf("round %s card %d: %v dealt, the shoe gives %v", d.Round, i+1, c, got))
				break
			}
			rep.Cards++
		}
		sh.Collect(d.Cards...)
		rep.Rounds++
	}
	if len(info.Dealt) != len(info.Rounds) {
		rep.Problems = append(rep.Problems, fmt.Sprintf("%d rounds, the cards of %d", len(info.Rounds), len(info.Dealt)))
	}
	return rep, nil
}

// readShoeStart reads a shoe's commitment, and its options when a
// configuration change had changed them.
func readShoeStart(rep *wire.ShoeReport, r *sabot.LogRecord) error {
	p, err := payload[tablelog.ShoeStart](r)
	if err != nil {
		return err
	}
	rep.Commitment, rep.Steps = p.Commitment, p.Steps
	if p.Options != nil {
		rep.Options = p.Options // a configuration change had changed them
	}
	return nil
}

// readShoeStep reads a shoe's step: who authorised its shuffle, who cut it
// and where (AR-07, EG-02).
func readShoeStep(rep *wire.ShoeReport, r *sabot.LogRecord) error {
	p, err := payload[tablelog.ShoeStep](r)
	if err != nil {
		return err
	}
	switch p.Step {
	case tablelog.StepAuthorise:
		rep.AuthorisedBy = p.By
	case tablelog.StepCut:
		rep.CutBy, rep.CutRole, rep.CutAt, rep.CutTimeout = p.By, p.Role, p.At, p.Timeout
	}
	return nil
}

// readReveal reads a shoe's seed, revealed once it was over.
func readReveal(rep *wire.ShoeReport, r *sabot.LogRecord) error {
	p, err := payload[tablelog.Reveal](r)
	if err != nil {
		return err
	}
	rep.Revealed, rep.Seed = true, p.Seed
	return nil
}
