package server

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
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
	return s.periodOf(v.Get("from"), v.Get("to"))
}

// periodOf reads a report's period from its from and to (RFC 3339; to
// defaults to now, from to a day before to).
func (s *Server) periodOf(fromText, toText string) (report.Period, error) {
	to := s.now().UTC()
	if x := toText; x != "" {
		t, err := time.Parse(time.RFC3339, x)
		if err != nil {
			return report.Period{}, sabot.Errorf(sabot.EINVALID, "to=%q is not an RFC 3339 time, e.g. 2026-11-22T06:00:00Z", x)
		}
		to = t
	}
	from := to.Add(-24 * time.Hour)
	if x := fromText; x != "" {
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
		return s.reportRun("tables")(r.Context(), s.reportStore(), th, p, ReportArgs{}, nil)
	})
}

func (s *Server) handleReportPlayers(w http.ResponseWriter, r *http.Request, _ *sabot.User) {
	s.report(w, r, func(p report.Period, th *report.Theories) (any, error) {
		return s.reportRun("players")(r.Context(), s.reportStore(), th, p, ReportArgs{Player: r.URL.Query().Get("player")}, nil)
	})
}

func (s *Server) handleReportAdvantage(w http.ResponseWriter, r *http.Request, _ *sabot.User) {
	s.report(w, r, func(p report.Period, th *report.Theories) (any, error) {
		return s.reportRun("advantage")(r.Context(), s.reportStore(), th, p, ReportArgs{}, nil)
	})
}

// ReportRun runs one report of the period (paced beside the tables), telling
// progress (nil: nobody) of the rounds it has read.
type ReportRun func(ctx context.Context, src sabot.Store, th *report.Theories, p report.Period, a ReportArgs, progress func(rounds int64)) (any, error)

// ReportArgs are a report's parameters besides its period.
type ReportArgs struct {
	Player string // the players' report: one player's rating
}

// reportRuns are the reports served, by name (a report job's "report").
var reportRuns = map[string]ReportRun{
	"tables": func(ctx context.Context, src sabot.Store, th *report.Theories, p report.Period, _ ReportArgs, progress func(int64)) (any, error) {
		return report.TablesReportWith(ctx, report.Paced(src, ReportPace), th, p, report.TablesOptions{Progress: progress})
	},
	"players": func(ctx context.Context, src sabot.Store, th *report.Theories, p report.Period, a ReportArgs, progress func(int64)) (any, error) {
		return report.PlayersReport(ctx, report.Paced(src, ReportPace), th, p, report.PlayersOptions{Player: a.Player, Progress: progress})
	},
	// The advantage report reads no rounds one by one (its rows are the
	// players' bets by count): its job's progress stays 0 until done.
	"advantage": func(ctx context.Context, src sabot.Store, _ *report.Theories, p report.Period, _ ReportArgs, _ func(int64)) (any, error) {
		return report.AdvantageReport(ctx, report.Paced(src, ReportPace), p, report.AdvantageOptions{})
	},
}

// reportRun is the report of that name (a test's own, if it set one).
func (s *Server) reportRun(name string) ReportRun {
	if run := s.reportTest[name]; run != nil {
		return run
	}
	return reportRuns[name]
}

// ---- report jobs (docs/pit.md, "Report jobs") ----
//
// A report over a year can outrun the server's write timeout (30 s): the
// page starts it as a job (POST /api/admin/reports/jobs), polls the job
// for the rounds read, then its answer or its error, and may cancel it.
// A job runs in the memory of the node that started it (report.Jobs: one
// running job an administrator, MaxJobs kept, nobody reads another's); it
// waits for the node's report slot as a report asked directly would be
// refused for it. In a cluster the job's ID names its node ("7@node"):
// a poll that reaches another node (behind a balancer) is answered 409
// with the node that has it, rather than a 404 that would read as gone.

