package recall

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"sabot"
	"sabot/internal/tablelog"
	"sabot/internal/wire"
	"sabot/money"
	"sabot/rules"
)

// The significant-event log (GLI-19) and the words of each kind of record.

// EventView is one entry of the significant-event log.
type EventView struct {
	Table   int64     `json:"table"` // the table whose log has it; the system log for credits and tables created
	Seq     int64     `json:"seq"`
	Kind    string    `json:"kind"` // table-opened, admin, configure, void, timeout
	At      time.Time `json:"at"`
	UserID  int64     `json:"user_id,omitempty"` // who did it; 0 for the server
	Round   int64     `json:"round,omitempty"`
	Summary string    `json:"summary"` // the event in a line, in English
	// Words are Summary in phrases, for a client to word in its language
	// (event.KEY of its catalogue; docs/protocol.md, "Words").
	Words   []sabot.Phrase  `json:"words"`
	Payload json.RawMessage `json:"payload"`
}

// EventQuery selects significant events: of one table (0: all), at or
// after Since, at most Limit (0: all), the newest first.
type EventQuery struct {
	Table int64
	Since time.Time
	Limit int
}

// Events reads the significant-event log (GLI-19): every table's voids,
// decisions applied by timeout, pit actions and configuration changes,
// and the credits, tables created and administrators created of the
// system log, the newest first (`GET /api/admin/events`, `sabot events`).
func Events(ctx context.Context, st Log, q EventQuery) ([]EventView, error) {
	recs, err := st.Find(ctx, sabot.LogQuery{Kinds: sabot.SignificantKinds, TableID: q.Table, Since: q.Since, Limit: q.Limit, Newest: true})
	if err != nil {
		return nil, err
	}
	out := make([]EventView, len(recs))
	for i, r := range recs {
		words := Words(r)
		out[i] = EventView{Table: r.TableID, Seq: r.Seq, Kind: r.Kind, At: r.Created, UserID: r.UserID, Round: r.RoundNo,
			Summary: sabot.Sentence(words), Words: words, Payload: r.Payload}
	}
	return out, nil
}

// Words say a record of a table's log in a line, in phrases a client words
// in its language (event.KEY of its catalogue; sabot.Phrase): a
// significant event in words of its kind's own (recall's table of kinds),
// any other by its kind's name.
func Words(r *sabot.LogRecord) []sabot.Phrase {
	if w := kinds[r.Kind].words; w != nil {
		return w(r)
	}
	return []sabot.Phrase{{Text: r.Kind}}
}

// sayAs is the words of a kind whose payload is a T, decoded as far as it
// goes.
func sayAs[T any](say func(T) []sabot.Phrase) func(*sabot.LogRecord) []sabot.Phrase {
	return func(r *sabot.LogRecord) []sabot.Phrase {
		var p T
		json.Unmarshal(r.Payload, &p)
		return say(p)
	}
}

// openedWords say a table opened.
func openedWords(p tablelog.Opened) []sabot.Phrase {
	say := sabot.Say
	out := append([]sabot.Phrase{say("opened", fmt.Sprintf("table %q opened: %s", p.Name, p.Profile), "name", p.Name, "profile", p.Profile)}, optionWords(p.Options)...)
	if p.TestMode {
		out = append(out, say("testMode", " (test mode)"))
	}
	return out
}

// configureWords say a configuration change, by whom and why, and the bets
// it returned.
func configureWords(p tablelog.Configure) []sabot.Phrase {
	say := sabot.Say
	out := ChangeWords(p)
	if p.Reason != "" {
		out = append(out, say("byFor", fmt.Sprintf(" (by %s: %s)", p.By, p.Reason), "by", p.By, "reason", p.Reason))
	} else {
		out = append(out, say("by", fmt.Sprintf(" (by %s)", p.By), "by", p.By))
	}
	for _, b := range p.Returned {
		if walkIn(b.Player) { // the walk-in by his box, as the console names him
			out = append(out, say("returnedWalkIn", fmt.Sprintf("; the bet of %s of the walk-in at box %d returned", b.Stake, b.Box), "stake", int64(b.Stake), "box", b.Box))
			continue
		}
		out = append(out, say("returned", fmt.Sprintf("; %s's bet of %s on box %d returned", b.Player, b.Stake, b.Box), "player", b.Player, "stake", int64(b.Stake), "box", b.Box))
	}
	return out
}

