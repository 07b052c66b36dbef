// Package webapi serves the endpoints that only the web client needs, beside
// the table server: a table's exact house edge, its basic strategy card, and
// its rules in plain words with the rule IDs' texts (docs/web.md). The
// client itself, the embedded files, is package web.
package webapi

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"sabot"
	"sabot/analysis"
	"sabot/card"
	"sabot/internal/chart"
	"sabot/internal/httpjson"
	"sabot/rules"
)

// Tables finds a table's configuration; sabot.Store satisfies it.
type Tables interface {
	TableByID(ctx context.Context, id int64) (*sabot.Table, error)
}

// API serves what the web client needs besides the table service. Mount
// each handler at its pattern (Register does it on a ServeMux):
//
//	GET  /api/tables/{id}/edge          the house edge and RTP of the table's rules
//	GET  /api/tables/{id}/strategy.svg  its basic strategy card
//	GET  /api/tables/{id}/rules         its rules in plain words, with the rule IDs' texts
//	GET  /api/tables/{id}/ev            the hand calculator: each action's value for a hand
//	GET  /api/tables/{id}/strategy      the basic strategy card's rows, for the client to draw
type API struct {
	Tables Tables
	// Cache holds the analyses by profile; nil uses package analysis' own.
	Cache *analysis.Cache

	// ClientKey names the client a request comes from, for the hand
	// calculator's budget per address (nil: the connection's address).
	ClientKey func(*http.Request) string
	// The hand calculator's bounds (calc.go): computations at once (0:
	// half the cores), how long a request waits for one, and each client
	// address's computing time at once and share of a core after; zero
	// takes the default.
	CalcSlots int
	CalcWait  time.Duration
	CalcBurst time.Duration
	CalcShare float64

	mu  sync.Mutex
	svg map[string][]byte // strategy cards by profile hash

	calcOnce sync.Once
	calc     *calcGuard
}

// Register mounts the API's handlers on mux.
func (a *API) Register(mux *http.ServeMux) {
	mux.Handle("GET /api/tables/{id}/edge", a.Edge())
	mux.Handle("GET /api/tables/{id}/strategy.svg", a.Strategy())
	mux.Handle("GET /api/tables/{id}/rules", a.Rules())
	mux.Handle("GET /api/tables/{id}/ev", a.EV())
	mux.Handle("GET /api/tables/{id}/strategy", a.StrategyRows())
}

// profile returns the rules of the table the request names.
func (a *API) profile(r *http.Request) (*sabot.Table, *rules.Profile, error) {
	s := r.PathValue("id")
	if s == "" { // mounted without the pattern: /api/tables/{id}/…
		parts := strings.Split(strings.TrimPrefix(r.URL.Path, "/api/tables/"), "/")
		s = parts[0]
	}
	id, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return nil, nil, sabot.Errorf(sabot.EINVALID, "%q is not a table ID", s)
	}
	if a.Tables == nil {
		return nil, nil, sabot.Errorf(sabot.EINTERNAL, "no tables")
	}
	t, err := a.Tables.TableByID(r.Context(), id)
	if err != nil {
		return nil, nil, err
	}
	if t.IsEventLog() {
		return nil, nil, sabot.Errorf(sabot.ENOTFOUND, "no table %d", id)
	}
	p, err := t.Rules()
	return t, p, err
}

func (a *API) analyze(ctx context.Context, p *rules.Profile) (*analysis.Result, error) {
	res, err := analysis.Analyze(ctx, p, analysis.Options{Cache: a.Cache})
	if err != nil {
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return nil, sabot.Errorf(sabot.ECONFLICT, "the analysis was cancelled")
		}
		if errors.Is(err, rules.ErrInvalid) {
			return nil, sabot.Errorf(sabot.EINVALID, "%v", err)
		}
		return nil, sabot.Internal(err)
	}
	return res, nil
}

// Edge is one table's exact house edge (package analysis: every hand off the
// top of a full shoe, one player alone at the table).
type Edge struct {
	Table   int64  `json:"table"`
	Profile string `json:"profile"`
	Hash    string `json:"hash"`
	Decks   int    `json:"decks"`
	// Basic is total-dependent basic strategy, Best composition-dependent play.
	Basic EdgeFigures `json:"basic"`
	Best  EdgeFigures `json:"best"`
	// InsuranceEV is insurance's return per unit insured off the top, for a
	// player holding no ten; omitted where the table has no insurance.
	InsuranceEV *float64 `json:"insurance_ev,omitempty"`
	Method      string   `json:"method"`
}

// EdgeFigures are a strategy's figures per unit of initial bet.
type EdgeFigures struct {
	HouseEdge float64 `json:"house_edge"`
	RTP       float64 `json:"rtp"`
	EV        float64 `json:"ev"`
}

