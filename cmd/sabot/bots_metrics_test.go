package main

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
)

// The bots read the server's CPU and its players' decisions from its
// /metrics with the metrics token; without the token, or before any
// decision (the counter not shown yet), they read what is there.
func TestBotsReadTheServersCPUPerDecision(t *testing.T) {
	decisions := ""
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/metrics" || r.Header.Get("Authorization") != "Bearer tok" {
			http.Error(w, "no", http.StatusUnauthorized)
			return
		}
		fmt.Fprintf(w, "# HELP process_cpu_seconds_total x\nprocess_cpu_seconds_total 12.5\n%ssabot_decisions_total{by=\"timeout\"} 7\n", decisions)
	}))
	defer srv.Close()
	ctx := context.Background()
	if r := scrapeServerCPU(ctx, srv.URL, "wrong"); r.ok {
		t.Fatalf("a refused /metrics gave a reading: %+v", r)
	}
	if r := scrapeServerCPU(ctx, srv.URL+"/,http://127.0.0.1:1", "tok"); !r.ok || r.cpu != 12.5 || r.decisions != 0 {
		t.Fatalf("before any decision: %+v, want cpu 12.5, decisions 0", r)
	}
	decisions = "sabot_decisions_total{by=\"player\"} 4000\n"
	if r := scrapeServerCPU(ctx, srv.URL, "tok"); !r.ok || r.cpu != 12.5 || r.decisions != 4000 {
		t.Fatalf("got %+v, want cpu 12.5, decisions 4000 (the players' only)", r)
	}
}
