package care

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"sabot"
	"sabot/internal/tablelog"
)

// Re-registration after an exclusion: every registration and
// login of a player records where it came from — his address and his
// browser, which the server names with a cookie of its own — and one from
// where a player under an exclusion was seen is a significant event for the
// pit; a registration there gets no welcome credit.

// deviceCookie names a browser: a random ID the server gives it at its
// first registration or login.
const deviceCookie = "sabot_device"

// browser is the browser's ID, given now if it has none.
func browser(w http.ResponseWriter, r *http.Request) string {
	if c, err := r.Cookie(deviceCookie); err == nil && len(c.Value) == 32 && strings.Trim(c.Value, "0123456789abcdef") == "" {
		return c.Value
	}
	b := make([]byte, 16)
	rand.Read(b)
	id := hex.EncodeToString(b)
	http.SetCookie(w, &http.Cookie{Name: deviceCookie, Value: id, Path: "/", MaxAge: 5 * 365 * 24 * 3600, HttpOnly: true,
		Secure: r.TLS != nil, SameSite: http.SameSiteLaxMode})
	return id
}

// Sighted records where a player registers or logs in from ("registered",
// "logged in"): address, the client's address as the server counts it,
// and the request's browser. It tells the pit of every player under an
// exclusion seen there before, and says whether there was one.
func (c *Care) Sighted(ctx context.Context, w http.ResponseWriter, r *http.Request, u *sabot.User, address, what string) bool {
	st := c.store()
	if st == nil || u.Admin || u.Role != "" || u.OperatorID != "" {
		return false
	}
	marks := []string{"address:" + address, "device:" + browser(w, r)}
	xs, err := st.Seen(ctx, u.ID, marks, c.now())
	if err != nil {
		c.cfg.Logger.Warn("where a player came from was not recorded", "user", u.Name, "err", err)
		return false
	}
	var names []string
	kinds := map[string][]string{}
	for _, x := range xs {
		if kinds[x.Name] == nil {
			names = append(names, x.Name)
		}
		kinds[x.Name] = append(kinds[x.Name], x.Mark)
	}
	for _, name := range names {
		i := slices.IndexFunc(xs, func(x sabot.Sighting) bool { return x.Name == name })
		until, under := "", "blocked by the pit"
		if !xs[i].Until.IsZero() {
			until = xs[i].Until.UTC().Format(time.RFC3339)
			under = fmt.Sprintf("under a %s until %s", xs[i].Exclusion, until)
		}
		text := fmt.Sprintf("%s %s from the %s of %s, %s", u.Name, what, strings.Join(kinds[name], " and "), name, under)
		if what == "registered" {
			text += ": no welcome credit"
		}
		c.cfg.Event(ctx, nil, tablelog.ExcludedSeen{User: u.Name, Name: name, Until: until, Text: text})
	}
	return len(names) > 0
}
