package specop_test

import (
	"strings"
	"testing"

	"sabot/internal/wallet/specop"
)

// The spec's schemas take the messages sabot sends now and refuse those it
// sent before the wallet protocol was tightened: a credit of 0 with no amount, the debit kind
// "insure", a rollback with no round, an unknown field.
func TestSpecSchemas(t *testing.T) {
	spec, err := specop.Load("../../../docs/wallet.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(spec.Ops(), " "); got != "authenticate balance credit debit rollback" {
		t.Fatalf("operations %q", got)
	}
	const head = `"transaction_id":"x-1","timestamp":"2026-11-26T17:00:00Z","attempt":1,"player":"p1","game":"blackjack-vegas-s17","currency":"EUR","table":4`
	for _, tc := range []struct {
		op, body, wrong string
	}{
		{"authenticate", `{"transaction_id":"a-1","timestamp":"2026-11-26T17:00:00Z","attempt":1,"token":"tok","currency":"EUR"}`, ""},
		{"balance", `{"transaction_id":"b-1","timestamp":"2026-11-26T17:00:00Z","attempt":2,"player":"p1","currency":"EUR"}`, ""},
		{"debit", `{` + head + `,"session":"a-1","amount":100,"round":"4-17","kind":"insurance","expires":"2026-11-26T17:00:03Z"}`, ""},
		{"credit", `{` + head + `,"amount":0,"round":"4-17","kind":"settle","round_closed":true}`, ""},
		{"rollback", `{` + head + `,"reference":"d-1","amount":100,"round":"4-16","kind":"lapsed","round_closed":false}`, ""},
		// As sabot sent them before.
		{"credit", `{"transaction_id":"c-1","player":"p1","currency":"EUR","round":"4-17","table":4,"kind":"settle"}`, "amount is required"},
		{"debit", `{` + head + `,"amount":100,"round":"4-17","kind":"insure","expires":"2026-11-26T17:00:03Z"}`, `"insure" is not one of`},
		{"rollback", `{` + head + `,"reference":"d-1","amount":100,"kind":"bet-withdraw","round_closed":false}`, "round is required"},
		{"rollback", `{` + head + `,"reference":"d-1","amount":100,"round":"4-16","kind":"bet-withdraw","round_closed":false}`, `"bet-withdraw" is not one of`},
		{"debit", `{` + head + `,"amount":100,"round":"4-17","kind":"bet","expires":"2026-11-26T17:00:03Z","bonus":1}`, "bonus is not in the spec"},
		{"debit", `{` + head + `,"amount":"100","round":"4-17","kind":"bet","expires":"soon"}`, "not an integer"},
	} {
		err := spec.Request(tc.op, []byte(tc.body))
		switch {
		case tc.wrong == "" && err != nil:
			t.Errorf("%s %s: %v", tc.op, tc.body, err)
		case tc.wrong != "" && (err == nil || !strings.Contains(err.Error(), tc.wrong)):
			t.Errorf("%s %s: %v, want %q", tc.op, tc.body, err, tc.wrong)
		}
	}
	if err := spec.Answer([]byte(`{"transaction_id":"x","status":"maybe","balance":1}`)); err == nil {
		t.Error("an answer of status maybe")
	}
	if err := spec.Schema("Statement", []byte(`[{"transaction_id":"x","op":"credit","player":"p","amount":5,"status":"ok","at":"2026-11-26T17:00:00Z"}]`)); err != nil {
		t.Error(err)
	}
	if err := spec.Schema("Statement", []byte(`[{"transaction_id":"x","op":"credit","player":"p","status":"ok"}]`)); err == nil {
		t.Error("a statement entry without amount and at")
	}
}
