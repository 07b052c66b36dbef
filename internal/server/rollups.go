package server

import (
	"time"

	"sabot"
	"sabot/internal/report"
)

// The reports' rollups (docs/pit.md, "Rollups"): every RollupEvery the
// server brings the store's sums of the tables' report by hour and day up
// to the tables' logs (report.RollUp, paced as the reports it serves are),
// so that a report over a long period reads days and hours, and the tail
// of each log since the last run. Each node of a cluster runs it; a table another node
// rolled up meanwhile is left to it (the mark's compare and set).

// DefaultRollupEvery is how often the server rolls the reports' sums up,
// unless RollupEvery says otherwise.
const DefaultRollupEvery = 5 * time.Minute

// runRollups rolls up every RollupEvery until the server closes, where the
// store keeps rollups.
func (s *Server) runRollups() {
	every := durationOr(s.RollupEvery, DefaultRollupEvery)
	if every <= 0 || !sabot.CapabilitiesOf(s.Store).Has(sabot.CapRollups) {
		return
	}
	s.wg.Go(func() {
		tick := time.NewTicker(every)
		defer tick.Stop()
		for {
			s.rollUp()
			select {
			case <-s.ctx.Done():
				return
			case <-tick.C:
			}
		}
	})
}

// rollUp runs one rollup and logs what it did.
func (s *Server) rollUp() {
	began := time.Now()
	done, err := report.RollUp(s.ctx, report.Paced(s.Store, ReportPace), nil)
	if err != nil {
		if s.ctx.Err() == nil {
			s.logger().Warn("the reports' rollup stopped", "err", err, "tables", done.Tables, "records", done.Records)
		}
		return
	}
	s.metrics.rollupRecords.Add(float64(done.Records))
	if done.Records > 0 || done.Left > 0 {
		s.logger().Debug("the reports' rollup", "tables", done.Tables, "records", done.Records, "left", done.Left, "took", time.Since(began))
	}
}