// voidWords say a void round, or a table out of service.
func voidWords(p tablelog.Settle) []sabot.Phrase {
	say := sabot.Say
	if p.Closed {
		return []sabot.Phrase{say("closed", "table out of service, every stake returned: "+p.Reason, "reason", p.Reason)}
	}
	out := []sabot.Phrase{say("void", fmt.Sprintf("round %d void, every stake returned", p.Round), "round", p.Round)}
	if p.Reason != "" {
		out = append(out, voidWhy(p.Reason))
	}
	return out
}

// timeoutWords say a decision applied when its time ran out.
func timeoutWords(p tablelog.Decision) []sabot.Phrase {
	say := sabot.Say
	a := p.Action
	if a.Player == "" || a.Box == 0 {
		return []sabot.Phrase{say("timeoutDealer", fmt.Sprintf("round %d: time ran out; the dealer applied %s", p.Round, a.Kind), "round", p.Round, "action", a.Kind)}
	}
	if walkIn(a.Player) { // the walk-in by his box, as the console names him
		return []sabot.Phrase{say("timeoutWalkIn", fmt.Sprintf("round %d: time ran out; walk-in, box %d hand %d: %s applied by default", p.Round, a.Box, max(a.Hand, 1), a.Kind),
			"round", p.Round, "box", a.Box, "hand", max(a.Hand, 1), "action", a.Kind)}
	}
	return []sabot.Phrase{say("timeout", fmt.Sprintf("round %d: time ran out; %s box %d hand %d: %s applied by default", p.Round, a.Player, a.Box, max(a.Hand, 1), a.Kind),
		"round", p.Round, "player", a.Player, "box", a.Box, "hand", max(a.Hand, 1), "action", a.Kind)}
}

// VoidReason is the reason key of the engine's voids (reason.KEY of the
// client's catalogue): the shoe ran out (AR-08), or ran out where the
// regulation has no rule for it and the profile's reading voids the round
// (rules.Profile.VoidText: void_cards_out_reading, its rule in VoidParams),
// the house stops the shoe at the cut card (EG-04); "" for any other.
func VoidReason(text string) string {
	switch {
	case strings.HasPrefix(text, "the cards ran out") && strings.HasSuffix(text, "(AR-08)"):
		return "void_cards_out"
	case strings.HasPrefix(text, "the cards ran out"):
		return "void_cards_out_reading"
	case strings.HasSuffix(text, "(EG-04)"):
		return "void_cut_card"
	}
	return ""
}

// VoidParams are the values of a void's reason (VoidReason): the rule a
// reading cites, where the text cites one; else nil.
func VoidParams(text string) map[string]any {
	if VoidReason(text) != "void_cards_out_reading" {
		return nil
	}
	rule := ""
	if i := strings.LastIndexByte(text, '('); i >= 0 && strings.HasSuffix(text, ")") {
		rule = text[i+1 : len(text)-1]
	}
	return map[string]any{"rule": rule}
}

// voidWhy says why a round was void: the engine's reasons by their key
// (VoidReason), any other (the pit's) as it was written.
func voidWhy(reason string) sabot.Phrase {
	if k := VoidReason(reason); k != "" {
		var kv []any
		for n, v := range VoidParams(reason) {
			kv = append(kv, n, v)
		}
		return sabot.Say("why."+k, ": "+reason, kv...)
	}
	return sabot.Say("why", ": "+reason, "reason", reason)
}

