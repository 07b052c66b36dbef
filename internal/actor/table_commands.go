package actor

import (
	"context"
	"strconv"
	"strings"
	"time"

	"sabot"
	"sabot/engine"
	"sabot/internal/live"
	"sabot/internal/wire"
	"sabot/money"
)

// The commands a client sends to a table, each registered once, in
// tableCommands: its name, whether it is an administrator's, its request
// and its handler. The HTTP routes (POST /api/tables/{id}/NAME), the
// WebSocket's decoder ({"op":"NAME", ...}) and the table's actor all read
// that one table. Every command has the same body on the wire
// (wire.CommandRequest, docs/protocol.md); each reads its own request out
// of it, a type of its own (wire.Bet, wire.Act, ...), which its handler
// takes.

// Their names, as the URL and the op field say them.
const (
	opSit      = "sit"
	opLeave    = "leave"
	opBet      = "bet"
	opDeal     = "deal"
	opWithdraw = "withdraw"
	opAct      = "act"
	opDecline  = "decline"
	// Administrators.
	opForce   = "force-cards"
	opNewShoe = "new-shoe"
	opVoid    = "void"
	opConfig  = "configure"
	// A new shoe's steps (AR-07, EG-02; shoesteps.go).
	opAuthorise = "authorise-shuffle"
	opCutShoe   = "cut-shoe"
)

