// Package actor is a table of `sabot serve`: one goroutine (its actor) owns
// the table.Table and applies the commands sent to it one at a time, in the
// order they reach it. Every change is written to the table's append-only
// log, with its postings on the ledger, before anybody is told of it, so
// that the table is rebuilt exactly by replaying its log (Start): on every
// start (crash recovery, GLI-19 §4.16, B.3), and for game recall (§4.14).
//
// The registries a table reads are here: its commands (table_commands.go)
// and its log kinds (logkinds.go). Its feed of events to its subscribers
// (feed.go), its timers (alarm, table_timers.go; the seats', AR-21,
// seats.go), its fence under a lease (cluster.Fence) and its operator's
// debits (operator.Debits) are values the actor holds. What it asks of the
// server that runs it is one struct, Host; the server (internal/server)
// reaches a table through Table's methods only (api.go).
package actor
