package actor

import (
	"context"
	"strconv"
	"strings"
	"time"

	"sabot"
	"sabot/engine"
	"sabot/internal/live"
	"sabot/internal/recall"
	"sabot/internal/tablelog"
	"sabot/internal/wire"
	"sabot/money"
)

// The commands a client sends to a table, each registered once, in
// tableCommands: its op (wire.Ops), whether it is an administrator's, its
// request and its handler. The HTTP routes (POST /api/tables/{id}/NAME),
// the WebSocket's decoder ({"op":"NAME", ...}) and the table's actor all
// read that one table. A command is sent as the envelope every command has
// and its own request, a type of wire's (wire.Bet, wire.Act, ...:
// wire.Requests), read strictly (wire.DecodeCommand, wire.DecodeRequest),
// which its handler takes, or a value read from it (a live table's card,
// its correction).

// tableCommands are the commands a client may send to a table.
var tableCommands = []*Op{
	playerCommand(wire.OpSit, (*Table).sit),
	playerCommand(wire.OpLeave, (*Table).leave),
	playerCommand(wire.OpBet, (*Table).bet),
	playerCommand(wire.OpDeal, (*Table).callDeal),
	playerCommand(wire.OpWithdraw, (*Table).withdraw),
	playerCommand(wire.OpAct, (*Table).act),
	playerCommand(wire.OpDecline, (*Table).decline),
	adminCommand(wire.OpForceCards, (*Table).forceCards),
	inspectorCommand(wire.OpNewShoe, (*Table).newShoe).cites(newShoeRules, ""),
	inspectorCommand(wire.OpVoid, (*Table).voidRound).cites(live.StaffRules, ""),
	adminCommand(wire.OpConfigure, (*Table).configure),
	inspectorCommand(wire.OpAuthoriseShuffle, (*Table).authoriseShuffle).cites(shoeStepRules, "player_cut"),
	define(wire.OpCutShoe, byCutter, (*Table).cutShoe).cites(shoeStepRules, "player_cut"),
	// The dealer's, at a table dealt from a physical shoe (internal/live).
	parsed(wire.OpCard, byDealer, parseCard, (*Table).readCard),
	dealerCommand(wire.OpUndoCard, (*Table).undoCard),
	dealerCommand(wire.OpCutCard, (*Table).cutCard),
	parsed(wire.OpRecordCut, byDealer, parseRecordCut, (*Table).recordCut),
	dealerCommand(wire.OpNoMoreBets, (*Table).noMoreBets),
	dealerCommand(wire.OpSeatWalkIn, (*Table).seatWalkIn),
	parsed(wire.OpBuyIn, byDealer, parseBuyIn, (*Table).buyIn),
	dealerCommand(wire.OpCashOut, (*Table).cashOut),
	dealerCommand(wire.OpCardStands, (*Table).cardStands),
	dealerCommand(wire.OpSkippedEleven, (*Table).skippedEleven),
	// The inspector's (internal/live).
	parsed(wire.OpCorrect, byDealer, parseCorrect, (*Table).correct),
	parsed(wire.OpApprove, byInspector, parseApprove, (*Table).approve).cites(live.StaffRules, ""),
	parsed(wire.OpRefuseCorrection, byInspector, parseRefuse, (*Table).refuseCorrection).cites(live.StaffRules, ""),
	parsed(wire.OpRuling, byInspector, parseRuling, (*Table).ruling).cites(live.StaffRules, ""),
	// A table closed between rounds, its players invited to another (003
	// §11), and reopened (closing.go): the table head's decision at spain
	// and family (ES-01), as a void.
	inspectorCommand(wire.OpCloseTable, (*Table).pitCloseTable).cites(live.StaffRules, ""),
	inspectorCommand(wire.OpReopenTable, (*Table).pitReopenTable).cites(live.StaffRules, ""),
}

// The rules a staff command's refusal to anyone else cites, each table its
// own regulation's (rules.Profile.Cite; live.StaffRules are the
// corrections', rulings' and void's): a new shoe is the inspector's at
// argentina (AR-24), the table head's decision at spain and family
// (ES-01); 004 says nothing of it. The new shoe's steps are AR-07's
// (000 item 5: «con autorización del Inspector o Jefe de Mesa») and
// EG-02's (003 §10, the player's cut); 004 has none: this table's rules,
// player_cut.
const (
	newShoeRules  = "AR-24, ES-01"
	shoeStepRules = "AR-07, EG-02"
)

// Op is one command of tableCommands, its request's type erased:
// read gives a request that run takes.
type Op struct {
	name string
	who  sender // who may send it: refused (forbidden) to anyone else
	// decode reads the command's wire request out of its body, strictly
	// (invalid: a field of another command's); check reads what the
	// handler takes out of it, or refuses it (invalid).
	decode func(wire.Body) (any, error)
	check  func(any) (any, error)
	// run applies a request at the table, in its actor, once the checks
	// every command has are passed (the table serves, the command is new).
	run func(a *Table, ctx context.Context, c *Command) (int64, error)
	// rule and option are what a refusal of the command to someone it is
	// not for cites, at the table's profile (rules.Profile.Cite).
	rule, option string
}

