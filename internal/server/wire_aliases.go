package server

import (
	"sabot/engine"
	"sabot/internal/wire"
	"sabot/money"
	"sabot/rules"
)

// The API's types moved to internal/wire (issue 27, item 2), under their
// old names here so that code written against them still compiles while
// the server is split into packages. They go once every file says wire.

type (
	TableView      = wire.TableView
	RulesView      = wire.RulesView
	SeatView       = wire.SeatView
	BetView        = wire.BetView
	ShoeView       = wire.ShoeView
	NeedView       = wire.NeedView
	HandView       = wire.HandView
	RoundView      = wire.RoundView
	TurnView       = wire.TurnView
	Event          = wire.Event
	Message        = wire.Message
	WaitingView    = wire.WaitingView
	CashView       = wire.CashView
	CorrectionView = wire.CorrectionView
	WireAction     = wire.Action

	Credentials    = wire.Credentials
	UserView       = wire.UserView
	LoginResult    = wire.LoginResult
	CreditRequest  = wire.CreditRequest
	TableRequest   = wire.TableRequest
	CommandRequest = wire.CommandRequest
	CommandResult  = wire.CommandResult
	LaunchRequest  = wire.LaunchRequest

	sitRequest   = wire.Sit
	forceRequest = wire.ForceCards
)

// Hidden is how a face-down card shows.
const Hidden = wire.Hidden

func toWire(a engine.Action) WireAction { return wire.ActionOf(a) }

func brief(s string) string { return wire.Brief(s) }

func checkStake(stake money.Amount) error { return wire.CheckStake(stake) }

func checkLimits(p *rules.Profile) error { return wire.CheckLimits(p) }

func bestPayout(p *rules.Profile) (num, den int64) { return wire.BestPayout(p) }
