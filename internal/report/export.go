package report

import (
	"encoding/csv"
	"io"
	"strconv"
	"strings"
	"time"
)

// TablesCSVHeader are the columns of the tables' CSV export (docs/pit.md):
// the JSON's fields, a row per table, per profile and the total (level).
var TablesCSVHeader = []string{"level", "from", "to", "table", "name", "profile", "physical", "test_mode", "rules", "tables",
	"rounds", "voids", "hands", "stakes", "initial_stakes", "drop", "cashout", "win", "hold_pct", "drop_hold_pct",
	"theo_win", "sigma", "band_low", "band_high", "z", "outside_band", "ledger_house_net",
	"rtp", "certified_rtp", "rtp_low", "rtp_high"}

// WriteTablesCSV writes the tables' report as CSV.
func WriteTablesCSV(w io.Writer, r *Tables) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(TablesCSVHeader); err != nil {
		return err
	}
	from, to := r.From.Format(time.RFC3339), r.To.Format(time.RFC3339)
	row := func(level string, x *TableResult) error {
		i := strconv.FormatInt
		f := func(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
		ledger := ""
		if x.LedgerHouseNet != nil {
			ledger = i(int64(*x.LedgerHouseNet), 10)
		}
		table := ""
		if x.Table != 0 {
			table = i(x.Table, 10)
		}
		// A test-mode table's rounds (forced cards allowed) are counted,
		// marked so; a profile's row and the total are no table's.
		testMode := ""
		if level == "table" {
			testMode = strconv.FormatBool(x.TestMode)
		}
		return cw.Write([]string{level, from, to, table, x.Name, x.Profile, strconv.FormatBool(x.Physical), testMode, strings.Join(x.Rules, " "),
			strconv.Itoa(x.Tables), i(x.Rounds, 10), i(x.Voids, 10), i(x.Hands, 10), i(int64(x.Stakes), 10), i(int64(x.Initial), 10),
			i(int64(x.Drop), 10), i(int64(x.Cashout), 10), i(int64(x.Win), 10), f(x.HoldPct), f(x.DropHoldPct),
			i(int64(x.Theo), 10), i(int64(x.Sigma), 10), i(int64(x.BandLow), 10), i(int64(x.BandHigh), 10), f(x.Z),
			strconv.FormatBool(x.Outside), ledger, f(x.RTP), f(x.CertifiedRTP), f(x.RTPLow), f(x.RTPHigh)})
	}
	for _, x := range r.Tables {
		if err := row("table", x); err != nil {
			return err
		}
	}
	for _, x := range r.Profiles {
		if err := row("profile", x); err != nil {
			return err
		}
	}
	if err := row("total", r.Total); err != nil {
		return err
	}
	cw.Flush()
	return cw.Error()
}

// PlayersCSVHeader are the columns of the players' CSV export
// (docs/pit.md): PlayerRating's JSON fields, tables separated by spaces.
var PlayersCSVHeader = []string{"from", "to", "player", "tables", "sessions", "seconds_played", "rounds", "initial_stakes",
	"avg_bet", "stakes", "theo_win", "win", "decisions", "errors", "error_cost", "unvalued_decisions",
	"cost_vs_basic", "bets_vs_count", "skill_theo"}

// WritePlayersCSV writes the players' report as CSV.
func WritePlayersCSV(w io.Writer, r *Players) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(PlayersCSVHeader); err != nil {
		return err
	}
	from, to := r.From.Format(time.RFC3339), r.To.Format(time.RFC3339)
	for _, x := range r.Players {
		i := func(v int64) string { return strconv.FormatInt(v, 10) }
		tables := make([]string, len(x.Tables))
		for k, t := range x.Tables {
			tables[k] = i(t)
		}
		if err := cw.Write([]string{from, to, x.Player, strings.Join(tables, " "), strconv.Itoa(x.Sessions), i(x.Seconds), i(x.Rounds),
			i(int64(x.Initial)), i(int64(x.AvgBet)), i(int64(x.Stakes)), i(int64(x.Theo)), i(int64(x.Win)),
			i(x.Decisions), i(x.Errors), i(int64(x.ErrorCost)), i(x.Unvalued), i(int64(x.CostVsBasic)), i(int64(x.BetsVsCount)), i(int64(x.SkillTheo))}); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}
