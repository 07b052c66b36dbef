package sabot_test

import (
	"testing"

	"sabot"
)

// TestEventLogIsNoTable: the significant-event log's new row is known as
// it, and a table of a profile is not; the row's stored form is a table
// without a profile (unchanged: TestLogFixture replays a store of it).
func TestEventLogIsNoTable(t *testing.T) {
	if l := sabot.EventLog(); !l.IsEventLog() || l.Name != sabot.EventLogName || l.Profile != "" {
		t.Errorf("the event log's row %+v", l)
	}
	if (&sabot.Table{Name: "one", Profile: "venice"}).IsEventLog() {
		t.Error("a table of a profile taken for the event log")
	}
}