// tableCommands are the commands a client may send to a table.
var tableCommands = []*Op{
	playerCommand(opSit, (*Table).sit),
	playerCommand(opLeave, (*Table).leave),
	playerCommand(opBet, (*Table).bet),
	playerCommand(opDeal, (*Table).callDeal),
	playerCommand(opWithdraw, (*Table).withdraw),
	playerCommand(opAct, (*Table).act),
	playerCommand(opDecline, (*Table).decline),
	adminCommand(opForce, (*Table).forceCards),
	inspectorCommand(opNewShoe, (*Table).newShoe).cites(newShoeRules, ""),
	inspectorCommand(opVoid, (*Table).voidRound).cites(live.StaffRules, ""),
	adminCommand(opConfig, (*Table).configure),
	inspectorCommand(opAuthorise, (*Table).authoriseShuffle).cites(shoeStepRules, "player_cut"),
	define(opCutShoe, byCutter, (*Table).cutShoe).cites(shoeStepRules, "player_cut"),
	// The dealer's, at a table dealt from a physical shoe (internal/live).
	dealerCommand(live.OpCard, (*Table).readCard),
	dealerCommand(live.OpUndoCard, (*Table).undoCard),
	dealerCommand(live.OpCutCard, (*Table).cutCard),
	dealerCommand(live.OpRecordCut, (*Table).recordCut),
	dealerCommand(live.OpNoMore, (*Table).noMoreBets),
	dealerCommand(live.OpSeatWalkIn, (*Table).seatWalkIn),
	dealerCommand(live.OpBuyIn, (*Table).buyIn),
	dealerCommand(live.OpCashOut, (*Table).cashOut),
	dealerCommand(live.OpCardStands, (*Table).cardStands),
	dealerCommand(live.OpSkippedEleven, (*Table).skippedEleven),
	// The inspector's (internal/live).
	dealerCommand(live.OpCorrect, (*Table).correct),
	inspectorCommand(live.OpApprove, (*Table).approve).cites(live.StaffRules, ""),
	inspectorCommand(live.OpRefuseC, (*Table).refuseCorrection).cites(live.StaffRules, ""),
	inspectorCommand(live.OpRuling, (*Table).ruling).cites(live.StaffRules, ""),
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
	// read takes the command's request out of the body every command has,
	// or refuses the body (invalid).
	read func(wire.CommandRequest) (any, error)
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

// request is a command's own request, R, that reads itself: read takes it
// out of the body every command has (its receiver, a zero R, is not used).
// A wire request (wire.Bet, ...) is taken by its fields instead
// (readRequest).
type request[R any] interface {
	read(wire.CommandRequest) (R, error)
}

// handler applies a command's request at the table: the sequence number of
// its record in the table's log, or why it was refused.
type handler[R any] func(a *Table, ctx context.Context, c *Command, req R) (int64, error)

// sender is who may send a command.
type sender uint8

const (
	byPlayer    sender = iota // a logged-in user who plays (not the staff)
	byDealer                  // the dealer, the inspector or the pit (issue 13)
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

// define erases the request's type R: read returns an R, run takes it back.
func define[R any](name string, who sender, run handler[R]) *Op {
	return &Op{
		name: name, who: who,
		read: func(body wire.CommandRequest) (any, error) {
			req, err := readRequest[R](body)
			if err != nil {
				return nil, err
			}
			return req, nil
		},
		run: func(a *Table, ctx context.Context, c *Command) (int64, error) { return run(a, ctx, c, c.req.(R)) },
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

// noFields is the request of a command that has nothing to say but its
// name.
type noFields struct{}

func (noFields) read(wire.CommandRequest) (noFields, error) { return noFields{}, nil }

// readRequest takes a command's request, R, out of the body every command
// has: a wire request (wire.Bet, ...) by its fields (wire.Take), checked
// by its Check if it has one; a request that reads itself (request[R]) by
// its read.
func readRequest[R any](body wire.CommandRequest) (R, error) {
	var zero R
	if r, ok := any(zero).(request[R]); ok {
		return r.read(body)
	}
	req, err := wire.Take[R](body)
	if err != nil {
		return zero, err
	}
	if c, ok := any(req).(interface{ Check() error }); ok {
		if err := c.Check(); err != nil {
			return zero, err
		}
	}
	return req, nil
}

// Command checks a client's command and reads its request: the IDs and
// the stake are checked for every command (issue 11), the rest by the
// command's read.
func (h *Host) Command(u *sabot.User, cmd *Op, body wire.CommandRequest) (*Command, error) {
	if h.CheckID != nil {
		if err := h.CheckID("command_id", body.CommandID); err != nil {
			return nil, err
		}
		if err := h.CheckID("client_id", body.ClientID); err != nil {
			return nil, err
		}
	}
	if err := wire.CheckStake(body.Stake); err != nil {
		return nil, err
	}
	if cmd.who == byPlayer {
		who := byPlayer
		if body.WalkIn != 0 { // the dealer, for a walk-in (internal/live)
			if cmd.name == opSit {
				return nil, sabot.Errorf(sabot.EINVALID, "walk_in: the dealer seats a walk-in with %s", live.OpSeatWalkIn)
			}
			who = byDealer
		}
		if err := who.allows(u, ""); err != nil {
			return nil, err
		}
	} else if body.WalkIn != 0 {
		return nil, sabot.Errorf(sabot.EINVALID, "walk_in: only a player's command is sent for a walk-in")
	}
	req, err := cmd.read(body)
	if err != nil {
		return nil, err
	}
	return &Command{cmd: cmd, req: req, user: u, clientID: strconv.FormatInt(u.ID, 10) + ":" + body.ClientID, commandID: body.CommandID,
		at: h.now(), received: time.Now(), walkIn: body.WalkIn}, nil
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
	rec, err := a.append(ctx, c, sabot.LogAdmin, 0, wire.AdminEvent{Event: "force-cards", Cards: cards}, nil)
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
	rec, err := a.append(ctx, c, sabot.LogAdmin, 0, wire.AdminEvent{Event: "new-shoe", Text: "a new shoe on the inspector's request" + cite(a.p.Cite(newShoeRules, ""))}, nil)
	if err != nil {
		a.rebuild(ctx)
		return 0, err
	}
	a.revealShoes(ctx)
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
	rec, err := a.append(ctx, c, sabot.LogAdmin, a.t.RoundNo(), wire.AdminEvent{Event: "void", Round: a.t.RoundNo(), Text: text}, nil)
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