// Edge serves GET /api/tables/{id}/edge. The first request for a profile
// computes it (about a second); later ones come from the cache.
func (a *API) Edge() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t, p, err := a.profile(r)
		if err != nil {
			httpjson.WriteError(w, err)
			return
		}
		res, err := a.analyze(r.Context(), p)
		if err != nil {
			httpjson.WriteError(w, err)
			return
		}
		e := Edge{Table: t.ID, Profile: p.Name, Hash: res.Hash, Decks: p.Decks,
			Basic:  EdgeFigures{res.TD.HouseEdge, res.TD.RTP, res.TD.EV},
			Best:   EdgeFigures{res.CD.HouseEdge, res.CD.RTP, res.CD.EV},
			Method: "exact analysis off the top of a full shoe, one player alone at the table"}
		if p.Insurance {
			ev := res.InsuranceEV
			e.InsuranceEV = &ev
		}
		w.Header().Set("Cache-Control", "max-age=300")
		httpjson.Write(w, http.StatusOK, e)
	})
}

// Strategy serves GET /api/tables/{id}/strategy.svg: the basic strategy card
// of the table's rules (package chart's drawing, as `sabot strategy`).
func (a *API) Strategy() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, p, err := a.profile(r)
		if err != nil {
			httpjson.WriteError(w, err)
			return
		}
		key := p.GameHash()
		a.mu.Lock()
		b, ok := a.svg[key]
		a.mu.Unlock()
		if !ok {
			res, err := a.analyze(r.Context(), p)
			if err != nil {
				httpjson.WriteError(w, err)
				return
			}
			card := *res.Basic
			card.Profile = p.Name
			var buf bytes.Buffer
			if err := chart.Write(&buf, &card, "svg"); err != nil {
				httpjson.WriteError(w, sabot.Internal(err))
				return
			}
			b = buf.Bytes()
			a.mu.Lock()
			if a.svg == nil {
				a.svg = map[string][]byte{}
			}
			a.svg[key] = b
			a.mu.Unlock()
		}
		w.Header().Set("Content-Type", "image/svg+xml")
		w.Header().Set("Cache-Control", "max-age=300")
		w.Write(b)
	})
}

// TableRules is a table's rules in plain words.
type TableRules struct {
	Table       int64  `json:"table"`
	Profile     string `json:"profile"`
	Description string `json:"description"`
	// Values is every option's value, by its key.
	Values map[string]string `json:"values"`
	Lines  []RuleLine        `json:"lines"`
	// Readings are the interpretations the profile takes where its seed is
	// silent or ambiguous.
	Readings []RuleLine `json:"readings"`
	// Departures are the option values of the table that break a rule of
	// its own regulation (rules.Departure), each with the rule's words;
	// absent at a table that keeps every value its regulation fixes.
	Departures []Departure `json:"departures,omitempty"`
}

// Departure is an option value of the table that breaks a rule of its own
// regulation: the rule (with its words), the option, the table's value,
// what the regulation asks, and the whole in a line (Text).
type Departure struct {
	Rule   RuleRef `json:"rule"`
	Option string  `json:"option"`
	Value  string  `json:"value"`
	Want   string  `json:"want"`
	Text   string  `json:"text"`
}

// RuleLine is one rule of the table in a sentence, with the options that
// set it and the regulations' rules it follows.
type RuleLine struct {
	Topic string `json:"topic"`
	// Key names the topic for a client's catalogue (topic.KEY); a
	// reading's is its rule ID.
	Key  string `json:"key"`
	Text string `json:"text"`
	// Phrases are Text in pieces, for a client to word in its language:
	// Text is their texts one after the other.
	Phrases []sabot.Phrase `json:"phrases"`
	Options []string       `json:"options,omitempty"`
	Rules   []RuleRef      `json:"rules,omitempty"`
}

// RuleRef is a rule ID with its wording.
type RuleRef struct {
	ID   string `json:"id"`
	Text string `json:"text"`
	// Seed is the rule in its regulation's own words (Spanish or Italian),
	// beside Text, the project's English wording; absent where the rule has
	// none quoted.
	Seed *SeedText `json:"seed,omitempty"`
	// Departs says, where the table departs from this rule, how: one line
	// a departure (Departure.Text).
	Departs []string `json:"departs,omitempty"`
}

// Rules serves GET /api/tables/{id}/rules.
func (a *API) Rules() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t, p, err := a.profile(r)
		if err != nil {
			httpjson.WriteError(w, err)
			return
		}
		httpjson.Write(w, http.StatusOK, PlainRules(t.ID, p))
	})
}

