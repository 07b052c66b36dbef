package server

import "context"

// PauseNode stops (or starts again) a node's lease renewals and sharing
// out, as a SIGSTOP would, while it goes on serving its tables: the test of
// fencing without a second process.
func PauseNode(s *Server, paused bool) { s.cluster.Pause(paused) }

// NodeID is the node's ID in its cluster.
func NodeID(s *Server) string { return s.cluster.SelfID() }

// Local is how many tables the node serves itself.
func Local(s *Server) int { return len(s.tableList()) }

// Serves reports whether the node serves a table itself.
func Serves(s *Server, id int64) bool {
	_, err := s.table(id)
	return err == nil
}

// NarrowRTPWatch makes the return watch alarm at z beyond z from min rounds
// on, and computes the theory of a profile before the rounds: a test of
// the watch in a few rounds.
func NarrowRTPWatch(s *Server, z float64, min int64, profile string, options map[string]string) error {
	s.host.RTPZ, s.host.RTPMinRounds = z, min // the tables' host, made at Open
	_, err := s.theories.Of(context.Background(), profile, options)
	return err
}

// ForgetTable takes a table off the node's map, its actor and its lease
// left as they are: the moment after a node dropped a table, before the
// store says who serves it next. The function returned puts it back.
func ForgetTable(s *Server, id int64) (restore func()) {
	s.mu.Lock()
	a := s.tables[id]
	delete(s.tables, id)
	s.mu.Unlock()
	return func() {
		s.mu.Lock()
		s.tables[id] = a
		s.mu.Unlock()
	}
}

// SetReport makes a report job of that name run run instead: a slow
// report, a failing one.
func SetReport(s *Server, name string, run ReportRun) {
	if s.reportTest == nil {
		s.reportTest = map[string]ReportRun{}
	}
	s.reportTest[name] = run
}

// DefaultReport is the report of that name that the server runs.
func DefaultReport(name string) ReportRun { return reportRuns[name] }
