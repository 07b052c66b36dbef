package server

import (
	"context"
	"strconv"
	"strings"
	"time"

	"sabot"
	"sabot/card"
)

// The commands a client sends to a table, each registered once, in
// tableCommands: its name, whether it is an administrator's, its request
// and its handler. The HTTP routes (POST /api/tables/{id}/NAME), the
// WebSocket's decoder ({"op":"NAME", ...}) and the table's actor all read
// that one table. Every command has the same body on the wire
// (CommandRequest, docs/protocol.md); each reads its own request out of it,
// a type of its own, which its handler takes.

// Their names, as the URL and the op field say them.
const (
	opSit      = "sit"
	opLeave    = "leave"
	opBet      = "bet"
	opWithdraw = "withdraw"
	opAct      = "act"
	opDecline  = "decline"
	// Administrators.
	opForce   = "force-cards"
	opNewShoe = "new-shoe"
	opVoid    = "void"
	opConfig  = "configure"
)

// tableCommands are the commands a client may send to a table.
var tableCommands = []*tableCommand{
	playerCommand(opSit, (*actor).sit),
	playerCommand(opLeave, (*actor).leave),
	playerCommand(opBet, (*actor).bet),
	playerCommand(opWithdraw, (*actor).withdraw),
	playerCommand(opAct, (*actor).act),
	playerCommand(opDecline, (*actor).decline),
	adminCommand(opForce, (*actor).forceCards),
	adminCommand(opNewShoe, (*actor).newShoe),
	adminCommand(opVoid, (*actor).voidRound),
	adminCommand(opConfig, (*actor).configure),
}

// tableCommand is one command of tableCommands, its request's type erased:
// read gives a request that run takes.
type tableCommand struct {
	name  string
	admin bool // an administrator's: refused (forbidden) to anyone else
	// read takes the command's request out of the body every command has,
	// or refuses the body (invalid).
	read func(CommandRequest) (any, error)
	// run applies a request at the table, in its actor, once the checks
	// every command has are passed (the table serves, the command is new).
	run func(a *actor, ctx context.Context, c *command) (int64, error)
}

// request is a command's own request: read takes its fields out of the
// body every command has.
type request[R any] interface {
	*R
	read(CommandRequest) error
}

// handler applies a command's request at the table: the sequence number of
// its record in the table's log, or why it was refused.
type handler[R any] func(a *actor, ctx context.Context, c *command, req R) (int64, error)

func playerCommand[R any, P request[R]](name string, run handler[R]) *tableCommand {
	return define[R, P](name, false, run)
}

func adminCommand[R any, P request[R]](name string, run handler[R]) *tableCommand {
	return define[R, P](name, true, run)
}

func define[R any, P request[R]](name string, admin bool, run handler[R]) *tableCommand {
	return &tableCommand{
		name: name, admin: admin,
		read: func(body CommandRequest) (any, error) {
			var req R
			if err := P(&req).read(body); err != nil {
				return nil, err
			}
			return req, nil
		},
		run: func(a *actor, ctx context.Context, c *command) (int64, error) { return run(a, ctx, c, c.req.(R)) },
	}
}

// tableCommandNamed is the command of that name (nil: none).
func tableCommandNamed(name string) *tableCommand {
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
		if !c.admin {
			names = append(names, c.name)
		}
	}
	return strings.Join(names, ", ")
}

// The requests, each read from the body (CommandRequest) by its command.
type (
	// sitRequest takes a free box (AR-21).
	sitRequest struct{ Box int }
	// betRequest places or changes a bet on a box for the next round.
	betRequest struct {
		Box   int
		Stake int64
	}
	// withdrawRequest withdraws a bet before the deal.
	withdrawRequest struct{ Box int }
	// actRequest is a player's decision (docs/protocol.md: action).
	actRequest struct {
		Action    string
		Box, Hand int
		Stake     int64
		Value     int
	}
	// declineRequest passes in an optional window.
	declineRequest struct{ Box, Hand int }
	// forceRequest gives the next round's cards (test mode).
	forceRequest struct{ Cards []card.Card }
	// configureRequest changes the table's options (those set to "" go
	// back to the profile's) and, at a family table, who holds the bank (a
	// seated player, "" the house; FAM-01), for a reason.
	configureRequest struct {
		Options map[string]string
		Bank    *string
		Reason  string
	}
	// noFields is the request of a command that has nothing to say but
	// its name (leave, new-shoe, void).
	noFields struct{}
)