// EV serves GET /api/tables/{id}/ev?up=CARD&hand=CARDS[&removed=CARDS][&split_hands=N][&split_play=cdz|cdp1|cdp|exact][&o=key=value]…:
// the exact value of each action open to the hand against the up card under
// the table's rules changed by the o options (as sabot's -o), from its full
// shoe less the up card, the hand and the removed cards
// (analysis.HandValues, as `sabot ev --json`). Cards are ranks (A 2-9 T J Q
// K, or 10), with or without a suit, separated by commas. The work is
// bounded (calc.go): 400 for a query or options out of bounds, 429 when the
// client's address has spent its computing time, 503 when every slot is
// busy.
func (a *API) EV() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if len(r.URL.RawQuery) > MaxEVQuery {
			httpjson.WriteError(w, sabot.Errorf(sabot.EINVALID, "the query is %d bytes long, at most %d", len(r.URL.RawQuery), MaxEVQuery))
			return
		}
		_, p, err := a.profile(r)
		if err != nil {
			httpjson.WriteError(w, err)
			return
		}
		q := r.URL.Query()
		opts, err := evOptions(q["o"])
		if err == nil && len(opts) > 0 {
			p = p.Clone()
			if err = p.SetAll(opts); err != nil {
				err = fmt.Errorf("o: %v", err)
			}
		}
		var up []card.Card
		if err == nil {
			up, err = analysis.ParseRanks(q.Get("up"))
		}
		if err == nil && len(up) != 1 {
			err = fmt.Errorf("up: one card, not %d", len(up))
		}
		var hand, removed []card.Card
		if err == nil {
			hand, err = analysis.ParseRanks(q.Get("hand"))
		}
		if err == nil {
			removed, err = analysis.ParseRanks(q.Get("removed"))
		}
		n := 0
		if err == nil && q.Get("split_hands") != "" {
			n, err = strconv.Atoi(q.Get("split_hands"))
		}
		var sp analysis.SplitPlay
		if err == nil {
			sp, err = analysis.ParseSplitPlay(q.Get("split_play"))
		}
		if err != nil {
			httpjson.WriteError(w, sabot.Errorf(sabot.EINVALID, "%v", err))
			return
		}
		key := remoteKey(r)
		if a.ClientKey != nil {
			key = a.ClientKey(r)
		}
		var v *analysis.Values
		if gerr := a.guard().run(r.Context(), key, func() {
			v, err = analysis.HandValues(p, up[0], hand, analysis.EVOptions{Removed: removed, SplitHands: n, SplitPlay: sp})
		}); gerr != nil {
			if errors.Is(gerr, context.Canceled) || errors.Is(gerr, context.DeadlineExceeded) {
				gerr = sabot.Errorf(sabot.ECONFLICT, "the request was cancelled")
			}
			httpjson.WriteError(w, gerr)
			return
		}
		if err != nil {
			if errors.Is(err, analysis.ErrHand) || errors.Is(err, rules.ErrInvalid) {
				err = sabot.Errorf(sabot.EINVALID, "%v", err)
			} else {
				err = sabot.Internal(err)
			}
			httpjson.WriteError(w, err)
			return
		}
		w.Header().Set("Cache-Control", "max-age=300")
		httpjson.Write(w, http.StatusOK, v)
	})
}

// StrategyCard is the basic strategy card as rows, for a client that draws
// it and shows each cell's values (EV) on hover.
type StrategyCard struct {
	Profile string `json:"profile"`
	// Ups are the dealer's up cards across the card: 2 to 9, T, A.
	Ups  []string      `json:"ups"`
	Rows []StrategyRow `json:"rows"`
}

// StrategyRow is one row: its kind (hard, soft, pair, tenace), its label,
// a two-card hand it stands for (what EV values), and its action codes in
// the order of Ups (docs/strategy-csv.md).
type StrategyRow struct {
	Kind  string   `json:"kind"`
	Label string   `json:"label"`
	Hand  string   `json:"hand"`
	Codes []string `json:"codes"`
}

// StrategyRows serves GET /api/tables/{id}/strategy: the card of
// /strategy.svg as rows.
func (a *API) StrategyRows() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, p, err := a.profile(r)
		if err != nil {
			httpjson.WriteError(w, err)
			return
		}
		res, err := a.analyze(r.Context(), p)
		if err != nil {
			httpjson.WriteError(w, err)
			return
		}
		out := StrategyCard{Profile: p.Name}
		for _, k := range analysis.UpOrder {
			out.Ups = append(out.Ups, analysis.UpName(k))
		}
		for _, row := range res.Basic.Rows {
			hand, label := rowHand(row.Kind, row.Player)
			if hand == "" {
				continue
			}
			sr := StrategyRow{Kind: row.Kind, Label: label, Hand: hand}
			for _, k := range analysis.UpOrder {
				sr.Codes = append(sr.Codes, row.Cell(k).String())
			}
			out.Rows = append(out.Rows, sr)
		}
		w.Header().Set("Cache-Control", "max-age=300")
		httpjson.Write(w, http.StatusOK, out)
	})
}

// rowHand is a two-card hand a row stands for (three cards for a hard 20,
// which two cards make only as a pair) and the row's label; "" for the
// others (VE-13's split ten with an Ace, the rows of three cards or more).
func rowHand(kind, player string) (hand, label string) {
	switch kind {
	case analysis.KindPair:
		return player + "," + player, player + "," + player
	}
	t, err := strconv.Atoi(player)
	if err != nil {
		return "", ""
	}
	switch {
	case kind == analysis.KindSoft && t >= 13 && t <= 20:
		return fmt.Sprintf("A,%d", t-11), fmt.Sprintf("A,%d", t-11)
	case kind != analysis.KindHard:
		return "", ""
	case t >= 5 && t <= 11:
		return fmt.Sprintf("2,%d", t-2), player
	case t >= 12 && t <= 19:
		return fmt.Sprintf("T,%d", t-10), player
	case t == 20:
		return "T,5,5", player
	}
	return "", ""
}