// adminWords says an administrator's or the server's event. Records
// written before an event carried its values (node, days…) are said with
// their English text.
func adminWords(p wire.AdminEvent) []sabot.Phrase {
	say := sabot.Say
	var out []sabot.Phrase
	switch {
	case p.Event == "credit":
		out = append(out, say("credit", fmt.Sprintf("credit %s %s", p.User, p.Amount), "user", p.User, "amount", int64(p.Amount)))
		if p.Memo != "" {
			out = append(out, say("memo", ": "+p.Memo, "memo", p.Memo))
		}
		return out
	case p.Event == "admin-created":
		return []sabot.Phrase{say("adminCreated", "admin-created "+p.User, "user", p.User)}
	case p.Event == "staff-created" && p.Role == sabot.RoleDealer:
		return []sabot.Phrase{say("staffDealer", "staff-created: "+p.Text, "user", p.User)}
	case p.Event == "staff-created" && p.Role == sabot.RoleInspector:
		return []sabot.Phrase{say("staffInspector", "staff-created: "+p.Text, "user", p.User)}
	case p.Event == "player-blocked":
		return []sabot.Phrase{say("playerBlocked", "player-blocked: "+p.Text, "user", p.User, "by", p.By, "reason", p.Memo)}
	case p.Event == "player-unblocked":
		return []sabot.Phrase{say("playerUnblocked", "player-unblocked: "+p.Text, "user", p.User, "by", p.By, "reason", p.Memo)}
	case p.Event == "device-issued":
		return []sabot.Phrase{say("deviceIssued", "device-issued: "+p.Text, "device", p.Device, "name", p.Name, "table", p.Table)}
	case p.Correction != nil && p.Event == "correction-asked":
		x := p.Correction
		return []sabot.Phrase{say("correctionAsked", "correction-asked: "+p.Text, "case", x.Case, "round", x.Round, "asked", x.Asked)}
	case p.Correction != nil && p.Event == "correction-approved":
		x := p.Correction
		return []sabot.Phrase{say("correctionApproved", "correction-approved: "+p.Text, "case", x.Case, "round", x.Round, "asked", x.Asked, "by", x.By)}
	case p.Correction != nil && p.Event == "correction-refused":
		x := p.Correction
		return []sabot.Phrase{say("correctionRefused", "correction-refused: "+p.Text, "case", x.Case, "round", x.Round, "asked", x.Asked, "by", x.By)}
	case p.Event == "buy-in" && p.By != "" && p.Box > 0 && walkIn(p.User): // the walk-in by his box, as the console names him
		return []sabot.Phrase{say("buyInWalkIn", fmt.Sprintf("buy-in: walk-in, box %d buys %s in chips (by %s)", p.Box, p.Amount, p.By), "box", p.Box, "amount", int64(p.Amount), "by", p.By)}
	case p.Event == "cash-out" && p.By != "" && p.Box > 0 && walkIn(p.User):
		return []sabot.Phrase{say("cashOutWalkIn", fmt.Sprintf("cash-out: walk-in, box %d changes %s in chips back to cash (by %s)", p.Box, p.Amount, p.By), "box", p.Box, "amount", int64(p.Amount), "by", p.By)}
	case p.Event == "buy-in" && p.By != "":
		return []sabot.Phrase{say("buyIn", "buy-in: "+p.Text, "user", p.User, "amount", int64(p.Amount), "by", p.By)}
	case p.Event == "cash-out" && p.By != "":
		return []sabot.Phrase{say("cashOut", "cash-out: "+p.Text, "user", p.User, "amount", int64(p.Amount), "by", p.By)}
	case p.Event == "ruling" && p.By != "":
		return []sabot.Phrase{say("ruling", "ruling by "+p.By+": "+p.Text, "by", p.By, "text", p.Text)}
	case p.Event == "wallet-rollback": // a debit that does not count
		return []sabot.Phrase{say("walletRollback", fmt.Sprintf("wallet-rollback: %s's debit %s of %s at table %d rolled back: %s", p.User, p.Memo, p.Amount, p.Table, p.Text),
			"user", p.User, "amount", int64(p.Amount), "table", p.Table, "call", p.Memo, "reason", p.Text)}
	case p.Event == "wallet-undelivered":
		return []sabot.Phrase{say("walletUndelivered", "wallet-undelivered: "+p.Text, "user", p.User, "amount", int64(p.Amount), "table", p.Table, "call", p.Memo)}
	case p.Event == "wallet-refused":
		return []sabot.Phrase{say("walletRefused", "wallet-refused: "+p.Text, "user", p.User, "amount", int64(p.Amount), "table", p.Table, "call", p.Memo, "reason", p.Text)}
	case p.Event == "wallet-paid": // money owed, paid when sent again
		return []sabot.Phrase{say("walletPaid", "wallet-paid: "+p.Text, "user", p.User, "amount", int64(p.Amount), "table", p.Table, "call", p.Memo)}
	case p.Event == "wallet-resolved": // money owed, resolved by hand
		return []sabot.Phrase{say("walletResolved", "wallet-resolved: "+p.Text, "user", p.User, "amount", int64(p.Amount), "table", p.Table, "call", p.Memo, "by", p.By, "reason", p.Text)}
	case p.Event == "device-revoked":
		return []sabot.Phrase{say("deviceRevoked", "device-revoked: "+p.Text, "device", p.Device)}
	case p.Event == "force-cards":
		return []sabot.Phrase{say("forceCards", fmt.Sprintf("force-cards %d cards", len(p.Cards)), "n", len(p.Cards))}
	case p.Event == "new-shoe":
		return []sabot.Phrase{say("newShoe", "new-shoe: "+p.Text)}
	case p.Event == "close-table" && p.By != "" && p.Table != 0: // 003 §11
		return []sabot.Phrase{say("closeTableTo", "close-table: "+p.Text, "by", p.By, "table", p.Table)}
	case p.Event == "close-table" && p.By != "":
		return []sabot.Phrase{say("closeTable", "close-table: "+p.Text, "by", p.By)}
	case p.Event == "reopen-table" && p.User != "":
		return []sabot.Phrase{say("reopenTable", "reopen-table: "+p.Text, "user", p.User)}
	case p.Event == "void":
		return []sabot.Phrase{say("pitVoid", fmt.Sprintf("void round %d: %s", p.Round, p.Text), "round", p.Round)}
	case p.Event == "node-joined" && p.Node != "":
		return []sabot.Phrase{say("nodeJoined", "node-joined: "+p.Text, "node", p.Node, "url", p.URL, "n", p.Tables)}
	case p.Event == "node-lost" && p.Node != "":
		return []sabot.Phrase{say("nodeLost", "node-lost: "+p.Text, "node", p.Node, "url", p.URL, "n", p.Tables, "at", p.At)}
	case p.Event == "table-created" && p.Name != "":
		out := append([]sabot.Phrase{say("tableCreated", fmt.Sprintf("table-created: table %d %q: %s", p.Table, p.Name, p.Profile), "table", p.Table, "name", p.Name, "profile", p.Profile)}, optionWords(p.Options)...)
		if p.TestMode {
			out = append(out, say("testMode", " (test mode)"))
		}
		return out
	case p.Event == "rtp-outside" && p.Return != nil: // the pit's watch of a table's return (docs/pit.md)
		r := p.Return
		return []sabot.Phrase{say("rtpOutside", "rtp-outside: "+p.Text, "table", p.Table, "n", r.Rounds, "rtp", 100*r.RTP, "low", 100*r.Low, "high", 100*r.High, "certified", 100*r.Certified, "z", r.Z)}
	case p.Event == "advantage-play" && p.Count != nil:
		return []sabot.Phrase{say("advantagePlay", "advantage-play: "+p.Text, "user", p.User, "table", p.Table, "n", p.Count.Rounds, "hilo", p.Count.HiLoZ, "hiopt", p.Count.HiOptIIZ)}
	case p.Event == "index-play" && p.Count != nil: // his play at the index hands follows the count
		c := p.Count
		return []sabot.Phrase{say("indexPlay", "index-play: "+p.Text, "user", p.User, "table", p.Table, "n", c.Rounds, "said", c.Said,
			"took", c.DeviatedSaid, "other", c.DeviatedNotSay, "z", c.Z)}
	case p.Event == "back-counting" && p.Count != nil: // his back bets follow the count
		c := p.Count
		return []sabot.Phrase{say("backCounting", "back-counting: "+p.Text, "user", p.User, "table", p.Table, "n", c.Rounds, "backed", c.Backed, "z", c.Z)}
	case (p.Event == "time-out" || p.Event == "self-exclusion") && p.Days > 0:
		return []sabot.Phrase{say("exclusion", p.Event+" "+p.User+": "+p.Text, "user", p.User, "exclusion", p.Event, "n", p.Days, "until", p.Until)}
	}
	// Any other event, or one written before its values were: as it was
	// written.
	parts := []string{p.Event}
	if p.User != "" {
		parts = append(parts, p.User)
	}
	if p.Amount != 0 {
		parts = append(parts, p.Amount.String())
	}
	if p.Round != 0 {
		parts = append(parts, fmt.Sprintf("round %d", p.Round))
	}
	if len(p.Cards) > 0 {
		parts = append(parts, fmt.Sprintf("%d cards", len(p.Cards)))
	}
	s := strings.Join(parts, " ")
	if p.Text != "" {
		s += ": " + p.Text
	} else if p.Memo != "" {
		s += ": " + p.Memo
	}
	return []sabot.Phrase{{Text: s}}
}

