package server_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"sabot"
	"sabot/internal/client"
	pitreport "sabot/internal/report"
	"sabot/internal/server"
	"sabot/internal/testwait"
	"sabot/internal/wire"
)

// jobView is a report job's poll as the page reads it.
type jobView struct {
	ID     string          `json:"id"`
	Node   string          `json:"node"`
	Report string          `json:"report"`
	Rounds int64           `json:"rounds"`
	Done   bool            `json:"done"`
	Error  string          `json:"error"`
	Code   string          `json:"code"`
	Result json.RawMessage `json:"result"`
}

// startJob starts a report job of c's.
func startJob(t *testing.T, c *client.Client, body map[string]string) (jobView, error) {
	t.Helper()
	var v jobView
	err := c.Do(context.Background(), "POST", "/api/admin/reports/jobs", body, &v)
	return v, err
}

// pollJob asks for a job until it is done: its last answer.
func pollJob(t *testing.T, c *client.Client, id string) jobView {
	t.Helper()
	var v jobView
	testwait.Until(t, 30*time.Second, "report job "+id+" done", func() bool {
		v = jobView{}
		if err := c.Do(context.Background(), "GET", "/api/admin/reports/jobs/"+id, nil, &v); err != nil {
			t.Fatalf("poll of job %s: %v", id, err)
		}
		return v.Done
	})
	return v
}

