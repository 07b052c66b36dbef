package server

import (
	"time"

	"sabot"
	"sabot/internal/report"
)

// The reports' rollups (docs/pit.md, "Rollups"): every RollupEvery the
// server brings the store's sums of the reports by hour and day up to the
// tables' logs (report.RollUp, paced as the reports it serves are),
// so that a report over a long period reads days and hours, and the tail
// of each log since the last run. Each node of a cluster runs it; a table another node
// rolled up meanwhile is left to it (the mark's compare and set).

// DefaultRollupEvery is how often the server rolls the reports' sums up,
// unless RollupEvery says otherwise.
const DefaultRollupEvery = 5 * time.Minute

// runRollups rolls up every RollupEvery until the server closes, where the
// store keeps rollups: the kinds that take microseconds a record on one
// loop, those that take milliseconds (the cost of errors, whose first
// rollup of a big store takes hours) on another, so that these never hold
// the others back.
func (s *Server) runRollups() {
	every := durationOr(s.RollupEvery, DefaultRollupEvery)
	if every <= 0 || !sabot.CapabilitiesOf(s.Store).Has(sabot.CapRollups) {
		return
	}
	for _, costly := range []bool{false, true} {
		kinds := report.RollupKinds(costly)
		if len(kinds) == 0 {
			continue
		}
		s.wg.Go(func() {
			tick := time.NewTicker(every)
			defer tick.Stop()
			for {
				s.rollUp(kinds)
				select {
				case <-s.ctx.Done():
					return
				case <-tick.C:
				}
			}
		})
	}
}

// rollUp runs one rollup of kinds and logs what it did.
func (s *Server) rollUp(kinds []string) {
	began := time.Now()
	done, err := report.RollUp(s.ctx, report.Paced(s.Store, ReportPace), nil, kinds...)
	if err != nil {
		if s.ctx.Err() == nil {
			s.logger().Warn("the reports' rollup stopped", "err", err, "kinds", kinds, "tables", done.Tables, "records", done.Records)
		}
		return
	}
	s.metrics.rollupRecords.Add(float64(done.Records))
	if done.Records > 0 || done.Left > 0 {
		s.logger().Debug("the reports' rollup", "kinds", kinds, "tables", done.Tables, "records", done.Records, "left", done.Left, "took", time.Since(began))
	}
}

// DefaultSweepEvery is how often the server deletes the sessions idle past
// their time, unless SweepEvery says otherwise.
const DefaultSweepEvery = 10 * time.Minute

// runSweeps deletes the sessions over (idle past Timing.SessionIdle) every
// SweepEvery until the server closes: nothing else deletes a session
// nobody uses again. Every node sweeps; it is one DELETE.
func (s *Server) runSweeps() {
	every := durationOr(s.SweepEvery, DefaultSweepEvery)
	c := s.care()
	if every <= 0 || c == nil {
		return
	}
	s.wg.Go(func() {
		tick := time.NewTicker(every)
		defer tick.Stop()
		for {
			select {
			case <-s.ctx.Done():
				return
			case <-tick.C:
			}
			s.sweep(c)
		}
	})
}

// sweep deletes the sessions over now.
func (s *Server) sweep(c sabot.Care) {
	n, err := c.SweepSessions(s.ctx, s.now().Add(-s.timing().SessionIdle))
	if err != nil {
		if s.ctx.Err() == nil {
			s.logger().Warn("sessions over not swept", "err", err)
		}
		return
	}
	if n > 0 {
		s.logger().Info("sessions over swept", "sessions", n)
	}
}