func (r *sitRequest) read(b CommandRequest) error {
	*r = sitRequest{Box: b.Box}
	return nil
}

func (r *betRequest) read(b CommandRequest) error {
	*r = betRequest{Box: b.Box, Stake: b.Stake}
	return nil
}

func (r *withdrawRequest) read(b CommandRequest) error {
	*r = withdrawRequest{Box: b.Box}
	return nil
}

func (r *actRequest) read(b CommandRequest) error {
	*r = actRequest{Action: b.Action, Box: b.Box, Hand: b.Hand, Stake: b.Stake, Value: b.Value}
	return nil
}

func (r *declineRequest) read(b CommandRequest) error {
	*r = declineRequest{Box: b.Box, Hand: b.Hand}
	return nil
}

func (r *forceRequest) read(b CommandRequest) error {
	cards, err := card.ParseList(b.Cards)
	if err != nil {
		return sabot.Errorf(sabot.EINVALID, "forced cards: %v", err)
	} else if len(cards) == 0 {
		return sabot.Errorf(sabot.EINVALID, "forced cards: give the card codes in dealing order, e.g. \"TS 9H 7C 8D\"")
	}
	r.Cards = cards
	return nil
}

func (r *configureRequest) read(b CommandRequest) error {
	*r = configureRequest{Options: b.Options, Bank: b.Bank, Reason: b.Reason}
	return nil
}

func (*noFields) read(CommandRequest) error { return nil }

// command is one message to a table's actor: a client's command (cmd,
// with its request, req) or a request of the server's own (inside: to see
// the table, to follow it), which the log does not record. A client's
// command carries his command ID: a repeat is answered with the first
// answer and changes nothing (GLI-19 §4.2.3).
type command struct {
	cmd       *tableCommand
	req       any // of the type cmd's handler takes
	user      *sabot.User
	clientID  string
	commandID string
	at        time.Time // when the server received it: AR-21 orders claims for a seat by it
	received  time.Time // the same on the process's clock (sabot_decision_seconds)
	// inside is run in the actor's loop, for the server.
	inside func(a *actor) reply
	reply  chan reply
}

type reply struct {
	seq  int64
	dup  bool
	err  error
	view *TableView
}

// viewTable asks a table's actor for the table's view.
func viewTable(a *actor) reply { return reply{view: a.view()} }

// subscribing asks a table's actor for its events (those after since, if it
// still has them and epoch is its own; else a snapshot first).
func subscribing(sub *subscriber, since int64, epoch string) func(*actor) reply {
	return func(a *actor) reply {
		a.subscribe(sub, since, epoch)
		return reply{}
	}
}

// unsubscribing stops a subscriber's events (it may be gone already).
func unsubscribing(sub *subscriber) func(*actor) reply {
	return func(a *actor) reply {
		if _, ok := a.subs[sub]; ok {
			a.dropSub(sub)
		}
		return reply{}
	}
}

// command checks a client's command and reads its request: the IDs and
// the stake are checked for every command (issue 11), the rest by the
// command's read.
func (s *Server) command(u *sabot.User, cmd *tableCommand, body CommandRequest) (*command, error) {
	if err := s.checkID("command_id", body.CommandID); err != nil {
		return nil, err
	}
	if err := s.checkID("client_id", body.ClientID); err != nil {
		return nil, err
	}
	if err := checkStake(body.Stake); err != nil {
		return nil, err
	}
	req, err := cmd.read(body)
	if err != nil {
		return nil, err
	}
	return &command{cmd: cmd, req: req, user: u, clientID: strconv.FormatInt(u.ID, 10) + ":" + body.ClientID, commandID: body.CommandID,
		at: s.now(), received: time.Now()}, nil
}
