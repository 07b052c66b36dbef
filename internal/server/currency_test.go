package server_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"sabot/internal/actor"
	"sabot/internal/server"
)

// The currency the house names (--currency) is
// what /api/site tells the pages, in capitals; none is said when none is
// named; a code the money cannot be shown in refuses the start.
func TestSiteCurrency(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ set, want string }{{"eur", "EUR"}, {"ARS", "ARS"}, {"", ""}} {
		h := &harness{t: t, st: openStore(t, filepath.Join(t.TempDir(), "sabot.db")), set: func(s *server.Server) { s.Currency = c.set }}
		h.start(actor.Timing{})
		var site server.SiteView
		if err := h.admin.Do(context.Background(), "GET", "/api/site", nil, &site); err != nil {
			t.Fatal(err)
		}
		if site.Currency != c.want {
			t.Errorf("--currency %q: /api/site says %q, want %q", c.set, site.Currency, c.want)
		}
	}
	for _, code := range []string{"JPY", "XX", "EURO"} {
		s := &server.Server{Store: openStore(t, filepath.Join(t.TempDir(), "sabot.db")), Currency: code}
		err := s.Open()
		if err == nil {
			s.Close()
			t.Errorf("currency %q: the server opened", code)
		} else if !strings.Contains(err.Error(), "currency") {
			t.Errorf("currency %q: %v", code, err)
		}
	}
}
