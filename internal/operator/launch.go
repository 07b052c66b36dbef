package operator

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"time"

	"sabot"
	"sabot/internal/wallet"
	"sabot/money"
)

// The launch from the operator's site (docs/wallet.md): the
// operator opens a game session with a token it issues; sabot asks the
// operator's wallet who the token's player is (authenticate) and opens a
// session under him, with no registration and no password. The server
// answers GET /launch and POST /api/launch with it.

// maxLaunchToken bounds an operator's token.
const maxLaunchToken = 512

// Throttle holds back a client that guesses tokens, as failed logins are
// held back: Wait refuses him while he waits, and Charge counts a token
// refused against him.
type Throttle interface {
	Wait() error
	Charge()
}

// Launch checks an operator's token with its wallet and returns its
// player, and his balance as the operator said it (SetBalance keeps it
// once the server lets him in).
func (o *Operator) Launch(ctx context.Context, token string, th Throttle) (*sabot.User, money.Amount, error) {
	if !o.Has() {
		return nil, 0, sabot.Errorf(sabot.ENOTFOUND, "this server has no operator's wallet: players log in (POST /api/login)")
	}
	if token == "" || len(token) > maxLaunchToken {
		return nil, 0, sabot.Errorf(sabot.EINVALID, "a launch needs the operator's token (1 to %d bytes)", maxLaunchToken)
	}
	// Each launch is a call to the operator: a client guessing tokens is
	// throttled per address as failed logins are.
	if err := th.Wait(); err != nil {
		return nil, 0, err
	}
	// The transaction ID is the token's: a launch sent again (no answer in
	// time) is the same call, and acts once at the operator's.
	hash := launchTokenHash(token)
	res, err := o.callWithin(ctx, wallet.OpAuthenticate, wallet.Request{TransactionID: launchSession(hash), Token: token, Currency: o.cfg.Currency})
	if err != nil {
		o.logger().Warn("the operator's wallet did not answer a launch", "err", err)
		return nil, 0, &sabot.Error{Code: sabot.EUNAVAILABLE, RetryAfter: time.Second, Message: "the operator's wallet does not answer: try again"}
	}
	if res.Refused() {
		th.Charge()
		return nil, 0, sabot.Errorf(sabot.EUNAUTHORIZED, "the operator refused the launch: %s", firstOf(res.Message, res.Reason))
	}
	if res.Currency != "" && res.Currency != o.cfg.Currency {
		return nil, 0, sabot.Errorf(sabot.ECONFLICT, "refused: the player's account is in %s; these tables play in %s", res.Currency, o.cfg.Currency)
	}
	if err := checkOperatorID(res.Player); err != nil {
		o.logger().Error("the operator's wallet named a player sabot cannot seat", "player", res.Player, "err", err)
		return nil, 0, sabot.Errorf(sabot.EINTERNAL, "the operator's wallet named a player this server cannot seat")
	}
	u, err := o.cfg.Outbox.OperatorUser(ctx, res.Player, Prefix+res.Player)
	if err != nil {
		return nil, 0, err
	}
	if err := o.useLaunchToken(ctx, hash, u.ID); err != nil {
		th.Charge()
		return nil, 0, err
	}
	return u, res.Balance, nil
}

func firstOf(s ...string) string {
	for _, x := range s {
		if x != "" {
			return x
		}
	}
	return ""
}

// launchTokenHash is what sabot keeps of an operator's launch token.
func launchTokenHash(token string) string {
	h := sha256.Sum256([]byte(token))
	return hex.EncodeToString(h[:])
}

// launchSession is the transaction ID of a launch's authenticate, and the
// game session it opens: every later call of the player's carries it.
func launchSession(hash string) string { return "a-" + hash[:32] }

// useLaunchToken records a launch token's use: a token used before is
// refused (an operator's token opens one game session).
func (o *Operator) useLaunchToken(ctx context.Context, hash string, uid int64) error {
	session := launchSession(hash)
	if err := o.cfg.Outbox.UseLaunchToken(ctx, hash, uid, session, o.now()); err != nil {
		return err
	}
	o.session.Store(uid, session)
	return nil
}

// SetBalance keeps an operator's player's balance as the operator said it.
func (o *Operator) SetBalance(uid int64, b money.Amount) { o.balance.Store(uid, b) }

// Balance is an operator's player's balance: asked of the operator's
// wallet (within a second), or else the last it said.
func (o *Operator) Balance(ctx context.Context, u *sabot.User) money.Amount {
	ctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	res, err := o.cfg.Wallet.Call(ctx, wallet.OpBalance, wallet.Request{TransactionID: "b-" + randomID(12), Player: u.OperatorID, Currency: o.cfg.Currency})
	if err == nil && !res.Refused() {
		o.balance.Store(u.ID, res.Balance)
		return res.Balance
	}
	if b, ok := o.balance.Load(u.ID); ok {
		return b.(money.Amount)
	}
	return 0
}

// randomID is n random bytes in hex.
func randomID(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}
