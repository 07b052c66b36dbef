package server

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"sabot"
	"sabot/internal/actor"
	"sabot/internal/store/sqlite"
	"sabot/internal/wire"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// TestCommandAnswersGolden pins what a client reads when he sends a table
// command, over HTTP and on the WebSocket, as a player and as an
// administrator, byte for byte (the commands' registry changes
// nothing on the wire): the routes and who may use them, the WebSocket's
// refusals of an op, the checks every command has (command ID, stake
// bound, strict JSON), each command's reading of its body (forced cards)
// and its first refusal at an empty table. Names that are not commands
// (the server's own requests: view, subscribe) are refused as before.
// testdata/commands.golden was written by the code before the registry;
// rewrite it with -update only for a change of the protocol.
func TestCommandAnswersGolden(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st := sqlite.NewDB(filepath.Join(t.TempDir(), "golden.db"))
	if err := st.Open(ctx); err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	s := &Server{Store: st, TestMode: true, BcryptCost: 4,
		CommandRate: -1, SitsPerMinute: -1, // the answers of every command, not their rate
		Timing: actor.Timing{BetWindow: time.Hour, Decision: time.Hour, Window: time.Hour}}
	if err := s.Open(); err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	h := s.Handler()
	post := func(path, token, body string) (int, string) {
		req := httptest.NewRequest("POST", path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		out := strings.TrimSpace(rec.Body.String())
		if !strings.HasPrefix(rec.Header().Get("Content-Type"), "application/json") {
			out = "(" + rec.Header().Get("Content-Type") + ")"
		}
		return rec.Code, out
	}
	users := map[string]*sabot.User{}
	tokens := map[string]string{}
	for _, who := range []string{"player", "admin"} {
		u, err := s.CreateUser(ctx, who, "password-"+who, who == "admin")
		if err != nil {
			t.Fatal(err)
		}
		users[who] = u
		code, body := post("/api/login", "", fmt.Sprintf(`{"name":%q,"password":"password-%s"}`, who, who))
		if code != http.StatusOK {
			t.Fatalf("login %s: %d %s", who, code, body)
		}
		tokens[who] = body[strings.Index(body, `"token":"`)+9:]
		tokens[who] = tokens[who][:strings.IndexByte(tokens[who], '"')]
	}
	v, err := s.CreateTable(ctx, &sabot.Table{Name: "golden", Profile: "venice", TestMode: true})
	if err != nil {
		t.Fatal(err)
	}
	a, err := s.table(v.ID)
	if err != nil {
		t.Fatal(err)
	}

	names := []string{"sit", "leave", "bet", "withdraw", "act", "decline", "force-cards", "new-shoe", "void", "configure", "authorise-shuffle", "cut-shoe",
		"snapshot", "view", "subscribe", "unsubscribe", "", "Sit"}
	// Each command ID is the command's own (NAME), but c-8: a command ID
	// is the client's, whatever the command.
	bodies := []string{
		`{}`,
		`{"command_id":"NAME-1","box":99,"hand":1,"action":"stand"}`,
		`{"command_id":"NAME-2","stake":4611686018427387904}`,
		`{"command_id":"NAME-3","cards":"TS ZZ"}`,
		`{"command_id":"NAME-4","Box":1}`,
		`{"command_id":"NAME-5","client_id":"a\u0007b"}`,
		`{"command_id":"NAME-6","options":{"decks":"x"},"bank":"nobody","reason":"why"}`,
		`{"command_id":"NAME-7","box":1,"stake":100,"action":"hit"}`,
		`{"command_id":"c-8"}`,
	}
	var out bytes.Buffer
	for _, name := range names {
		for _, who := range []string{"player", "admin"} {
			for _, body := range bodies {
				body = strings.ReplaceAll(body, "NAME", name)
				code, ans := post(fmt.Sprintf("/api/tables/%d/%s", v.ID, name), tokens[who], body)
				fmt.Fprintf(&out, "http %s %s %s\n\t%d %s\n", who, name, body, code, ans)
				msg := body
				if name != "" {
					msg = fmt.Sprintf(`{"op":%q,%s`, name, strings.TrimPrefix(body, "{"))
					msg = strings.Replace(msg, ",}", "}", 1)
				}
				ws := string(s.wsCommand(ctx, a, users[who], []byte(msg)))
				if strings.HasPrefix(ws, `{"type":"snapshot"`) {
					ws = `{"type":"snapshot",...}` // the table's view: its shoe's commitment is random
				}
				fmt.Fprintf(&out, "ws %s %s\n\t%s\n", who, msg, ws)
			}
		}
	}
	// Then each command with its own fields of body 7 alone (a field of
	// another command's is refused: wire.DecodeRequest), as a Go client
	// sends them (wire.CommandRequest.Only): its reading of them, its
	// refusal at this table.
	for _, name := range names[:12] {
		for _, who := range []string{"player", "admin"} {
			own, _ := json.Marshal(wire.CommandRequest{CommandID: name + "-9", Box: 1, Stake: 100, Action: "hit"}.Only(name))
			body := string(own)
			code, ans := post(fmt.Sprintf("/api/tables/%d/%s", v.ID, name), tokens[who], body)
			fmt.Fprintf(&out, "http %s %s %s\n\t%d %s\n", who, name, body, code, ans)
			msg := fmt.Sprintf(`{"op":%q,%s`, name, strings.TrimPrefix(body, "{"))
			fmt.Fprintf(&out, "ws %s %s\n\t%s\n", who, msg, s.wsCommand(ctx, a, users[who], []byte(msg)))
		}
	}
	golden := filepath.Join("testdata", "commands.golden")
	if *update {
		if err := os.WriteFile(golden, out.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out.Bytes(), want) {
		got, wantLines := strings.Split(out.String(), "\n"), strings.Split(string(want), "\n")
		for i := range max(len(got), len(wantLines)) {
			var g, w string
			if i < len(got) {
				g = got[i]
			}
			if i < len(wantLines) {
				w = wantLines[i]
			}
			if g != w {
				t.Fatalf("%s differs at line %d:\ngot  %s\nwant %s", golden, i+1, g, w)
			}
		}
	}
}
