package web

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"sabot/engine"
	"sabot/internal/wire"
)

// The web client is held to the wire's names, as
// TestMoneyOptions holds it to the money options: the ops it sends, the
// event kinds it switches on and the dealer's calls its catalogues word
// are the Go constants of internal/wire, and every event kind the server
// sends has a case in state.js or is listed here as left alone.

// jsFile is one of the client's modules, as embedded.
func jsFile(t *testing.T, name string) string {
	t.Helper()
	b, err := static.ReadFile("static/js/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// opSenders find the op a module sends, by the call that sends it: the
// console's and the pit's command(...) and their buttons' helpers, the
// table's run(...), the prompt's send(row, ...), an object's op field
// (the betting plan, the socket's heartbeat), a comparison of op.
var opSenders = map[string][]*regexp.Regexp{
	"console.js": {regexp.MustCompile(`\bcommand\('([a-z-]+)'`), regexp.MustCompile(`\bb\('([a-z-]+)'`)},
	"pit.js":     {regexp.MustCompile(`\bcommand\([^,()]+, '([a-z-]+)'`), regexp.MustCompile(`\bact\('([a-z-]+)'`), regexp.MustCompile(`\bop === '([a-z-]+)'`)},
	"betting.js": {regexp.MustCompile(`\brun\('([a-z-]+)'`), regexp.MustCompile(`[{,] op: '([a-z-]+)'`), regexp.MustCompile(`\.op === '([a-z-]+)'`)},
	"table.js":   {regexp.MustCompile(`\brun\('([a-z-]+)'`), regexp.MustCompile(`\bop === '([a-z-]+)'`)},
	"prompt.js":  {regexp.MustCompile(`\bsend\(row, '([a-z-]+)'`)},
	"socket.js":  {regexp.MustCompile(`[{,] op: '([a-z-]+)'`)},
}

// notSentByThePage are the ops the web client has no button for, and
// why.
var notSentByThePage = map[string]string{
	wire.OpForceCards: "test mode: the tests force cards through the API",
	wire.OpCutShoe:    "a new shoe's steps (player_cut): sent through the API, the page shows the shoe waiting",
}

// Every op the client sends is one of wire's; every one of wire's is sent
// by the client or listed as not sent by it.
func TestClientOpsAreWires(t *testing.T) {
	known := map[string]bool{wire.OpSnapshot: true, wire.OpPing: true}
	for _, op := range wire.Ops() {
		known[op] = true
	}
	sent := map[string]bool{}
	for file, res := range opSenders {
		src := jsFile(t, file)
		n := 0
		for _, re := range res {
			for _, m := range re.FindAllStringSubmatch(src, -1) {
				n++
				if !known[m[1]] {
					t.Errorf("%s sends op %q, which internal/wire does not name", file, m[1])
				}
				sent[m[1]] = true
			}
		}
		if n == 0 {
			t.Errorf("%s: no op found: the patterns no longer match how it sends commands", file)
		}
	}
	for _, op := range wire.Ops() {
		_, listed := notSentByThePage[op]
		switch {
		case !sent[op] && !listed:
			t.Errorf("the web client sends no %s: give it a button, or list it in notSentByThePage", op)
		case sent[op] && listed:
			t.Errorf("the web client sends %s, which notSentByThePage lists", op)
		}
	}
	if !sent[wire.OpPing] {
		t.Errorf("socket.js sends no %s heartbeat", wire.OpPing)
	}
}

// kindCases are the cases of the switches on an event's kind in src, at
// the switch's own level (a switch nested in one, on an action's name, is
// not the event's).
func kindCases(t *testing.T, file, src string) []string {
	t.Helper()
	var out []string
	caseRe := regexp.MustCompile(`^case '([a-z-]+)':`)
	for _, at := range regexp.MustCompile(`switch \(e\.kind\) \{`).FindAllStringIndex(src, -1) {
		depth := 1
		for i := at[1]; i < len(src) && depth > 0; i++ {
			switch src[i] {
			case '{':
				depth++
			case '}':
				depth--
			case 'c':
				if depth == 1 {
					if m := caseRe.FindStringSubmatch(src[i:min(i+60, len(src))]); m != nil {
						out = append(out, m[1])
					}
				}
			}
		}
	}
	if len(out) == 0 {
		t.Fatalf("%s: no switch on e.kind found", file)
	}
	return out
}

// kindTests are the event kinds a module compares an event's kind to:
// e.kind === 'x', and ['x', 'y'].includes(e.kind).
func kindTests(src string) []string {
	var out []string
	for _, m := range regexp.MustCompile(`\b(?:e|x)\.kind === '([a-z-]+)'`).FindAllStringSubmatch(src, -1) {
		out = append(out, m[1])
	}
	for _, m := range regexp.MustCompile(`\[([^\[\]]*)\]\.includes\(e\.kind\)`).FindAllStringSubmatch(src, -1) {
		for _, q := range regexp.MustCompile(`'([a-z-]+)'`).FindAllStringSubmatch(m[1], -1) {
			out = append(out, q[1])
		}
	}
	return out
}

// leftAlone are the event kinds state.js has no case for, and why: the
// table's view (the snapshot) or another part of the page shows them.
var leftAlone = map[string]string{
	wire.EvNeed:       "a physical shoe's: the dealer's console reads the table's view, the player's felt the cards",
	wire.EvCorrection: "the inspector's console reads the corrections from the table's view",
	wire.EvRuling:     "written in the pit's significant events",
	wire.EvShoeStep:   "the shoe's steps show in the table's view (shoe.await)",
}

// Every event kind the client switches on or compares to is one of the
// server's; every kind the server sends has a case in state.js (which
// applies events to the page's table) or is listed as left alone.
func TestClientEventKindsAreWires(t *testing.T) {
	known := map[string]bool{}
	for _, k := range wire.EventKinds() {
		known[k] = true
	}
	applied := map[string]bool{}
	for _, file := range []string{"state.js", "fx.js", "betting.js", "history.js", "table.js", "recall.js"} {
		src := jsFile(t, file)
		kinds := kindTests(src)
		if strings.Contains(src, "switch (e.kind)") {
			cases := kindCases(t, file, src)
			kinds = append(kinds, cases...)
			if file == "state.js" {
				for _, k := range cases {
					applied[k] = true
				}
			}
		}
		if len(kinds) == 0 {
			t.Errorf("%s: no event kind found: the patterns no longer match how it reads events", file)
		}
		for _, k := range kinds {
			if !known[k] {
				t.Errorf("%s reads an event of kind %q, which the server never sends (wire.EventKinds)", file, k)
			}
		}
	}
	for _, k := range wire.EventKinds() {
		_, alone := leftAlone[k]
		switch {
		case !applied[k] && !alone:
			t.Errorf("state.js has no case for a %q event: apply it, or list it in leftAlone", k)
		case applied[k] && alone:
			t.Errorf("state.js applies a %q event, which leftAlone lists", k)
		}
	}
}

// The dealer's calls the catalogues word by name (call.NAME, lower case)
// are an event's kind or a decision's action (state.js: 'call.' +
// a.action), in every language; follow and pass are a back bet's and a
// window's.
func TestCatalogueCallsAreWires(t *testing.T) {
	calls := map[string]bool{"follow": true, "pass": true}
	for _, k := range wire.EventKinds() {
		calls[k] = true
	}
	callRe := regexp.MustCompile(`'call\.([a-z][a-z-]*)'\s*:`)
	for _, lang := range []string{"en", "es", "it"} {
		src := jsFile(t, "i18n/"+lang+".js")
		var found []string
		for _, m := range callRe.FindAllStringSubmatch(src, -1) {
			found = append(found, m[1])
			if _, isAction := engine.ParseKind(m[1]); !calls[m[1]] && !isAction {
				t.Errorf("i18n/%s.js: call.%s is no event kind and no action", lang, m[1])
			}
		}
		for _, k := range []string{wire.EvSit, wire.EvLeave, wire.EvBet, wire.EvDeal, wire.EvCard} {
			if !slices.Contains(found, k) {
				t.Errorf("i18n/%s.js words no call.%s", lang, k)
			}
		}
	}
}