// walkIn reports whether a name is a walk-in's: a guest's account,
// "#TABLE-SEQ", which a registered name cannot be (live.IsWalkIn). The
// events name him by his box, as the dealer's console does.
func walkIn(name string) bool { return strings.HasPrefix(name, "#") }

// optionWords say a table's options, in the order of their names: an
// amount as money (max_bet=400.00), never its minor units, with the
// amount as a value the pit's page words in its language; others as they
// are.
func optionWords(opts map[string]string) []sabot.Phrase {
	var out []sabot.Phrase
	for _, k := range slices.Sorted(maps.Keys(opts)) {
		if a, ok := moneyValue(k, opts[k]); ok {
			out = append(out, sabot.Say("openOptionMoney", fmt.Sprintf(" %s=%s", k, a), "option", k, "amount", int64(a)))
		} else {
			out = append(out, sabot.Say("openOption", fmt.Sprintf(" %s=%s", k, opts[k]), "option", k, "value", opts[k]))
		}
	}
	return out
}

// moneyOptions are the options that are amounts in minor units (made on
// first use, not at start-up).
var moneyOptions = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, o := range rules.Options() {
		if o.Values == "integer (minor units)" {
			m[o.Key] = true
		}
	}
	return m
})

// moneyValue is an option's value as an amount, where the option is one
// (max_bet=40000 is 400.00).
func moneyValue(key, value string) (money.Amount, bool) {
	if !moneyOptions()[key] {
		return 0, false
	}
	var n int64
	if _, err := fmt.Sscan(value, &n); err != nil || fmt.Sprint(n) != value {
		return 0, false
	}
	return money.Amount(n), true
}

