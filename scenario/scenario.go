// Package scenario plays forced-card rounds: the contract of `sabot
// scenario` (shared/spec/SCENARIOS.md). A scenario is one round with a known
// card order and a script of decisions, played through the real engine.
package scenario

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"sabot/card"
	"sabot/engine"
	"sabot/internal/profilefile"
	"sabot/money"
	"sabot/rules"
)

// Input is a scenario file. Unknown fields (such as "expect") are ignored.
type Input struct {
	Profile   string                     `json:"profile"`
	Options   map[string]json.RawMessage `json:"options"`
	Cards     json.RawMessage            `json:"cards"`
	Bets      []Bet                      `json:"bets"`
	Decisions []Decision                 `json:"decisions"`
}

// Bet is a bet placed before the deal.
type Bet struct {
	Player string `json:"player"`
	Box    int    `json:"box"`
	Stake  int64  `json:"stake"`
}

// Decision is one scripted decision.
type Decision struct {
	Player string `json:"player"`
	Box    int    `json:"box"`
	Hand   int    `json:"hand,omitempty"`
	Action string `json:"action"`
	Stake  *int64 `json:"stake,omitempty"`
	Value  *int   `json:"value,omitempty"`
}

// Output is the round's result as `sabot scenario` prints it.
type Output struct {
	Profile    string           `json:"profile"`
	Void       bool             `json:"void"`
	VoidReason string           `json:"void_reason,omitempty"`
	LastRound  bool             `json:"last_round,omitempty"`
	Dealer     DealerOut        `json:"dealer"`
	Hands      []HandOut        `json:"hands"`
	Bets       []BetOut         `json:"bets"`
	Net        map[string]int64 `json:"net"`
	House      int64            `json:"house"`
}

// DealerOut is the dealer's hand.
type DealerOut struct {
	Cards     []card.Card `json:"cards"`
	Total     int         `json:"total"`
	Blackjack bool        `json:"blackjack"`
	Bust      bool        `json:"bust"`
}

// HandOut is one player hand.
type HandOut struct {
	Box    int          `json:"box"`
	Hand   int          `json:"hand"`
	Cards  []card.Card  `json:"cards"`
	Total  int          `json:"total"`
	Result rules.Result `json:"result"`
}

// BetOut is one stake and its net.
type BetOut struct {
	Player string         `json:"player"`
	Box    int            `json:"box"`
	Hand   int            `json:"hand"`
	Kind   engine.BetKind `json:"kind"`
	Stake  int64          `json:"stake"`
	Net    int64          `json:"net"`
}

// ErrInput marks a scenario that is malformed or names something unknown;
// ErrRefused one whose bet or decision the rules refuse. Both are exit
// status 2 for the command.
var (
	ErrInput   = errors.New("scenario")
	ErrRefused = errors.New("refused")
)

func inputErr(format string, a ...any) error {
	return fmt.Errorf("%w: %s", ErrInput, fmt.Sprintf(format, a...))
}

// needs says what a scenario is, for a user whose file lacks it.
const needs = `a scenario is one JSON object with "profile", "cards", "bets" and "decisions" (shared/spec/SCENARIOS.md), e.g. ` +
	`{"profile": "venice", "cards": "TS 7C 9H KD", "bets": [{"player": "ana", "box": 1, "stake": 100}], "decisions": [{"player": "ana", "box": 1, "action": "stand"}]}`

// Parse decodes a scenario.
func Parse(data []byte) (*Input, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, inputErr("the input is empty: %s", needs)
	}
	var in Input
	d := json.NewDecoder(bytes.NewReader(data))
	if err := d.Decode(&in); err != nil {
		return nil, inputErr("malformed JSON: %v", err)
	}
	if d.More() {
		return nil, inputErr("malformed JSON: more than one value")
	}
	return &in, nil
}

