package client_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"sabot"
	"sabot/internal/client"
	"sabot/internal/httpjson"
	"sabot/internal/wire"
)

// A command answered unavailable or internal (the database ended its
// transaction, a primary being replaced) is sent again under the same
// command ID, applied once by the server; a refusal is final.
func TestCommandResentUnderItsID(t *testing.T) {
	var mu sync.Mutex
	var ids []string
	answers := []error{
		&sabot.Error{Code: sabot.EUNAVAILABLE, Message: "the database is unavailable"},
		sabot.Errorf(sabot.EINTERNAL, "internal error"),
		nil,
		sabot.Errorf(sabot.ECONFLICT, "not your turn"),
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req wire.CommandRequest
		json.NewDecoder(r.Body).Decode(&req)
		mu.Lock()
		ids = append(ids, req.CommandID)
		err := answers[min(len(ids)-1, len(answers)-1)]
		mu.Unlock()
		if err != nil {
			httpjson.WriteError(w, err)
			return
		}
		json.NewEncoder(w).Encode(wire.CommandResult{})
	}))
	defer srv.Close()
	c := &client.Client{URL: srv.URL}
	if _, err := c.Command(context.Background(), 1, "bet", wire.CommandRequest{Box: 1, Stake: 100}); err != nil {
		t.Fatalf("a command answered unavailable, then internal, then applied: %v", err)
	}
	if len(ids) != 3 || ids[0] == "" || ids[1] != ids[0] || ids[2] != ids[0] {
		t.Fatalf("the command IDs sent: %q; want one ID three times", ids)
	}
	_, err := c.Command(context.Background(), 1, "hit", wire.CommandRequest{Box: 1})
	if sabot.ErrorCode(err) != sabot.ECONFLICT || len(ids) != 4 {
		t.Fatalf("a refusal: %v after %d sends; want ECONFLICT, sent once", err, len(ids)-3)
	}
	c.Resends = -1
	answers[3] = &sabot.Error{Code: sabot.EUNAVAILABLE, Message: "busy"}
	if _, err := c.Command(context.Background(), 1, "hit", wire.CommandRequest{Box: 1}); sabot.ErrorCode(err) != sabot.EUNAVAILABLE || len(ids) != 5 {
		t.Fatalf("Resends -1: %v after %d sends; want the first answer", err, len(ids)-4)
	}
}