// cites sets the rule IDs, and the option, the command's refusal to
// anyone but who cites.
func (o *Op) cites(ids, option string) *Op {
	o.rule, o.option = ids, option
	return o
}

// handler applies a command's request at the table: the sequence number of
// its record in the table's log, or why it was refused.
type handler[R any] func(a *Table, ctx context.Context, c *Command, req R) (int64, error)

// sender is who may send a command.
type sender uint8

const (
	byPlayer    sender = iota // a logged-in user who plays (not the staff)
	byDealer                  // the dealer, the inspector or the pit
	byInspector               // the inspector or the pit
	byAdmin                   // the pit: administrators
	// byCutter: a player (the one chosen to cut, shoesteps.go), the
	// inspector or the pit; not a dealer.
	byCutter
)

// allows refuses a command to a user it is not for; rule is the refusal's
// citation (cite's " (IDS)", or nothing).
func (w sender) allows(u *sabot.User, rule string) error {
	switch {
	case w == byAdmin && !u.Admin:
		return sabot.Errorf(sabot.EFORBIDDEN, "administrators only")
	case w == byDealer && !u.Admin && !u.Staff():
		return sabot.Errorf(sabot.EFORBIDDEN, "the dealer's, the inspector's or the pit's only")
	case w == byInspector && !u.Admin && u.Role != sabot.RoleInspector:
		return sabot.Errorf(sabot.EFORBIDDEN, "the inspector's or the pit's only%s", rule)
	case w == byCutter && u.Staff() && !u.Admin && u.Role != sabot.RoleInspector:
		return sabot.Errorf(sabot.EFORBIDDEN, "a player's, the inspector's or the pit's only%s", rule)
	case w == byPlayer && u.Staff():
		return sabot.Errorf(sabot.EFORBIDDEN, "the staff do not play: a %s runs the tables", u.Role)
	}
	return nil
}

// playerCommand is a command any logged-in user may send, as a player.
func playerCommand[R any](name string, run handler[R]) *Op {
	return define(name, byPlayer, run)
}

// dealerCommand is a command of the dealer at a live table (or of the
// inspector, or the pit).
func dealerCommand[R any](name string, run handler[R]) *Op {
	return define(name, byDealer, run)
}

// inspectorCommand is a command of the inspector's authority (or the
// pit's): a correction approved or refused, a new shoe, a void.
func inspectorCommand[R any](name string, run handler[R]) *Op {
	return define(name, byInspector, run)
}

// adminCommand is a command only administrators may send.
func adminCommand[R any](name string, run handler[R]) *Op {
	return define(name, byAdmin, run)
}

// define is a command whose handler takes its wire request, R, checked by
// its Check if it has one.
func define[R any](name string, who sender, run handler[R]) *Op {
	return parsed(name, who, func(req R) (R, error) {
		if c, ok := any(req).(interface{ Check() error }); ok {
			if err := c.Check(); err != nil {
				return req, err
			}
		}
		return req, nil
	}, run)
}

// parsed is a command whose handler takes a value, R, read out of its
// wire request, W, by parse. It erases both types: decode returns a W,
// check takes it and returns an R, run takes the R back.
func parsed[W, R any](name string, who sender, parse func(W) (R, error), run handler[R]) *Op {
	return &Op{
		name: name, who: who,
		decode: func(body wire.Body) (any, error) { return wire.DecodeRequest[W](name, body) },
		check:  func(req any) (any, error) { return parse(req.(W)) },
		run:    func(a *Table, ctx context.Context, c *Command) (int64, error) { return run(a, ctx, c, c.req.(R)) },
	}
}

// tableCommandNamed is the command of that name (nil: none).
func tableCommandNamed(name string) *Op {
	for _, c := range tableCommands {
		if c.name == name {
			return c
		}
	}
	return nil
}

// playerCommandNames lists the commands a player may send: "sit, leave,
// ..., decline".
func playerCommandNames() string {
	var names []string
	for _, c := range tableCommands {
		if c.who == byPlayer {
			names = append(names, c.name)
		}
	}
	return strings.Join(names, ", ")
}

// Command checks a client's command and reads its request: its request's
// fields first (wire.DecodeRequest), then the IDs and the stake, as for
// every command, who may send it, and the rest by the
// command's check.
func (h *Host) Command(u *sabot.User, cmd *Op, env wire.Envelope, body wire.Body) (*Command, error) {
	req, err := cmd.decode(body)
	if err != nil {
		return nil, err
	}
	if h.CheckID != nil {
		if err := h.CheckID("command_id", env.CommandID); err != nil {
			return nil, err
		}
		if err := h.CheckID("client_id", env.ClientID); err != nil {
			return nil, err
		}
	}
	if err := wire.CheckStake(wire.StakeOf(req)); err != nil {
		return nil, err
	}
	if cmd.who == byPlayer {
		who := byPlayer
		if env.WalkIn != 0 { // the dealer, for a walk-in (internal/live)
			if cmd.name == wire.OpSit {
				return nil, sabot.Errorf(sabot.EINVALID, "walk_in: the dealer seats a walk-in with %s", wire.OpSeatWalkIn)
			}
			who = byDealer
		}
		if err := who.allows(u, ""); err != nil {
			return nil, err
		}
	} else if env.WalkIn != 0 {
		return nil, sabot.Errorf(sabot.EINVALID, "walk_in: only a player's command is sent for a walk-in")
	}
	if req, err = cmd.check(req); err != nil {
		return nil, err
	}
	return &Command{cmd: cmd, req: req, user: u, clientID: strconv.FormatInt(u.ID, 10) + ":" + env.ClientID, commandID: env.CommandID,
		at: h.now(), received: time.Now(), walkIn: env.WalkIn}, nil
}

