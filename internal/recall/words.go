package recall

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
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
	// Class keeps the events of one class (EventClasses; "": every one).
	Class string
}

// The classes of significant event, by which the pit filters the log
// (`sabot events --class`, `GET /api/admin/events?class=`).
const (
	ClassMoney      = "money"      // credits, walk-ins' chips, the operator's wallet
	ClassStaff      = "staff"      // administrators, dealers, inspectors, passwords, card readers
	ClassExclusions = "exclusions" // blocks, time-outs, self-exclusions, excluded players seen
	ClassAdvantage  = "advantage"  // the count watch's alerts: bets, index plays, back counting
	ClassTable      = "table"      // the table's own: opened, configured, voids, timeouts, shoes, corrections, its return
	ClassSystem     = "system"     // the cluster's nodes
)

// EventClasses are the classes of significant event, in the order the pit
// lists them.
var EventClasses = []string{ClassMoney, ClassStaff, ClassExclusions, ClassAdvantage, ClassTable, ClassSystem}

// adminClass is the class of each significant event written as a
// sabot.LogAdmin record, by its name (tablelog.Events; a test checks that
// every one has its class). The records of the other significant kinds
// are the table's own.
var adminClass = map[string]string{
	tablelog.EventCredit: ClassMoney, tablelog.EventBuyIn: ClassMoney, tablelog.EventCashOut: ClassMoney,
	tablelog.EventWalletRollback: ClassMoney, tablelog.EventWalletUndelivered: ClassMoney, tablelog.EventWalletRefused: ClassMoney,
	tablelog.EventWalletPaid: ClassMoney, tablelog.EventWalletResolved: ClassMoney,
	tablelog.EventAdminCreated: ClassStaff, tablelog.EventStaffCreated: ClassStaff, tablelog.EventPasswordChanged: ClassStaff,
	tablelog.EventDeviceIssued: ClassStaff, tablelog.EventDeviceRevoked: ClassStaff,
	tablelog.EventPlayerBlocked: ClassExclusions, tablelog.EventPlayerUnblocked: ClassExclusions, tablelog.EventTimeOut: ClassExclusions,
	tablelog.EventSelfExclusion: ClassExclusions, tablelog.EventExcludedSeen: ClassExclusions,
	tablelog.EventAdvantagePlay: ClassAdvantage, tablelog.EventIndexPlay: ClassAdvantage, tablelog.EventBackCounting: ClassAdvantage,
	tablelog.EventCorrectionAsked: ClassTable, tablelog.EventCorrectionApproved: ClassTable, tablelog.EventCorrectionRefused: ClassTable,
	tablelog.EventRuling: ClassTable, tablelog.EventForceCards: ClassTable, tablelog.EventNewShoe: ClassTable,
	tablelog.EventCloseTable: ClassTable, tablelog.EventReopenTable: ClassTable, tablelog.EventVoid: ClassTable,
	tablelog.EventTableCreated: ClassTable, tablelog.EventRTPOutside: ClassTable,
	tablelog.EventNodeJoined: ClassSystem, tablelog.EventNodeLost: ClassSystem,
}

// EventClass is the class of a significant event's record: an
// administrator's event by its name, any other significant kind the
// table's own.
func EventClass(r *sabot.LogRecord) string {
	if r.Kind != sabot.LogAdmin {
		return ClassTable
	}
	var p struct {
		Event string `json:"event"`
	}
	json.Unmarshal(r.Payload, &p)
	if c, ok := adminClass[p.Event]; ok {
		return c
	}
	return ClassTable
}

// maxClassScan bounds the records one filtered read of the log goes
// through looking for its class's events: past it, it answers what it
// found.
const maxClassScan = 100000

