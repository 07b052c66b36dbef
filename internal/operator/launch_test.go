package operator

import (
	"context"
	"testing"

	"sabot"
)

// throttle counts a client's waits and charges.
type throttle struct {
	wait    error
	charged int
}

func (th *throttle) Wait() error { return th.wait }
func (th *throttle) Charge()     { th.charged++ }

// A launch asks the operator who the token's player is and opens one
// game session with it: a token used again, or refused, is charged to the
// client; a client the throttle holds back calls nobody.
func TestLaunch(t *testing.T) {
	ctx := context.Background()
	r := newRig(t)
	r.ref.AddPlayer("ana", "Ana", 1500)
	r.ref.IssueToken("ana", "tok-ana")
	th := &throttle{}
	u, balance, err := r.Launch(ctx, "tok-ana", th)
	if err != nil {
		t.Fatal(err)
	}
	if u.Name != "@ana" || u.OperatorID != "ana" || balance != 1500 || th.charged != 0 {
		t.Fatalf("launched %+v with %d, charged %d", u, balance, th.charged)
	}
	if s := r.gameSession(ctx, u.ID); s != launchSession(launchTokenHash("tok-ana")) || len(s) != 34 {
		t.Fatalf("the game session %q", s)
	}
	r.ref.IssueToken("ana", "tok-ana") // a careless operator takes it again
	if _, _, err := r.Launch(ctx, "tok-ana", th); sabot.ErrorCode(err) != sabot.ECONFLICT || th.charged != 1 {
		t.Fatalf("a token used again: %v, charged %d", err, th.charged)
	}
	if _, _, err := r.Launch(ctx, "tok-nobody", th); sabot.ErrorCode(err) != sabot.EUNAUTHORIZED || th.charged != 2 {
		t.Fatalf("a token the operator refuses: %v, charged %d", err, th.charged)
	}
	calls := r.ref.Calls()
	th.wait = sabot.Errorf(sabot.ETHROTTLED, "too many failed launches")
	if _, _, err := r.Launch(ctx, "tok-x", th); sabot.ErrorCode(err) != sabot.ETHROTTLED || r.ref.Calls() != calls {
		t.Fatalf("a client held back: %v, the operator called %d times", err, r.ref.Calls()-calls)
	}
	for _, tok := range []string{"", string(make([]byte, maxLaunchToken+1))} {
		if _, _, err := r.Launch(ctx, tok, th); sabot.ErrorCode(err) != sabot.EINVALID {
			t.Fatalf("a token of %d bytes: %v", len(tok), err)
		}
	}
	if _, _, err := New(Config{}).Launch(ctx, "tok-ana", th); sabot.ErrorCode(err) != sabot.ENOTFOUND {
		t.Fatalf("a launch with no wallet: %v", err)
	}
	// The operator's player's balance: as it says it, or as it last said.
	r.SetBalance(u.ID, 1)
	if b := r.Balance(ctx, u); b != 1500 {
		t.Fatalf("the balance asked: %d", b)
	}
}

// A player whose account is in another currency is not seated.
func TestLaunchCurrency(t *testing.T) {
	r := newRig(t)
	r.ref.Currency = "USD"
	r.ref.AddPlayer("ana", "Ana", 1500)
	r.ref.IssueToken("ana", "tok-ana")
	if _, _, err := r.Launch(context.Background(), "tok-ana", &throttle{}); sabot.ErrorCode(err) != sabot.ECONFLICT {
		t.Fatalf("a launch in USD at tables in EUR: %v", err)
	}
}
