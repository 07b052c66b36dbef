package care

import (
	"net/http"

	"sabot"
	"sabot/internal/httpjson"
)

// HTTP is what care's endpoints take from the server that mounts them
// behind its authentication: the server reads request bodies, pages and
// sessions, and answers errors, one way for every endpoint.
type HTTP interface {
	// Decode reads a request's JSON body into v.
	Decode(r *http.Request, v any) error
	// Error answers an error.
	Error(w http.ResponseWriter, r *http.Request, err error)
	// PageLimit reads ?limit=, 1 to most (def when absent).
	PageLimit(r *http.Request, def, most int) (int, error)
	// Session is the session the request came with (nil: none).
	Session(r *http.Request) *sabot.Session
}

// The player's endpoints, under /api/me/care; u is the authenticated user.

// HandleCare answers GET /api/me/care: the player's View.
func (c *Care) HandleCare(w http.ResponseWriter, r *http.Request, u *sabot.User) {
	v, err := c.view(r.Context(), u, c.cfg.HTTP.Session(r))
	if err != nil {
		c.cfg.HTTP.Error(w, r, err)
		return
	}
	httpjson.Write(w, http.StatusOK, v)
}

// HandleLimit answers POST /api/me/care/limits (LimitRequest) with the
// View.
func (c *Care) HandleLimit(w http.ResponseWriter, r *http.Request, u *sabot.User) {
	var req LimitRequest
	if err := c.cfg.HTTP.Decode(r, &req); err != nil {
		c.cfg.HTTP.Error(w, r, err)
		return
	}
	if err := c.setLimit(r.Context(), u, req); err != nil {
		c.cfg.HTTP.Error(w, r, err)
		return
	}
	c.HandleCare(w, r, u)
}

// HandleReality answers POST /api/me/care/reality ({"minutes": N}) with
// the View.
func (c *Care) HandleReality(w http.ResponseWriter, r *http.Request, u *sabot.User) {
	var req struct {
		Minutes int `json:"minutes"`
	}
	if err := c.cfg.HTTP.Decode(r, &req); err != nil {
		c.cfg.HTTP.Error(w, r, err)
		return
	}
	if err := c.setReality(r.Context(), u, req.Minutes); err != nil {
		c.cfg.HTTP.Error(w, r, err)
		return
	}
	c.HandleCare(w, r, u)
}

// HandleExclusion answers POST /api/me/care/exclusion (ExclusionRequest)
// with the player's care as it stands.
func (c *Care) HandleExclusion(w http.ResponseWriter, r *http.Request, u *sabot.User) {
	var req ExclusionRequest
	if err := c.cfg.HTTP.Decode(r, &req); err != nil {
		c.cfg.HTTP.Error(w, r, err)
		return
	}
	pc, err := c.exclude(r.Context(), u, req)
	if err != nil {
		c.cfg.HTTP.Error(w, r, err)
		return
	}
	httpjson.Write(w, http.StatusOK, pc)
}

// The pit's endpoints, under /api/admin/players; pit is the authenticated
// administrator.

// HandlePlayers answers GET /api/admin/players?q=&limit=: the players
// whose name starts with q, as the pit sees them (PlayerView).
func (c *Care) HandlePlayers(w http.ResponseWriter, r *http.Request, pit *sabot.User) {
	limit, err := c.cfg.HTTP.PageLimit(r, DefaultPlayersPage, MaxPlayersPage)
	if err != nil {
		c.cfg.HTTP.Error(w, r, err)
		return
	}
	q := r.URL.Query().Get("q")
	if len(q) > MaxPlayerQuery {
		c.cfg.HTTP.Error(w, r, sabot.Errorf(sabot.EINVALID, "q: a name's start of at most %d bytes", MaxPlayerQuery))
		return
	}
	vs, err := c.players(r, q, limit)
	if err != nil {
		c.cfg.HTTP.Error(w, r, err)
		return
	}
	httpjson.Write(w, http.StatusOK, vs)
}

// HandleBlock answers POST /api/admin/players/{name}/block (BlockRequest)
// with the BlockView.
func (c *Care) HandleBlock(w http.ResponseWriter, r *http.Request, pit *sabot.User) {
	c.blockHandler(w, r, pit, true)
}

// HandleUnblock answers POST /api/admin/players/{name}/unblock
// (BlockRequest) with the BlockView.
func (c *Care) HandleUnblock(w http.ResponseWriter, r *http.Request, pit *sabot.User) {
	c.blockHandler(w, r, pit, false)
}

func (c *Care) blockHandler(w http.ResponseWriter, r *http.Request, pit *sabot.User, block bool) {
	var req BlockRequest
	if err := c.cfg.HTTP.Decode(r, &req); err != nil {
		c.cfg.HTTP.Error(w, r, err)
		return
	}
	v, err := c.setBlock(r.Context(), pit, r.PathValue("name"), req.Reason, block)
	if err != nil {
		c.cfg.HTTP.Error(w, r, err)
		return
	}
	httpjson.Write(w, http.StatusOK, v)
}
