package server

import (
	"context"

	"sabot"
	"sabot/internal/recall"
)

// Game recall's names as the server had them before it was package recall
// (issue 27), so that the other branches of the issue still compile once
// merged; the lead removes them at the end.

type (
	RoundRecord   = recall.RoundRecord
	Reading       = recall.Reading
	Decision      = recall.Decision
	ShoeReport    = recall.ShoeReport
	DealtRound    = recall.DealtRound
	VerifyReport  = recall.VerifyReport
	ReplayReport  = recall.ReplayReport
	RoundSummary  = recall.RoundSummary
	HistoryRound  = recall.HistoryRound
	HistoryDealer = recall.HistoryDealer
	HistoryBet    = recall.HistoryBet

	shoePayload   = recall.ShoeStart
	revealPayload = recall.Reveal
	dealPayload   = recall.Deal
	settlePayload = recall.Settle
	handResult    = recall.HandResult
	betResult     = recall.BetResult
)

const (
	DefaultShoePage    = recall.DefaultShoePage
	MaxShoePage        = recall.MaxShoePage
	DefaultRoundsPage  = recall.DefaultRoundsPage
	MaxRoundsPage      = recall.MaxRoundsPage
	DefaultHistoryPage = recall.DefaultHistoryPage
	MaxHistoryPage     = recall.MaxHistoryPage
)

// Recall is recall.Recall.
func Recall(ctx context.Context, st sabot.Store, id string) (*RoundRecord, error) {
	return recall.Recall(ctx, st, id)
}

// ShoeInfo is recall.ShoeInfo.
func ShoeInfo(ctx context.Context, st sabot.Store, id string, after, limit int) (*ShoeReport, error) {
	return recall.ShoeInfo(ctx, st, id, after, limit)
}

// VerifyShoe is recall.VerifyShoe.
func VerifyShoe(ctx context.Context, st sabot.Store, id string) (*VerifyReport, error) {
	return recall.VerifyShoe(ctx, st, id)
}

// WholeShoe is recall.WholeShoe.
func WholeShoe(page func(after int) (*ShoeReport, error)) (*ShoeReport, error) {
	return recall.WholeShoe(page)
}

// CheckShoe is recall.CheckShoe.
func CheckShoe(info *ShoeReport) (*VerifyReport, error) { return recall.CheckShoe(info) }

// ReplayRound is recall.ReplayRound.
func ReplayRound(ctx context.Context, st sabot.Store, id string) (*ReplayReport, *RoundRecord, error) {
	return recall.ReplayRound(ctx, st, id)
}

// PlayerRounds is recall.PlayerRounds.
func PlayerRounds(ctx context.Context, st sabot.Store, u *sabot.User, before string, limit int) ([]RoundSummary, error) {
	return recall.PlayerRounds(ctx, st, u, before, limit)
}

// TableHistory is recall.TableHistory.
func TableHistory(ctx context.Context, st sabot.Store, u *sabot.User, table int64, limit int) ([]HistoryRound, error) {
	return recall.TableHistory(ctx, st, u, table, limit)
}

// RoundID is recall.RoundID.
func RoundID(table int64, round int) string { return recall.RoundID(table, round) }

// ParseRoundID is recall.ParseRoundID.
func ParseRoundID(s string) (table int64, n int, err error) { return recall.ParseRoundID(s) }