// Profile resolves the scenario's profile and options. dir is the scenario
// file's folder, where a relative profile path is also looked for.
func (in *Input) ResolveProfile(dir string) (*rules.Profile, error) {
	if in.Profile == "" {
		return nil, inputErr("no profile: %s", needs)
	}
	p, err := rules.Lookup(in.Profile)
	if err != nil {
		path := in.Profile
		if _, statErr := os.Stat(path); statErr != nil && dir != "" && !filepath.IsAbs(path) {
			path = filepath.Join(dir, path)
		}
		if _, statErr := os.Stat(path); statErr != nil {
			return nil, inputErr("%v", err)
		}
		if p, err = profilefile.Load(path); err != nil {
			return nil, inputErr("%v", err)
		}
	}
	keys := make([]string, 0, len(in.Options))
	for k := range in.Options {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	set := make([]string, 0, len(keys))
	for _, k := range keys {
		v, err := optionText(in.Options[k])
		if err != nil {
			return nil, inputErr("option %s: %v", k, err)
		}
		set = append(set, k+"="+v)
	}
	// Override: options counted in cards follow a change of decks alone.
	if _, err := p.Override(set); err != nil {
		return nil, inputErr("%v", err)
	}
	return p, nil
}

func optionText(raw json.RawMessage) (string, error) {
	var v any
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	if err := d.Decode(&v); err != nil {
		return "", err
	}
	switch x := v.(type) {
	case string:
		return x, nil
	case bool:
		return strconv.FormatBool(x), nil
	case json.Number:
		return x.String(), nil
	}
	return "", fmt.Errorf("want a string, number or boolean")
}

// ParseCards reads the cards field: a string of codes or an array of codes.
func (in *Input) ParseCards() ([]card.Card, error) {
	if len(in.Cards) == 0 {
		return nil, inputErr("no cards: %s", needs)
	}
	var s string
	if err := json.Unmarshal(in.Cards, &s); err == nil {
		cs, err := card.ParseList(s)
		if err != nil {
			return nil, inputErr("cards: %v", err)
		}
		return cs, nil
	}
	var list []string
	if err := json.Unmarshal(in.Cards, &list); err != nil {
		return nil, inputErr("cards: want a string of card codes or an array of them")
	}
	cs := make([]card.Card, len(list))
	for i, code := range list {
		c, err := card.Parse(strings.TrimSpace(code))
		if err != nil {
			return nil, inputErr("cards: %v", err)
		}
		cs[i] = c
	}
	return cs, nil
}

// action converts a scripted decision.
func (d Decision) action(i int) (engine.Action, error) {
	k, ok := engine.ParseKind(d.Action)
	if !ok || k >= engine.Close {
		return engine.Action{}, inputErr("decision %d: unknown action %q (want hit, stand, double, split, surrender, insure, even-money, challenge or declare)", i, d.Action)
	}
	if d.Player == "" {
		return engine.Action{}, inputErr("decision %d: no player", i)
	}
	a := engine.Action{Kind: k, Player: d.Player, Box: d.Box, Hand: d.Hand}
	if a.Hand == 0 {
		a.Hand = 1
	}
	if d.Stake != nil {
		if *d.Stake <= 0 {
			return a, fmt.Errorf("%w: decision %d: %s box %d: a stake must be positive", ErrRefused, i, d.Player, d.Box)
		}
		a.Stake = money.Amount(*d.Stake)
	}
	switch k {
	case engine.Insure:
		if d.Stake == nil {
			return a, inputErr("decision %d: insure needs a stake", i)
		}
	case engine.Declare:
		if d.Value == nil {
			return a, inputErr("decision %d: declare needs a value, 1 or 11", i)
		}
		a.Value = *d.Value
	}
	return a, nil
}

// Run plays a scenario and returns its output. Errors wrap ErrInput or
// ErrRefused.
func Run(in *Input, p *rules.Profile) (*Output, error) {
	cards, err := in.ParseCards()
	if err != nil {
		return nil, err
	}
	var count [256]int
	for _, c := range cards {
		if count[c]++; count[c] > p.Decks {
			return nil, inputErr("cards: %v appears %d times, more than the %d deck(s) of %s hold (%s)", c, count[c], p.Decks, p.Name, p.Cite("AR-01, EG-01, FAM-01, VE-01", "decks"))
		}
	}
	r := engine.New(p)
	r.Reset(engine.NewForced(cards))
	if len(in.Bets) == 0 {
		return nil, inputErr("no bets: %s", needs)
	}
	for _, b := range in.Bets {
		if err := r.PlaceBet(b.Player, b.Box, money.Amount(b.Stake)); err != nil {
			return nil, fmt.Errorf("%w: %v", ErrRefused, err)
		}
	}
	if err := r.Start(); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrRefused, err)
	}
	for i, d := range in.Decisions {
		a, err := d.action(i + 1)
		if err != nil {
			return nil, err
		}
		for {
			if r.Phase() == engine.Done {
				return nil, fmt.Errorf("%w: decision %d (%s) is left unused: the round is over", ErrRefused, i+1, a)
			}
			if isWindow(r.Phase()) && !belongs(r, a) {
				r.Act(engine.Action{Kind: engine.Close}) // an optional window closes
				continue
			}
			break
		}
		if err := r.Act(a); err != nil {
			return nil, fmt.Errorf("%w: %v", ErrRefused, err)
		}
	}
	for r.Phase() != engine.Done {
		if !isWindow(r.Phase()) {
			box, hand := r.Current()
			return nil, fmt.Errorf("%w: the script ends but %s must decide for box %d hand %d", ErrRefused, r.Holder(box), box, hand)
		}
		r.Act(engine.Action{Kind: engine.Close})
	}
	return output(r), nil
}