// gated is the advantage report that, once hold is set, says it has read
// 1,000 rounds, then waits for release (or its cancel) and answers
// {"rounds":1000}.
func gated(hold *atomic.Bool, started chan<- struct{}, release <-chan struct{}) server.ReportRun {
	real := server.DefaultReport("advantage")
	return func(ctx context.Context, st sabot.Store, th *pitreport.Theories, p pitreport.Period, a server.ReportArgs, progress func(int64)) (any, error) {
		if !hold.Load() {
			return real(ctx, st, th, p, a, progress)
		}
		progress(1000)
		started <- struct{}{}
		select {
		case <-release:
			return map[string]int{"rounds": 1000}, nil
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// Report jobs over HTTP: each report started as a job
// answers at once (202), its poll says the rounds read, then its answer;
// administrators only, one running job each, nobody reads or cancels
// another's; a bad request refused with its reason; a cancelled job ends
// with its reason.
func TestReportJobsOverHTTP(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	started, release := make(chan struct{}, 1), make(chan struct{})
	var hold atomic.Bool
	h := newLimited(t, nil, func(s *server.Server) { server.SetReport(s, "advantage", gated(&hold, started, release)) })
	tb := h.table("vegas-s17", true, nil)
	ana := h.player("ana", 100000)
	must(ana.Command(ctx, tb, "sit", wire.CommandRequest{Box: 1}))
	for n := 1; n <= 2; n++ {
		must(h.admin.Command(ctx, tb, "force-cards", wire.CommandRequest{Cards: "TS TD 6H 7C"}))
		must(ana.Command(ctx, tb, "bet", wire.CommandRequest{Box: 1, Stake: 1000}))
		must(ana.Command(ctx, tb, "act", wire.CommandRequest{Action: "stand", Box: 1}))
		waitRound(t, ana, tb, n)
	}

	// The three reports, each a job, as the page runs them.
	v := must(startJob(t, h.admin, map[string]string{"report": "tables"}))
	if v.ID == "" || v.Done || v.Report != "tables" {
		t.Fatalf("a job started: %+v", v)
	}
	done := pollJob(t, h.admin, v.ID)
	var tables pitreport.Tables
	if done.Error != "" || json.Unmarshal(done.Result, &tables) != nil || tables.Total.Rounds != 2 || tables.Total.Win != 2000 || done.Rounds != 2 {
		t.Fatalf("the tables' job: %+v (%s)", done, done.Result)
	}
	// A job read done is gone.
	err := h.admin.Do(ctx, "GET", "/api/admin/reports/jobs/"+v.ID, nil, nil)
	wantCode(t, err, sabot.ENOTFOUND, "no report job")
	done = pollJob(t, h.admin, must(startJob(t, h.admin, map[string]string{"report": "players", "player": "ana"})).ID)
	var players pitreport.Players
	if json.Unmarshal(done.Result, &players) != nil || len(players.Players) != 1 || players.Players[0].Rounds != 2 || done.Rounds != 2 {
		t.Fatalf("the players' job: %+v (%s)", done, done.Result)
	}
	done = pollJob(t, h.admin, must(startJob(t, h.admin, map[string]string{"report": "advantage", "from": "2020-01-01T00:00:00Z", "to": "2020-01-02T00:00:00Z"})).ID)
	var adv pitreport.Advantage
	if json.Unmarshal(done.Result, &adv) != nil || len(adv.Players) != 0 || done.Report != "advantage" {
		t.Fatalf("the advantage job of a day without play: %+v (%s)", done, done.Result)
	}

	// Bad requests: each refused with its reason.
	for _, c := range []struct {
		body map[string]string
		code string
		text string
	}{
		{map[string]string{"report": "nope"}, sabot.EINVALID, `report "nope": one of tables, players, advantage`},
		{map[string]string{}, sabot.EINVALID, `report "": one of`},
		{map[string]string{"report": "tables", "from": "yesterday"}, sabot.EINVALID, `from="yesterday" is not an RFC 3339 time`},
		{map[string]string{"report": "tables", "from": "2020-01-01T00:00:00Z", "to": "2026-01-01T00:00:00Z"}, sabot.EINVALID, "at most 366 days"},
		{map[string]string{"report": "tables", "player": "ana"}, sabot.EINVALID, "only the players' report takes one"},
		{map[string]string{"report": "tables", "table": "1"}, sabot.EINVALID, "table"},
	} {
		_, err := startJob(t, h.admin, c.body)
		wantCode(t, err, c.code, c.text)
	}
	wantCode(t, h.admin.Do(ctx, "GET", "/api/admin/reports/jobs/x", nil, nil), sabot.EINVALID, `report job "x": an ID is a number`)
	wantCode(t, h.admin.Do(ctx, "GET", "/api/admin/reports/jobs/99", nil, nil), sabot.ENOTFOUND, "no report job 99 of pit")
	wantCode(t, h.admin.Do(ctx, "GET", "/api/admin/reports/jobs/3@elsewhere-1-abc", nil, nil), sabot.ECONFLICT, "report job 3 runs on node elsewhere-1-abc")
	_, err = startJob(t, ana, map[string]string{"report": "tables"})
	wantCode(t, err, sabot.EFORBIDDEN, "administrators only")

	// A job running: its progress; one at a time; another administrator
	// can neither read nor cancel it, and runs his own.
	hold.Store(true)
	v = must(startJob(t, h.admin, map[string]string{"report": "advantage"}))
	<-started
	var now jobView
	must(0, h.admin.Do(ctx, "GET", "/api/admin/reports/jobs/"+v.ID, nil, &now))
	if now.Done || now.Rounds != 1000 || now.Report != "advantage" {
		t.Fatalf("a running job's poll: %+v", now)
	}
	_, err = startJob(t, h.admin, map[string]string{"report": "tables"})
	wantCode(t, err, sabot.ECONFLICT, "still runs: one at a time")
	if err := h.srv.EnsureAdmin(ctx, "inspector", password); err != nil {
		t.Fatal(err)
	}
	other := &client.Client{URL: h.srv.URL()}
	must(other.Login(ctx, "inspector", password))
	wantCode(t, other.Do(ctx, "GET", "/api/admin/reports/jobs/"+v.ID, nil, nil), sabot.ENOTFOUND, "of inspector")
	wantCode(t, other.Do(ctx, "DELETE", "/api/admin/reports/jobs/"+v.ID, nil, nil), sabot.ENOTFOUND, "of inspector")
	// His job waits for the node's report slot, which pit's holds.
	w := must(startJob(t, other, map[string]string{"report": "tables"}))

	// Cancelled: it ends with its reason; then the inspector's runs.
	must(0, h.admin.Do(ctx, "DELETE", "/api/admin/reports/jobs/"+v.ID, nil, nil))
	done = pollJob(t, h.admin, v.ID)
	if done.Code != sabot.ECONFLICT || done.Error != "the advantage report was cancelled" || done.Result != nil {
		t.Fatalf("a cancelled job: %+v", done)
	}
	done = pollJob(t, other, w.ID)
	if done.Error != "" || json.Unmarshal(done.Result, &tables) != nil || tables.Total.Rounds != 2 {
		t.Fatalf("the inspector's job after the slot was free: %+v", done)
	}
	close(release)
}

// A report slower than the server's write timeout (the
// players' report outran 30 s and the page got no answer): asked directly
// its connection is cut with no answer; as a job every request is
// answered and the poll brings the result once the report ends. The
// write timeout here is 200 ms and the report takes 3 of them (a timer in
// the injected report, not a sleep of the test's).
func TestReportJobOutlivesWriteTimeout(t *testing.T) {
	t.Parallel()
	const timeout = time.Second
	slowReport := func(ctx context.Context, _ sabot.Store, _ *pitreport.Theories, _ pitreport.Period, _ server.ReportArgs, progress func(int64)) (any, error) {
		if progress != nil { // nil asked directly
			progress(1000)
		}
		select {
		case <-time.After(3 * timeout):
			return map[string]int{"rounds": 1000}, nil
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	h := newLimited(t, nil, func(s *server.Server) {
		s.WriteTimeout = timeout
		server.SetReport(s, "tables", slowReport)
	})
	ctx := context.Background()
	// Directly: the answer comes after the write timeout, and is lost.
	req, _ := http.NewRequest("GET", h.srv.URL()+"/api/admin/reports/tables", nil)
	req.Header.Set("Authorization", "Bearer "+h.admin.Token)
	resp, err := http.DefaultClient.Do(req)
	if err == nil {
		var body map[string]any
		err = json.NewDecoder(resp.Body).Decode(&body)
		resp.Body.Close()
		if err == nil {
			t.Fatalf("the slow report asked directly was answered %d %v: the write timeout did not cut it (a test of nothing)", resp.StatusCode, body)
		}
	}
	t.Logf("asked directly: %v", err)
	// As a job.
	start := time.Now()
	v := must(startJob(t, h.admin, map[string]string{"report": "tables"}))
	done := pollJob(t, h.admin, v.ID)
	if took := time.Since(start); took < 3*timeout {
		t.Fatalf("the job ended after %v, before its report's %v", took, 3*timeout)
	}
	if done.Error != "" || string(done.Result) != `{"rounds":1000}` || done.Rounds != 1000 {
		t.Fatalf("the slow job's answer: %+v (%s)", done, done.Result)
	}
	var e *sabot.Error
	if err := h.admin.Do(ctx, "GET", "/api/admin/reports/jobs/"+v.ID, nil, nil); !errors.As(err, &e) || e.Code != sabot.ENOTFOUND {
		t.Fatalf("the job read done is still kept: %v", err)
	}
}
