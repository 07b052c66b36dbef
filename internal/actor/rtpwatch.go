package actor

import (
	"context"
	"fmt"
	"strconv"

	"github.com/prometheus/client_golang/prometheus"

	"sabot"
	"sabot/internal/report"
	"sabot/internal/tablelog"
	"sabot/internal/wire"
	"sabot/money"
)

// The return watched (docs/pit.md): each table's return to
// player since its actor started, against the exact figure of its rules,
// as metrics, and a significant event when it leaves the band
// (report.Watch). The rounds settled before its rules' figures are
// computed (seconds, once per rule set, in the background) are not
// watched.

type rtpMetrics struct {
	rtp, certified, z, rounds *prometheus.GaugeVec
}

func newRTPMetrics() *rtpMetrics {
	g := func(name, help string) *prometheus.GaugeVec {
		return prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: name, Help: help}, []string{"table"})
	}
	return &rtpMetrics{
		rtp: g("sabot_rtp", "A table's return to player since its node took it (1 − the house's win / the initial stakes), "+
			"the rounds watched (sabot serve --rtp-watch)."),
		certified: g("sabot_rtp_certified", "The exact return of the rules the watched rounds were dealt under (1 − the house edge, basic strategy)."),
		z: g("sabot_rtp_z", "The return's distance from the certified figure in standard deviations: "+
			"beyond ±4.5 from 1,000 rounds on is a significant event (rtp-outside)."),
		rounds: g("sabot_rtp_rounds", "Rounds watched since the node took the table."),
	}
}

func (m *rtpMetrics) collectors() []prometheus.Collector {
	return []prometheus.Collector{m.rtp, m.certified, m.z, m.rounds}
}

// watchRTP counts a settled round in the table's watch.
func (a *Table) watchRTP(ctx context.Context, pay *tablelog.Settle) {
	th := a.s.Theories // set by Open when RTPWatch
	if th == nil || pay.Void {
		return
	}
	t, ok := th.Cached(a.cfg.Profile, a.cfg.Options)
	if !ok {
		th.Warm(a.cfg.Profile, a.cfg.Options)
		return
	}
	boxes := map[int]money.Amount{}
	for _, b := range pay.Bets {
		if b.Kind == "main" {
			boxes[b.Box] += b.Stake
		}
	}
	stakes := make([]money.Amount, 0, len(boxes))
	for _, s := range boxes {
		stakes = append(stakes, s)
	}
	win := pay.House
	if pay.Bank != "" {
		win = pay.BankPaid["house"] // FAM-02: a player's bank's result is his
	}
	if a.rtp.Z == 0 {
		a.rtp.Z, a.rtp.MinRounds = a.s.RTPZ, a.s.RTPMinRounds // tests narrow the band
	}
	st := a.rtp.Add(t, stakes, win)
	id := strconv.FormatInt(a.created.ID, 10)
	m := a.s.Metrics.rtp
	m.rtp.WithLabelValues(id).Set(st.RTP)
	m.certified.WithLabelValues(id).Set(st.Certified)
	m.z.WithLabelValues(id).Set(st.Z)
	m.rounds.WithLabelValues(id).Set(float64(st.Rounds))
	if !st.Crossed {
		return
	}
	text := fmt.Sprintf("table %d's return to player is %.4f %% over %d rounds, outside %.4f %% to %.4f %% (the certified %.4f %%, %.1f standard deviations off)",
		a.created.ID, 100*st.RTP, st.Rounds, 100*st.Low, 100*st.High, 100*st.Certified, st.Z)
	ret := &wire.ReturnValues{Rounds: st.Rounds, RTP: st.RTP, Low: st.Low, High: st.High, Certified: st.Certified, Z: st.Z}
	if _, err := a.append(ctx, nil, sabot.LogAdmin, 0, tablelog.RTPOutside{Table: a.created.ID, Round: pay.Round, Text: text, Return: ret}, nil); err != nil {
		a.log.Error("rtp-outside not written", "err", err)
	}
	a.log.Warn("rtp-outside", "table", a.created.ID, "rtp", st.RTP, "certified", st.Certified, "z", st.Z, "rounds", st.Rounds)
}