// ChangeWords says a configuration change in a line, for the players and
// the pit: the options changed (an empty value is the profile's), the bank
// and a new shoe.
func ChangeWords(p tablelog.Configure) []sabot.Phrase {
	out := []sabot.Phrase{sabot.Say("configure", "the table's configuration changed")}
	for _, k := range slices.Sorted(maps.Keys(p.Changed)) {
		if v := p.Changed[k]; v == "" {
			out = append(out, sabot.Say("optionReset", fmt.Sprintf("; %s: the profile's", k), "option", k))
		} else if a, ok := moneyValue(k, v); ok { // an amount as money, not minor units
			out = append(out, sabot.Say("optionMoney", fmt.Sprintf("; %s: %s", k, a), "option", k, "amount", int64(a)))
		} else {
			out = append(out, sabot.Say("option", fmt.Sprintf("; %s: %s", k, v), "option", k, "value", v))
		}
	}
	if p.Bank != nil {
		if *p.Bank == "" {
			out = append(out, sabot.Say("bankHouse", "; the bank goes to the house"))
		} else {
			out = append(out, sabot.Say("bankTo", "; the bank goes to "+*p.Bank+" (FAM-01)", "player", *p.Bank))
		}
	}
	if p.NewShoe {
		out = append(out, sabot.Say("configureShoe", "; a new shoe"))
	}
	return out
}

// ShoeStepWords say a new shoe's step (AR-07, EG-02).
func ShoeStepWords(p tablelog.ShoeStep) []sabot.Phrase { return shoeStepWords(p) }

// shoeStepWords say a new shoe's step (AR-07, EG-02): who authorised its
// shuffle, who cut it and where.
func shoeStepWords(p tablelog.ShoeStep) []sabot.Phrase {
	say := sabot.Say
	if p.Step == tablelog.StepAuthorise {
		return []sabot.Phrase{say("shoeAuthorised", fmt.Sprintf("shoe %d: the shuffle authorised by the %s %s", p.Shoe, p.Role, p.By),
			"shoe", p.Shoe, "role", p.Role, "by", p.By)}
	}
	if p.Timeout {
		return []sabot.Phrase{say("shoeCutTimeout", fmt.Sprintf("shoe %d: nobody cut within the table's window; the inspector's cut at %d cards", p.Shoe, p.At),
			"shoe", p.Shoe, "at", p.At)}
	}
	if p.Recorded != "" { // a physical shoe, cut by hand
		return []sabot.Phrase{say("shoeCutRecorded", fmt.Sprintf("shoe %d: cut by the %s %s, recorded by %s", p.Shoe, p.Role, p.By, p.Recorded),
			"shoe", p.Shoe, "role", p.Role, "by", p.By, "recorded", p.Recorded)}
	}
	return []sabot.Phrase{say("shoeCut", fmt.Sprintf("shoe %d: cut by the %s %s at %d cards", p.Shoe, p.Role, p.By, p.At),
		"shoe", p.Shoe, "role", p.Role, "by", p.By, "at", p.At)}
}
