package server_test

import (
	"context"
	"testing"

	"sabot"
	"sabot/internal/client"
)

// A name taken is refused with a reason and the name, so
// that the page words it in its language (reason name_taken), whatever the
// case it is typed in.
func TestNameTakenReason(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	h := newHarness(t, nil, slow)
	h.player("Ana", 0)
	c := &client.Client{URL: h.srv.URL()}
	err := c.Register(ctx, "ana", "correct horse")
	p := wantReason(t, err, sabot.ECONFLICT, "name_taken")
	if p["name"] != "ana" {
		t.Fatalf("the refusal's values: %v", p)
	}
}
