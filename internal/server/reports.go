package server

import (
	"net/http"
	"time"

	"sabot"
	"sabot/internal/report"
)

// The pit's reports over HTTP (docs/pit.md): thin handlers over
// package report, which reads the store. One report runs at a time on a
// node, so that reports cannot take the tables' processor and store; a
// period is at most MaxReportDays long.

// MaxReportDays bounds a report's period over HTTP (the command line has
// no bound).
const MaxReportDays = 366

// ReportPace paces the reports a node runs beside its tables
// (report.Paced): they pause as long as they work.
const ReportPace = 1.0

func (s *Server) reportTheories() *report.Theories {
	s.reportOnce.Do(func() {
		s.reportSlot = make(chan struct{}, 1)
		if s.theories != nil {
			s.reportTh = s.theories // the watch's, when it runs
		} else {
			s.reportTh = report.NewTheories()
		}
	})
	return s.reportTh
}

// reportPeriod reads ?from= and ?to= (RFC 3339; to defaults to now, from
// to a day before to).
func (s *Server) reportPeriod(r *http.Request) (report.Period, error) {
	v := r.URL.Query()
	to := s.now().UTC()
	if x := v.Get("to"); x != "" {
		t, err := time.Parse(time.RFC3339, x)
		if err != nil {
			return report.Period{}, sabot.Errorf(sabot.EINVALID, "to=%q is not an RFC 3339 time, e.g. 2026-11-22T06:00:00Z", x)
		}
		to = t
	}
	from := to.Add(-24 * time.Hour)
	if x := v.Get("from"); x != "" {
		t, err := time.Parse(time.RFC3339, x)
		if err != nil {
			return report.Period{}, sabot.Errorf(sabot.EINVALID, "from=%q is not an RFC 3339 time, e.g. 2026-11-22T06:00:00Z", x)
		}
		from = t
	}
	p := report.Period{From: from, To: to}
	if err := p.Check(); err != nil {
		return p, err
	}
	if to.Sub(from) > MaxReportDays*24*time.Hour {
		return p, sabot.Errorf(sabot.EINVALID, "a report's period is at most %d days here; sabot report on the command line has no bound", MaxReportDays)
	}
	return p, nil
}

// reportStore is the store the reports read: ReportStore, else Store.
func (s *Server) reportStore() sabot.Store {
	if s.ReportStore != nil {
		return s.ReportStore
	}
	return s.Store
}

// report runs one report at a time.
func (s *Server) report(w http.ResponseWriter, r *http.Request, run func(report.Period, *report.Theories) (any, error)) {
	p, err := s.reportPeriod(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	th := s.reportTheories()
	select {
	case s.reportSlot <- struct{}{}:
		defer func() { <-s.reportSlot }()
	default:
		e := sabot.Errorf(sabot.EUNAVAILABLE, "refused: another report is running on this node; try again when it is done")
		e.RetryAfter = 5 * time.Second
		s.writeError(w, r, e)
		return
	}
	out, err := run(p, th)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, out)
}

func (s *Server) handleReportTables(w http.ResponseWriter, r *http.Request, _ *sabot.User) {
	s.report(w, r, func(p report.Period, th *report.Theories) (any, error) {
		return report.TablesReport(r.Context(), report.Paced(s.reportStore(), ReportPace), th, p)
	})
}

func (s *Server) handleReportPlayers(w http.ResponseWriter, r *http.Request, _ *sabot.User) {
	s.report(w, r, func(p report.Period, th *report.Theories) (any, error) {
		return report.PlayersReport(r.Context(), report.Paced(s.reportStore(), ReportPace), th, p, report.PlayersOptions{Player: r.URL.Query().Get("player")})
	})
}

func (s *Server) handleReportAdvantage(w http.ResponseWriter, r *http.Request, _ *sabot.User) {
	s.report(w, r, func(p report.Period, _ *report.Theories) (any, error) {
		return report.AdvantageReport(r.Context(), report.Paced(s.reportStore(), ReportPace), p, report.AdvantageOptions{})
	})
}