// The count watched (docs/pit.md): each table's players'
// bets against the true count since its actor started (report.CountWatch),
// and an advantage-play significant event, once a player in the watch, when
// his score crosses report.LiveFlagZ. Forced rounds (test mode) are not
// watched: their cards are not the shoe's.

// watchCount counts a settled round in the table's count watch.
func (a *Table) watchCount(ctx context.Context, pay *tablelog.Settle) {
	if pay.Void || a.forcedRound {
		return
	}
	stakes := map[string]money.Amount{}
	for _, b := range pay.Bets {
		if b.Kind == "main" {
			stakes[b.Player] += b.Stake
		}
	}
	// a.p is still the rules the round was dealt under: a change of
	// configuration applies between rounds, after the settlement.
	for _, f := range a.count.Settled(a.p, a.roundPos, stakes, pay.Record) {
		var p tablelog.Event
		switch f.Kind {
		case report.FlagIndex: // his play at the index plays' hands follows the count
			x := f.Index
			p = tablelog.IndexPlay{Table: a.created.ID, User: f.Player, Round: pay.Round,
				Text: fmt.Sprintf("%s's play at the index hands follows the count at table %d: of his %d decisions there, %d at a count that called for the index play, which he took %d times then and %d otherwise; z = %.2f (flagged at %.1f)",
					f.Player, a.created.ID, x.Decisions, x.Said, x.DeviatedSaid, x.DeviatedNotSay, x.Z, report.LiveFlagZ),
				Count: &wire.CountValues{Rounds: x.Decisions, Said: x.Said, DeviatedSaid: x.DeviatedSaid, DeviatedNotSay: x.DeviatedNotSay, Z: x.Z}}
		case report.FlagBack: // his back bets follow the count
			x := f.Back
			p = tablelog.BackCounting{Table: a.created.ID, User: f.Player, Round: pay.Round,
				Text: fmt.Sprintf("%s's back bets follow the count at table %d: he bet behind in %d of the %d rounds of his shoes; z = %.2f (flagged at %.1f)",
					f.Player, a.created.ID, x.Backed, x.Rounds, x.Z, report.LiveFlagZ),
				Count: &wire.CountValues{Rounds: x.Rounds, Backed: x.Backed, Z: x.Z}}
		case report.FlagWong: // he plays at high counts and sits out at low ones
			x := f.Back
			p = tablelog.AdvantagePlay{Table: a.created.ID, User: f.Player, Round: pay.Round,
				Text: fmt.Sprintf("%s's presence follows the count at table %d: he played %d of the %d rounds of his shoes; z = %.2f (flagged at %.1f)",
					f.Player, a.created.ID, x.Backed, x.Rounds, x.Z, report.LiveFlagZ),
				Count: &wire.CountValues{Rounds: x.Rounds, Z: x.Z}}
		default: // report.FlagBets: his bets follow the count
			p = tablelog.AdvantagePlay{Table: a.created.ID, User: f.Player, Round: pay.Round,
				Text: fmt.Sprintf("%s's bets follow the count at table %d: over his %d rounds, Hi-Lo z = %.2f, Hi-Opt II z = %.2f (flagged at %.1f)",
					f.Player, a.created.ID, f.HiLo.N, f.HiLo.Z, f.HiOptII.Z, report.LiveFlagZ),
				Count: &wire.CountValues{Rounds: f.HiLo.N, HiLoZ: f.HiLo.Z, HiOptIIZ: f.HiOptII.Z}}
		}
		if _, err := a.append(ctx, nil, sabot.LogAdmin, 0, p, nil); err != nil {
			a.log.Error(p.EventName()+" not written", "err", err)
		}
		a.log.Warn(p.EventName(), "table", a.created.ID, "player", f.Player, "text", p.Admin().Text)
	}
}
