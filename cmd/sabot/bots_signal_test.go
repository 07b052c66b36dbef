package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"sabot/internal/client"
	"sabot/internal/testwait"
	"sabot/internal/wire"
)

// `sabot bots` stopped from outside (SIGINT, SIGTERM: a load run ended)
// stops its bots where they are, prints the report of what they played
// until then and exits 0; the bots stand up, so their seats are free.
func TestBotsStopOnSignalWithTheirReport(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	p := startServe(t, filepath.Join(dir, "sabot.db"), freeAddr(t),
		"--public-reads", "-1", "--bet-window", "100ms", "--decision-time", "300ms", "--window-time", "200ms")
	defer p.stop(t)
	for i, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			prefix := "sig" + strconv.Itoa(i)
			args, _ := json.Marshal([]string{"bots", "--url", p.url, "--tables", "1", "--players", "2", "--rounds", "100000",
				"--profile", "venice", "--prefix", prefix})
			cmd := exec.Command(os.Args[0], "-test.run=^$")
			cmd.Env = append(os.Environ(), runMainEnv+"="+string(args), AdminPasswordEnv+"=admin-password")
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			ctx := context.Background()
			lobby := &client.Client{URL: p.url}
			mine := func(v *wire.TableView) bool { return len(v.Name) >= len(prefix) && v.Name[:len(prefix)] == prefix }
			testwait.Until(t, 2*time.Minute, "the bots seated and dealing a second round", func() bool {
				var views []*wire.TableView
				return lobby.Do(ctx, "GET", "/api/tables", nil, &views) == nil && slices.ContainsFunc(views, func(v *wire.TableView) bool {
					return mine(v) && v.Round != nil && v.Round.No >= 2 && len(v.Seats) == 2
				})
			})
			cmd.Process.Signal(sig)
			select {
			case err := <-done:
				if err != nil {
					t.Fatalf("sabot bots on %v: %v\nstdout %s\nstderr %s", sig, err, stdout.String(), stderr.String())
				}
			case <-time.After(testwait.Deadline(30 * time.Second)):
				cmd.Process.Kill()
				<-done
				t.Fatalf("sabot bots did not stop on %v", sig)
			}
			m := regexp.MustCompile(`^tables 1  players 2  rounds (\d+)  decisions (\d+)  errors 0  races \d+  in [0-9.]+s\ndecisions/s \d+  decision-to-event p50 `).FindStringSubmatch(stdout.String())
			if m == nil {
				t.Fatalf("the report on %v:\n%s\nstderr %s", sig, stdout.String(), stderr.String())
			}
			if rounds, _ := strconv.Atoi(m[1]); rounds == 0 {
				t.Errorf("the report counts no round played, the table dealt two:\n%s", stdout.String())
			}
			var views []*wire.TableView
			if err := lobby.Do(ctx, "GET", "/api/tables", nil, &views); err != nil {
				t.Fatal(err)
			}
			for _, v := range views {
				if mine(v) && len(v.Seats) != 0 {
					t.Errorf("table %s: seats %+v after the bots stopped; want every bot stood up", v.Name, v.Seats)
				}
			}
		})
	}
}

// VE-20: one bot alone at a venice table would never be dealt a round (a
// lone customer plays two boxes, a bot one): refused in one line naming
// VE-20, exit status 2, before any server is asked.
func TestBotsLonePlayerRefused_VE20(t *testing.T) {
	_, stderr, code := run(t, "", "bots", "--url", "http://127.0.0.1:1", "--players", "1", "--profile", "venice")
	if code != exitRefused || !strings.Contains(stderr, "VE-20") || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	// spain has no such rule: the same command goes on to the server (here none).
	if _, stderr, code := run(t, "", "bots", "--url", "http://127.0.0.1:1", "--players", "1", "--profile", "spain"); code == exitRefused || strings.Contains(stderr, "VE-20") {
		t.Fatalf("spain: exit %d, stderr %q", code, stderr)
	}
}
