package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"sabot/internal/client"
	"sabot/internal/wire"
)

// A first `sabot serve` on a fresh store opens one table per built-in
// profile and credits each new player, so that the README's main job has a
// lobby to show; a second start opens no more tables.
func TestServeOpensDefaultTables(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "sabot.db")
	for start := 0; start < 2; start++ {
		ctx, cancel := context.WithCancel(context.Background())
		pr, pw := io.Pipe()
		logs := &lockedBuffer{}
		done := make(chan int)
		go func() {
			done <- Run(ctx, []string{"serve", "--addr", "127.0.0.1:0", "--db", db, "--bcrypt-cost", "4"}, strings.NewReader(""), pw, logs)
			pw.Close()
		}()
		line, err := bufio.NewReader(pr).ReadString('\n')
		if err != nil {
			t.Fatalf("serve printed no address: %v", err)
		}
		go io.Copy(io.Discard, pr)
		url := strings.TrimSpace(strings.TrimPrefix(line, "sabot serve: "))
		// The start-up log counts the tables open
		// (it said tables=0 with the six default tables open).
		if want := fmt.Sprintf("msg=serving url=%s tables=%d ", url, len(defaultTables)); !strings.Contains(logs.String(), want) {
			t.Errorf("start %d: the log lacks %q:\n%s", start, want, logs.String())
		}
		c := &client.Client{URL: url}
		var tables []wire.TableView
		if err := c.Do(context.Background(), "GET", "/api/tables", nil, &tables); err != nil {
			t.Fatal(err)
		}
		if len(tables) != len(defaultTables) {
			t.Fatalf("start %d: %d tables, want %d", start, len(tables), len(defaultTables))
		}
		if start == 0 {
			var made wire.UserView
			if err := c.Do(context.Background(), "POST", "/api/register", wire.Credentials{Name: "ana", Password: "a long password"}, &made); err != nil {
				t.Fatal(err)
			}
			if made.Wallet != 1000_00 {
				t.Fatalf("the registration says a wallet of %d, want the welcome credit", made.Wallet)
			}
			if _, err := c.Login(context.Background(), "ana", "a long password"); err != nil {
				t.Fatal(err)
			}
			me, err := c.Me(context.Background())
			if err != nil || me.Wallet != 1000_00 {
				t.Fatalf("welcome credit: %+v %v", me, err)
			}
		}
		cancel()
		select {
		case code := <-done:
			if code != 0 {
				t.Fatalf("serve exited %d", code)
			}
		case <-time.After(20 * time.Second):
			t.Fatal("serve did not shut down")
		}
	}
}

// lockedBuffer is a bytes.Buffer that a command writes while a test reads.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
