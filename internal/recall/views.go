package recall

// Every payload recall reads is internal/tablelog's, which its writers (the
// table actor, the staff's live table, the operator's wallet) share. The
// significant events (the pit's, the server's, the staff's) are
// wire.AdminEvent, which every writer and recall share.

// A card read, the cut card's coming out, a decision, a configuration
// change and a table's opening are tablelog.Card, tablelog.Cut,
// tablelog.Decision, tablelog.Configure and tablelog.Opened.
