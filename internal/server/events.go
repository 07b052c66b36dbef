package server

import (
	"context"

	"sabot"
	"sabot/internal/recall"
)

// The significant-event log and the words of each kind of record are
// package recall's; the server keeps its names (issue 27: for the other
// branches; the lead removes them at the end).

// EventView is one entry of the significant-event log (recall.EventView).
type EventView = recall.EventView

// EventQuery selects significant events (recall.EventQuery).
type EventQuery = recall.EventQuery

// Events reads the significant-event log (recall.Events).
func Events(ctx context.Context, st sabot.Store, q EventQuery) ([]EventView, error) {
	return recall.Events(ctx, st, q)
}

// summarize says a record in a line (recall.Words).
func summarize(r *sabot.LogRecord) []sabot.Phrase { return recall.Words(r) }

// voidReason is the reason key of the engine's voids (recall.VoidReason).
func voidReason(text string) string { return recall.VoidReason(text) }
