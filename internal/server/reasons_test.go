package server_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"sabot"
	"sabot/internal/client"
	"sabot/internal/wire"
	"sabot/web"
)

// The refusals a player meets, each sent as the server sends it: every one
// carries its reason (the error's own, not one the client makes up), and
// the client's catalogues word it in Spanish and Italian, not in English:
// the login's, a password's and a name's, a table that does not exist, a
// bet once the cards are out (ES-01), a decision out of turn, a command
// without its ID, a player at the pit's door.
func TestRefusalsCarryReasonsWordedInEveryLanguage(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	h := newHarness(t, nil, slow)
	tb := h.table("spain", true, nil)
	ana := h.player("ana", 100000)
	ben := h.player("ben", 100000)
	anon := &client.Client{URL: h.srv.URL()}
	must(ana.Command(ctx, tb, "sit", wire.CommandRequest{Box: 1}))
	must(ben.Command(ctx, tb, "sit", wire.CommandRequest{Box: 2}))
	if err := h.admin.Do(ctx, "POST", "/api/tables/"+itoa(tb)+"/force-cards", wire.CommandRequest{CommandID: "f1", Cards: "TS 9H 8D 6C 7S"}, nil); err != nil {
		t.Fatal(err)
	}
	must(ana.Command(ctx, tb, "bet", wire.CommandRequest{Box: 1, Stake: 500}))
	must(ben.Command(ctx, tb, "bet", wire.CommandRequest{Box: 2, Stake: 500}))
	waitDealt(t, ana, tb)

	refusals := map[string]func() error{
		"wrong password": func() error { _, err := anon.Login(ctx, "ana", "not the password"); return err },
		"unknown name":   func() error { _, err := anon.Login(ctx, "nobody", "not the password"); return err },
		"short password": func() error { return anon.Register(ctx, "carla", "short") },
		"bad name":       func() error { return anon.Register(ctx, "a  b", "long enough password") },
		"no table":       func() error { _, err := ana.Table(ctx, 9999); return err },
		"bet after the deal": func() error {
			_, err := ana.Command(ctx, tb, "bet", wire.CommandRequest{Box: 1, Stake: 1000})
			return err
		},
		"out of turn": func() error {
			_, err := ben.Command(ctx, tb, "act", wire.CommandRequest{Box: 2, Hand: 1, Action: "stand"})
			return err
		},
		"no command ID": func() error { return ana.Do(ctx, "POST", "/api/tables/"+itoa(tb)+"/leave", map[string]any{}, nil) },
		"pit only":      func() error { return ana.Do(ctx, "GET", "/api/admin/events", nil, nil) },
	}
	langs := map[string]map[string][]string{}
	for _, l := range []string{"en", "es", "it"} {
		langs[l] = must(web.Messages(l))
	}
	es := must(web.Catalogue("es"))
	en := must(web.Catalogue("en"))
	for what, f := range refusals {
		err := f()
		var e *sabot.Error
		if !errors.As(err, &e) {
			t.Errorf("%s: %v, want a refusal", what, err)
			continue
		}
		if e.Reason == "" {
			t.Errorf("%s: %q came without a reason", what, e.Message)
			continue
		}
		for l, msgs := range langs {
			names, ok := msgs["reason."+e.Reason]
			if !ok {
				t.Errorf("%s: reason %s has no words in %s", what, e.Reason, l)
			}
			for _, n := range names {
				if _, ok := e.Params[n]; !ok && n != "n" {
					t.Errorf("%s: reason %s's %s words name {%s}, which the server does not send (%v)", what, e.Reason, l, n, e.Params)
				}
			}
		}
		if w := es["reason."+e.Reason][""]; w != "" && (w == en["reason."+e.Reason][""] || strings.Contains(w, e.Message)) {
			t.Errorf("%s: the Spanish words are English: %q", what, w)
		}
	}
}