func isWindow(ph engine.Phase) bool {
	switch ph {
	case engine.ChallengeWindow, engine.InsuranceWindow, engine.FollowWindow, engine.AceChoice:
		return true
	}
	return false
}

// belongs reports whether a decision answers the open window.
func belongs(r *engine.Round, a engine.Action) bool {
	switch r.Phase() {
	case engine.ChallengeWindow:
		return a.Kind == engine.Challenge
	case engine.InsuranceWindow:
		return a.Kind == engine.Insure || a.Kind == engine.EvenMoney
	case engine.FollowWindow:
		box, _ := r.Current()
		return (a.Kind == engine.Double || a.Kind == engine.Split) && a.Box == box && a.Player != r.Holder(box)
	case engine.AceChoice:
		box, hand := r.Current()
		return a.Kind == engine.Declare && a.Box == box && a.Hand == hand
	}
	return false
}

func output(r *engine.Round) *Output {
	p := r.Profile()
	d := r.Dealer()
	out := &Output{
		Profile:   p.Name,
		LastRound: r.LastRound(),
		Dealer: DealerOut{
			Cards:     append([]card.Card{}, d.Cards()...),
			Total:     d.Total(),
			Blackjack: d.Count.TwoCard21(),
			Bust:      d.Count.Bust(),
		},
		Hands: []HandOut{},
		Bets:  []BetOut{},
	}
	out.Void, out.VoidReason = r.Void()
	for _, box := range r.Boxes() {
		for i, h := range r.Hands(box) {
			out.Hands = append(out.Hands, HandOut{Box: box, Hand: i + 1, Cards: append([]card.Card{}, h.Cards()...), Total: h.Total(), Result: h.Result()})
		}
	}
	for _, b := range r.Bets() {
		out.Bets = append(out.Bets, BetOut{Player: b.Player, Box: b.Box, Hand: b.Hand, Kind: b.Kind, Stake: int64(b.Stake), Net: int64(b.Net)})
	}
	players, house := r.Net()
	out.Net, out.House = make(map[string]int64, len(players)), int64(house)
	for p, n := range players {
		out.Net[p] = int64(n)
	}
	return out
}
