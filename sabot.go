// Package sabot is the application domain shared by the store, the table
// server and the command line: users and their wallets, the double-entry
// ledger, tables, and the append-only log from which every table and round is
// rebuilt (game recall, crash recovery). The rules themselves live in the
// core packages card, shoe, rules, engine and table.
package sabot