// Events reads the significant-event log (GLI-19): every table's voids,
// decisions applied by timeout, pit actions and configuration changes,
// and the credits, tables created and administrators created of the
// system log, the newest first (`GET /api/admin/events`, `sabot events`).
func Events(ctx context.Context, st Log, q EventQuery) ([]EventView, error) {
	if q.Class != "" && !slices.Contains(EventClasses, q.Class) {
		return nil, sabot.Errorf(sabot.EINVALID, "event class %q: give one of %s", q.Class, strings.Join(EventClasses, ", "))
	}
	lq := sabot.LogQuery{Kinds: sabot.SignificantKinds, TableID: q.Table, Since: q.Since, Limit: q.Limit, Newest: true}
	var recs []*sabot.LogRecord
	if q.Class == "" {
		var err error
		if recs, err = st.Find(ctx, lq); err != nil {
			return nil, err
		}
	} else {
		// A class other than the table's own is of administrators'
		// records only; the log is read a page at a time, newest first,
		// until Limit of the class are found or maxClassScan read.
		if q.Class != ClassTable {
			lq.Kinds = []string{sabot.LogAdmin}
		}
		lq.Limit = 500
		for scanned := 0; scanned < maxClassScan; {
			page, err := st.Find(ctx, lq)
			if err != nil {
				return nil, err
			}
			for _, r := range page {
				if EventClass(r) == q.Class && (q.Limit == 0 || len(recs) < q.Limit) {
					recs = append(recs, r)
				}
			}
			scanned += len(page)
			if len(page) < lq.Limit || (q.Limit > 0 && len(recs) >= q.Limit) {
				break
			}
			lq.Before = page[len(page)-1]
		}
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

// adminWords says an administrator's or the server's event: in the words
// of its entry in the registry of events (eventWords). Records written
// before an event carried its values (node, days…), and events of a name
// the registry has not, are said with their English text.
func adminWords(p wire.AdminEvent) []sabot.Phrase {
	if ev, ok := tablelog.EventOf(p); ok {
		if e := eventWords[reflect.TypeOf(ev)]; e.say != nil {
			if out := e.say(ev); out != nil {
				return out
			}
		}
	}
	return plainWords(p)
}

// plainWords say an event as it was written: its name, its values and its
// text, in English.
func plainWords(p wire.AdminEvent) []sabot.Phrase {
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

// An eventEntry is a significant event's words, for one type of event
// (tablelog.Event): say words an event of its type from its values (nil
// from say: one written before them, said as written); examples are events
// of that type as the server writes them, which the pit's catalogues must
// word (TestEventWordsInEveryLanguage). An entry without say (plain) is
// said as written, in English, always.
type eventEntry struct {
	typ      reflect.Type
	say      func(e tablelog.Event) []sabot.Phrase
	examples []tablelog.Event
}

// words is the entry of the events of type E: say words one, from the
// values its type has.
func words[E tablelog.Event](say func(p E) []sabot.Phrase, examples ...E) eventEntry {
	e := eventEntry{typ: reflect.TypeFor[E](), say: func(ev tablelog.Event) []sabot.Phrase { return say(ev.(E)) }}
	for _, x := range examples {
		e.examples = append(e.examples, x)
	}
	return e
}

// plain is the entry of the events of type E said as written.
func plain[E tablelog.Event]() eventEntry { return eventEntry{typ: reflect.TypeFor[E]()} }

// registry keys the entries by their event's type; a type given twice
// stops the server at its start.
func registry(entries ...eventEntry) map[reflect.Type]eventEntry {
	reg := make(map[reflect.Type]eventEntry, len(entries))
	for _, e := range entries {
		if _, ok := reg[e.typ]; ok {
			panic(fmt.Sprintf("recall's registry of events words %s twice", e.typ))
		}
		reg[e.typ] = e
	}
	return reg
}

// eventWords is the registry of the significant events' words, keyed by
// the event's type (tablelog.EventTypes): every event has its entry,
// checked at start (checkEventWords).
var eventWords = registry(
	words(func(p tablelog.Credit) []sabot.Phrase {
		out := []sabot.Phrase{sabot.Say("credit", fmt.Sprintf("credit %s %s", p.User, p.Amount), "user", p.User, "amount", int64(p.Amount))}
		if p.Memo != "" {
			out = append(out, sabot.Say("memo", ": "+p.Memo, "memo", p.Memo))
		}
		return out
	}, tablelog.Credit{User: "ana", Amount: 5000, Memo: "welcome"}),
	words(func(p tablelog.AdminCreated) []sabot.Phrase {
		return []sabot.Phrase{sabot.Say("adminCreated", "admin-created "+p.User, "user", p.User)}
	}, tablelog.AdminCreated{User: "root"}),
	words(func(p tablelog.StaffCreated) []sabot.Phrase {
		switch p.Role {
		case sabot.RoleDealer:
			return []sabot.Phrase{sabot.Say("staffDealer", "staff-created: "+p.Text, "user", p.User)}
		case sabot.RoleInspector:
			return []sabot.Phrase{sabot.Say("staffInspector", "staff-created: "+p.Text, "user", p.User)}
		}
		return nil
	}, tablelog.StaffCreated{User: "dora", Role: sabot.RoleDealer, Text: "dealer dora"},
		tablelog.StaffCreated{User: "ivo", Role: sabot.RoleInspector, Text: "inspector ivo"}),
	plain[tablelog.PasswordChanged](),
	words(func(p tablelog.PlayerBlocked) []sabot.Phrase {
		return []sabot.Phrase{sabot.Say("playerBlocked", "player-blocked: "+p.Text, "user", p.User, "by", p.By, "reason", p.Memo)}
	}, tablelog.PlayerBlocked{User: "ana", By: "pit", Memo: "collusion", Text: "ana blocked"}),
	words(func(p tablelog.PlayerUnblocked) []sabot.Phrase {
		return []sabot.Phrase{sabot.Say("playerUnblocked", "player-unblocked: "+p.Text, "user", p.User, "by", p.By, "reason", p.Memo)}
	}, tablelog.PlayerUnblocked{User: "ana", By: "pit", Memo: "cleared", Text: "ana unblocked"}),
	words(func(p tablelog.TimeOut) []sabot.Phrase { return exclusionWords(p.Admin()) }, tablelog.TimeOut{User: "ana", Days: 7, Until: "2026-01-08T00:00:00Z", Text: "7 days"}),
	words(func(p tablelog.SelfExclusion) []sabot.Phrase { return exclusionWords(p.Admin()) }, tablelog.SelfExclusion{User: "ana", Days: 180, Until: "2026-07-01T00:00:00Z", Text: "180 days"}),
	plain[tablelog.ExcludedSeen](),
	words(func(p tablelog.DeviceIssued) []sabot.Phrase {
		return []sabot.Phrase{sabot.Say("deviceIssued", "device-issued: "+p.Text, "device", p.Device, "name", p.Name, "table", p.Table)}
	}, tablelog.DeviceIssued{Device: 4, Name: "reader 1", Table: 2, Text: "reader 1"}),
	words(func(p tablelog.DeviceRevoked) []sabot.Phrase {
		return []sabot.Phrase{sabot.Say("deviceRevoked", "device-revoked: "+p.Text, "device", p.Device)}
	}, tablelog.DeviceRevoked{Device: 4, Text: "reader 1"}),
	words(func(p tablelog.CorrectionAsked) []sabot.Phrase {
		if x := p.Correction; x != nil {
			if x.Box > 0 && walkIn(x.Player) && (x.Case == wire.OpBuyIn || x.Case == wire.OpCashOut) { // by his box, as the console names him
				key := map[string]string{wire.OpBuyIn: "buyInAskedWalkIn", wire.OpCashOut: "cashOutAskedWalkIn"}[x.Case]
				return []sabot.Phrase{sabot.Say(key, "correction-asked: "+p.Text, "box", x.Box, "amount", int64(x.Amount), "asked", x.Asked)}
			}
			return []sabot.Phrase{sabot.Say("correctionAsked", "correction-asked: "+p.Text, "case", x.Case, "round", x.Round, "asked", x.Asked)}
		}
		return nil
	}, tablelog.CorrectionAsked{Text: "AR-23 (c)", Correction: &wire.CorrectionView{Case: "c", Round: 4, Asked: "dora"}}),
	words(func(p tablelog.CorrectionApproved) []sabot.Phrase {
		if x := p.Correction; x != nil {
			return []sabot.Phrase{sabot.Say("correctionApproved", "correction-approved: "+p.Text, "case", x.Case, "round", x.Round, "asked", x.Asked, "by", x.By)}
		}
		return nil
	}, tablelog.CorrectionApproved{Text: "AR-23 (d)", Correction: &wire.CorrectionView{Case: "d", Round: 4, Asked: "dora", By: "ivo"}}),
	words(func(p tablelog.CorrectionRefused) []sabot.Phrase {
		if x := p.Correction; x != nil {
			return []sabot.Phrase{sabot.Say("correctionRefused", "correction-refused: "+p.Text, "case", x.Case, "round", x.Round, "asked", x.Asked, "by", x.By)}
		}
		return nil
	}, tablelog.CorrectionRefused{Text: "AR-23 (c)", Correction: &wire.CorrectionView{Case: "c", Round: 4, Asked: "dora", By: "ivo"}}),
	words(func(p tablelog.BuyIn) []sabot.Phrase {
		if p.By != "" && p.Box > 0 && walkIn(p.User) { // the walk-in by his box, as the console names him
			return []sabot.Phrase{sabot.Say("buyInWalkIn", fmt.Sprintf("buy-in: walk-in, box %d buys %s in chips (by %s)", p.Box, p.Amount, p.By), "box", p.Box, "amount", int64(p.Amount), "by", p.By)}
		}
		if p.By != "" {
			return []sabot.Phrase{sabot.Say("buyIn", "buy-in: "+p.Text, "user", p.User, "amount", int64(p.Amount), "by", p.By)}
		}
		return nil
	}, tablelog.BuyIn{User: "walk-in-1", Amount: 10000, By: "dora", Text: "chips"}),
	words(func(p tablelog.CashOut) []sabot.Phrase {
		if p.By != "" && p.Box > 0 && walkIn(p.User) {
			return []sabot.Phrase{sabot.Say("cashOutWalkIn", fmt.Sprintf("cash-out: walk-in, box %d changes %s in chips back to cash (by %s)", p.Box, p.Amount, p.By), "box", p.Box, "amount", int64(p.Amount), "by", p.By)}
		}
		if p.By != "" {
			return []sabot.Phrase{sabot.Say("cashOut", "cash-out: "+p.Text, "user", p.User, "amount", int64(p.Amount), "by", p.By)}
		}
		return nil
	}, tablelog.CashOut{User: "walk-in-1", Amount: 10000, By: "dora", Text: "cash"}),
	words(func(p tablelog.Ruling) []sabot.Phrase {
		if p.By != "" {
			return []sabot.Phrase{sabot.Say("ruling", "ruling by "+p.By+": "+p.Text, "by", p.By, "text", p.Text)}
		}
		return nil
	}, tablelog.Ruling{By: "ivo", Text: "the round stands"}),
	words(func(p tablelog.WalletRollback) []sabot.Phrase { // a debit that does not count
		return []sabot.Phrase{sabot.Say("walletRollback", fmt.Sprintf("wallet-rollback: %s's debit %s of %s at table %d rolled back: %s", p.User, p.Memo, p.Amount, p.Table, p.Text),
			"user", p.User, "amount", int64(p.Amount), "table", p.Table, "call", p.Memo, "reason", p.Text)}
	}, tablelog.WalletRollback{User: "op:ana", Amount: 500, Table: 2, Memo: "d-1", Text: "timed out"}),
	words(func(p tablelog.WalletUndelivered) []sabot.Phrase {
		return []sabot.Phrase{sabot.Say("walletUndelivered", "wallet-undelivered: "+p.Text, "user", p.User, "amount", int64(p.Amount), "table", p.Table, "call", p.Memo)}
	}, tablelog.WalletUndelivered{User: "op:ana", Amount: 500, Table: 2, Memo: "c-1", Text: "unreachable"}),
	words(func(p tablelog.WalletRefused) []sabot.Phrase {
		return []sabot.Phrase{sabot.Say("walletRefused", "wallet-refused: "+p.Text, "user", p.User, "amount", int64(p.Amount), "table", p.Table, "call", p.Memo, "reason", p.Text)}
	}, tablelog.WalletRefused{User: "op:ana", Amount: 500, Table: 2, Memo: "c-1", Text: "refused"}),
	words(func(p tablelog.WalletPaid) []sabot.Phrase { // money owed, paid when sent again
		return []sabot.Phrase{sabot.Say("walletPaid", "wallet-paid: "+p.Text, "user", p.User, "amount", int64(p.Amount), "table", p.Table, "call", p.Memo)}
	}, tablelog.WalletPaid{User: "op:ana", Amount: 500, Table: 2, Memo: "c-1", Text: "paid"}),
	words(func(p tablelog.WalletResolved) []sabot.Phrase { // money owed, resolved by hand
		return []sabot.Phrase{sabot.Say("walletResolved", "wallet-resolved: "+p.Text, "user", p.User, "amount", int64(p.Amount), "table", p.Table, "call", p.Memo, "by", p.By, "reason", p.Text)}
	}, tablelog.WalletResolved{User: "op:ana", Amount: 500, Table: 2, Memo: "c-1", By: "pit", Text: "paid by hand"}),
	words(func(p tablelog.ForceCards) []sabot.Phrase {
		return []sabot.Phrase{sabot.Say("forceCards", fmt.Sprintf("force-cards %d cards", len(p.Cards)), "n", len(p.Cards))}
	}, tablelog.ForceCards{Cards: nil}),
	words(func(p tablelog.NewShoe) []sabot.Phrase {
		return []sabot.Phrase{sabot.Say("newShoe", "new-shoe: "+p.Text)}
	}, tablelog.NewShoe{Text: "asked by pit"}),
	words(func(p tablelog.CloseTable) []sabot.Phrase {
		switch {
		case p.By != "" && p.Table != 0: // 003 §11
			return []sabot.Phrase{sabot.Say("closeTableTo", "close-table: "+p.Text, "by", p.By, "table", p.Table)}
		case p.By != "":
			return []sabot.Phrase{sabot.Say("closeTable", "close-table: "+p.Text, "by", p.By)}
		}
		return nil
	}, tablelog.CloseTable{By: "pit", Table: 3, Text: "moved"}, tablelog.CloseTable{By: "pit", Text: "closed"}),
	words(func(p tablelog.ReopenTable) []sabot.Phrase {
		if p.User != "" {
			return []sabot.Phrase{sabot.Say("reopenTable", "reopen-table: "+p.Text, "user", p.User)}
		}
		return nil
	}, tablelog.ReopenTable{User: "pit", Text: "reopened"}),
	words(func(p tablelog.Void) []sabot.Phrase {
		return []sabot.Phrase{sabot.Say("pitVoid", fmt.Sprintf("void round %d: %s", p.Round, p.Text), "round", p.Round)}
	}, tablelog.Void{Round: 4, Text: "misdeal"}),
	words(func(p tablelog.NodeJoined) []sabot.Phrase {
		if p.Node != "" {
			return []sabot.Phrase{sabot.Say("nodeJoined", "node-joined: "+p.Text, "node", p.Node, "url", p.URL, "n", p.Tables)}
		}
		return nil
	}, tablelog.NodeJoined{Node: "b", URL: "http://b", Tables: 2, Text: "b"}),
	words(func(p tablelog.NodeLost) []sabot.Phrase {
		if p.Node != "" {
			return []sabot.Phrase{sabot.Say("nodeLost", "node-lost: "+p.Text, "node", p.Node, "url", p.URL, "n", p.Tables, "at", p.At)}
		}
		return nil
	}, tablelog.NodeLost{Node: "b", URL: "http://b", Tables: 2, At: "2026-01-01T00:00:00Z", Text: "b"}),
	words(func(p tablelog.TableCreated) []sabot.Phrase {
		if p.Name == "" {
			return nil
		}
		out := []sabot.Phrase{sabot.Say("tableCreated", fmt.Sprintf("table-created: table %d %q: %s", p.Table, p.Name, p.Profile), "table", p.Table, "name", p.Name, "profile", p.Profile)}
		out = append(out, optionWords(p.Options)...)
		if p.TestMode {
			out = append(out, sabot.Say("testMode", " (test mode)"))
		}
		return out
	}, tablelog.TableCreated{Table: 2, Name: "one", Profile: "es-ordinary", Options: map[string]string{"max_bet": "40000"}, TestMode: true, Text: "one"}),
	words(func(p tablelog.RTPOutside) []sabot.Phrase { // the pit's watch of a table's return (docs/pit.md)
		r := p.Return
		if r == nil {
			return nil
		}
		return []sabot.Phrase{sabot.Say("rtpOutside", "rtp-outside: "+p.Text, "table", p.Table, "n", r.Rounds, "rtp", 100*r.RTP, "low", 100*r.Low, "high", 100*r.High, "certified", 100*r.Certified, "z", r.Z)}
	}, tablelog.RTPOutside{Table: 2, Text: "outside", Return: &wire.ReturnValues{Rounds: 5000, RTP: 1.05, Low: 0.97, High: 1.02, Certified: 0.995, Z: 5.1}}),
	words(func(p tablelog.AdvantagePlay) []sabot.Phrase {
		if p.Count == nil {
			return nil
		}
		return []sabot.Phrase{sabot.Say("advantagePlay", "advantage-play: "+p.Text, "user", p.User, "table", p.Table, "n", p.Count.Rounds, "hilo", p.Count.HiLoZ, "hiopt", p.Count.HiOptIIZ)}
	}, tablelog.AdvantagePlay{User: "ana", Table: 2, Text: "counts", Count: &wire.CountValues{Rounds: 120, HiLoZ: 4.4, HiOptIIZ: 4.0}}),
	words(func(p tablelog.IndexPlay) []sabot.Phrase { // his play at the index hands follows the count
		c := p.Count
		if c == nil {
			return nil
		}
		return []sabot.Phrase{sabot.Say("indexPlay", "index-play: "+p.Text, "user", p.User, "table", p.Table, "n", c.Rounds, "said", c.Said,
			"took", c.DeviatedSaid, "other", c.DeviatedNotSay, "z", c.Z)}
	}, tablelog.IndexPlay{User: "ana", Table: 2, Text: "index", Count: &wire.CountValues{Rounds: 40, Said: 12, DeviatedSaid: 11, DeviatedNotSay: 1, Z: 4.2}}),
	words(func(p tablelog.BackCounting) []sabot.Phrase { // his back bets follow the count
		c := p.Count
		if c == nil {
			return nil
		}
		return []sabot.Phrase{sabot.Say("backCounting", "back-counting: "+p.Text, "user", p.User, "table", p.Table, "n", c.Rounds, "backed", c.Backed, "z", c.Z)}
	}, tablelog.BackCounting{User: "ben", Table: 2, Text: "backs", Count: &wire.CountValues{Rounds: 150, Backed: 30, Z: 4.1}}),
)

// exclusionWords say a player's time-out or self-exclusion.
func exclusionWords(p wire.AdminEvent) []sabot.Phrase {
	if p.Days <= 0 {
		return nil
	}
	return []sabot.Phrase{sabot.Say("exclusion", p.Event+" "+p.User+": "+p.Text, "user", p.User, "exclusion", p.Event, "n", p.Days, "until", p.Until)}
}

// checkEventWords says which of events has no entry in reg, which entry
// is of no event of them, and which entry's example has no words of its
// own.
func checkEventWords(reg map[reflect.Type]eventEntry, events []tablelog.Event) error {
	for _, ev := range events {
		e, ok := reg[reflect.TypeOf(ev)]
		if !ok {
			return fmt.Errorf("significant event %q (%T) has no words in recall's registry of events (internal/recall/words.go)", ev.EventName(), ev)
		}
		if e.say != nil && len(e.examples) == 0 {
			return fmt.Errorf("significant event %q: its words have no example", ev.EventName())
		}
		for _, x := range e.examples {
			if w := e.say(x); len(w) == 0 || w[0].Key == "" {
				return fmt.Errorf("significant event %q: its example is said as written, not in its words", ev.EventName())
			}
		}
	}
	for typ := range reg {
		if !slices.ContainsFunc(events, func(ev tablelog.Event) bool { return reflect.TypeOf(ev) == typ }) {
			return fmt.Errorf("recall's registry of events words %s, which is not one of tablelog.EventTypes", typ)
		}
	}
	return nil
}

func init() {
	if err := checkEventWords(eventWords, tablelog.EventTypes); err != nil {
		panic(err)
	}
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
