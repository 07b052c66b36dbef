// Package tablelog owns the table log's stored format:
// each kind's payload as one Go type, and the partial reads a reader needs
// for speed, each a subset of its kind's type, decoding the same bytes.
// The payloads are part of the stored format: fields are added, never
// renamed (internal/recall/testdata/log-1b82554.db holds a store written
// before this package, and internal/recall's TestLogFixture what is read
// from it).
//
// The writers (the table actor, the live table, the operator's wallet, the
// significant-event log) and the readers (recall, the reports, the
// operator's wallet) use these types; none declares a payload of its own.
package tablelog