// forceCards gives the next round's cards at a test-mode table.
func (a *Table) forceCards(ctx context.Context, c *Command, req wire.ForceCards) (int64, error) {
	if !a.cfg.TestMode {
		return 0, sabot.Errorf(sabot.EFORBIDDEN, "forced cards are for test-mode tables only")
	}
	if a.t.Physical() {
		return 0, sabot.Errorf(sabot.ECONFLICT, "refused: the table deals from a physical shoe: its cards are the ones read from it")
	}
	if a.dealt {
		return 0, sabot.Errorf(sabot.ECONFLICT, "refused: forced cards are given between rounds")
	}
	cards, err := req.Parse() // checked when read
	if err != nil {
		return 0, err
	}
	rec, err := a.append(ctx, c, sabot.LogAdmin, 0, tablelog.ForceCards{Cards: cards}, nil)
	if err != nil {
		return 0, err
	}
	a.forced = cards
	return rec.Seq, nil
}

// newShoe prepares a new shoe between rounds on the pit's order (AR-24).
func (a *Table) newShoe(ctx context.Context, c *Command, _ wire.NewShoe) (int64, error) {
	if a.dealt {
		return 0, sabot.Errorf(sabot.ECONFLICT, "refused: a new shoe is prepared between rounds%s", cite(a.p.Cite("AR-24, EG-05", "")))
	}
	if err := a.t.NewShoe(); err != nil {
		return 0, wire.Refusal(err)
	}
	a.noteShoe()
	rec, err := a.append(ctx, c, sabot.LogAdmin, 0, tablelog.NewShoe{Text: "a new shoe on the inspector's request" + cite(a.p.Cite(newShoeRules, ""))}, nil)
	if err != nil {
		a.rebuild(ctx)
		return 0, err
	}
	a.revealShoes(ctx)
	if a.t.Physical() {
		// No seed is sealed for a physical shoe, so no shoe event
		// follows by itself: the dealer's console and the players'
		// pages learn of the new shoe now, not at the next event.
		a.publish(wire.Event{Kind: wire.EvShoe, Shoe: recall.ShoeID(a.cfg.ID, a.t.ShoeNo())})
	}
	return rec.Seq, nil
}

// voidRound voids the round in play on the pit's or the table's inspector's
// order: every box is void (AR-23) and every stake returned; the log says
// who ordered it.
func (a *Table) voidRound(ctx context.Context, c *Command, _ wire.Void) (int64, error) {
	if !a.dealt {
		return 0, sabot.Errorf(sabot.ECONFLICT, "refused: no round is in play")
	}
	text := "void by the pit"
	if c.user.Role == sabot.RoleInspector {
		text = "void by the inspector " + c.user.Name
	}
	rec, err := a.append(ctx, c, sabot.LogAdmin, a.t.RoundNo(), tablelog.Void{Round: a.t.RoundNo(), Text: text}, nil)
	if err != nil {
		return 0, err
	}
	r := a.t.Round()
	if a.t.Physical() { // the round may wait for a card: void it whole
		a.house(ctx, engine.Action{Kind: engine.VoidRound}, false)
		a.proceed(ctx)
		return rec.Seq, nil
	}
	for _, box := range r.Boxes() {
		if r.Phase() == engine.Done {
			break
		}
		if r.Legal(engine.Action{Kind: engine.VoidBox, Box: box}) {
			a.house(ctx, engine.Action{Kind: engine.VoidBox, Box: box}, false)
		}
	}
	a.proceed(ctx)
	return rec.Seq, nil
}

// short tells a player his wallet cannot pay a stake. The store's refusal
// (EINSUFFICIENT) names the account by its ID and the amounts in minor
// units; the player reads his balance and the stake as money. Any other
// error is returned as it is.
func (a *Table) short(ctx context.Context, err error, player string, debit money.Amount, what string) error {
	if sabot.ErrorCode(err) != sabot.EINSUFFICIENT {
		return err
	}
	held := a.s.balance(ctx, sabot.AccountWallet, a.players[player])
	return sabot.Errorf(sabot.EINSUFFICIENT, "insufficient funds: %s's wallet holds %s, the %s takes %s", player, held, what, debit).
		WithReason("insufficient_funds", map[string]any{"player": player, "held": held, "amount": debit})
}

// cite is " (IDS)", the rule IDs a refusal names, or nothing.
func cite(ids string) string {
	if ids == "" {
		return ""
	}
	return " (" + ids + ")"
}