// reportJobRequest is a report job's body: which report and its
// parameters, as GET /api/admin/reports/{report} takes them.
type reportJobRequest struct {
	Report string `json:"report"`
	From   string `json:"from,omitempty"`
	To     string `json:"to,omitempty"`
	Player string `json:"player,omitempty"`
}

// reportJobView is a job as its poll answers: report.JobView, its ID with
// its node's (its owner is the one asking).
type reportJobView struct {
	ID     string `json:"id"`
	Node   string `json:"node,omitempty"`
	Report string `json:"report"`
	Rounds int64  `json:"rounds"`
	Done   bool   `json:"done"`
	Error  string `json:"error,omitempty"`
	Code   string `json:"code,omitempty"` // the error's code (sabot.Codes)
	Result any    `json:"result,omitempty"`
}

func (s *Server) jobID(n int64) string {
	if node := s.cluster.SelfID(); node != "" {
		return fmt.Sprintf("%d@%s", n, node)
	}
	return strconv.FormatInt(n, 10)
}

// jobOf reads a job's ID from the path: its number, on this node.
func (s *Server) jobOf(r *http.Request) (int64, error) {
	text := r.PathValue("id")
	num, node, named := strings.Cut(text, "@")
	n, err := strconv.ParseInt(num, 10, 64)
	if err != nil || n <= 0 {
		return 0, sabot.Errorf(sabot.EINVALID, "report job %q: an ID is a number, with @ and its node in a cluster (as POST /api/admin/reports/jobs answered)", text)
	}
	if self := s.cluster.SelfID(); named && node != self {
		if self == "" {
			self = "this server"
		}
		return 0, sabot.Errorf(sabot.ECONFLICT, "report job %d runs on node %s, not on %s: a job lives in the memory of the node that started it; ask that node", n, node, self)
	}
	return n, nil
}

func (s *Server) handleReportJobStart(w http.ResponseWriter, r *http.Request, u *sabot.User) {
	var req reportJobRequest
	if err := decode(r, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	run := s.reportRun(req.Report)
	if run == nil {
		s.writeError(w, r, sabot.Errorf(sabot.EINVALID, "report %q: one of tables, players, advantage", req.Report))
		return
	}
	if req.Player != "" && req.Report != "players" {
		s.writeError(w, r, sabot.Errorf(sabot.EINVALID, "player: only the players' report takes one, not the %s report", req.Report))
		return
	}
	p, err := s.periodOf(req.From, req.To)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	th, src, name := s.reportTheories(), s.reportStore(), req.Report
	id, err := s.reportJobs.Start(r.Context(), u.Name, name, func(ctx context.Context, progress func(int64)) (any, error) {
		// The node's report slot, taken inside the job: it waits its turn
		// (cancellable) instead of being refused.
		select {
		case s.reportSlot <- struct{}{}:
			defer func() { <-s.reportSlot }()
		case <-ctx.Done():
			return nil, sabot.Errorf(sabot.ECONFLICT, "the %s report was cancelled before it ran", name)
		}
		out, err := run(ctx, src, th, p, ReportArgs{Player: req.Player}, progress)
		if err != nil && ctx.Err() != nil {
			err = sabot.Errorf(sabot.ECONFLICT, "the %s report was cancelled", name)
		}
		return out, err
	})
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusAccepted, reportJobView{ID: s.jobID(id), Node: s.cluster.SelfID(), Report: name})
}

func (s *Server) handleReportJob(w http.ResponseWriter, r *http.Request, u *sabot.User) {
	n, err := s.jobOf(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	v, err := s.reportJobs.Get(u.Name, n)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	out := reportJobView{ID: s.jobID(n), Node: s.cluster.SelfID(), Report: v.Report, Rounds: v.Rounds, Done: v.Done, Error: v.Error, Code: v.Code, Result: v.Result}
	writeJSON(w, http.StatusOK, out)
}

func (s *Server) handleReportJobCancel(w http.ResponseWriter, r *http.Request, u *sabot.User) {
	n, err := s.jobOf(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if err := s.reportJobs.Cancel(u.Name, n); err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]bool{"ok": true})
}
