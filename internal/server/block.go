package server

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"sabot"
)

// The pit's block of a player (issue 28, item 8; issue 25, item 3). A
// block holds until the pit lifts it: the player cannot log in, be
// launched or stake (the stake's own transaction reads the block:
// sabot.StakeGuard), his sessions end and, on every node, his sockets
// close and he is taken off the tables (revoke.go), his bets for the next
// round returned. The reason is the pit's, in the significant-event log;
// the player is told only that the casino blocked his account.

// BlockRequest blocks a player, or lifts his block (POST
// /api/admin/players/{name}/block, /unblock); the reason is required.
type BlockRequest struct {
	Reason string `json:"reason"`
}

// MaxBlockReason bounds a block's reason, in bytes.
const MaxBlockReason = 200

// BlockView is a player's block as it stands.
type BlockView struct {
	Player  string `json:"player"`
	Blocked bool   `json:"blocked"`
	Reason  string `json:"reason,omitempty"`
	At      string `json:"at,omitempty"` // RFC 3339
}

func (s *Server) handleBlock(w http.ResponseWriter, r *http.Request, pit *sabot.User) {
	s.blockHandler(w, r, pit, true)
}

func (s *Server) handleUnblock(w http.ResponseWriter, r *http.Request, pit *sabot.User) {
	s.blockHandler(w, r, pit, false)
}

func (s *Server) blockHandler(w http.ResponseWriter, r *http.Request, pit *sabot.User, block bool) {
	var req BlockRequest
	if err := decode(r, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	v, err := s.setBlock(r.Context(), pit, r.PathValue("name"), req.Reason, block)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, v)
}

// setBlock blocks a player, or lifts his block. A repeat changes nothing
// and writes no event.
func (s *Server) setBlock(ctx context.Context, pit *sabot.User, name, reason string, block bool) (*BlockView, error) {
	c := s.care()
	if c == nil {
		return nil, sabot.Errorf(sabot.EINVALID, "this store keeps no player care: no block")
	}
	reason = strings.TrimSpace(reason)
	switch {
	case reason == "":
		return nil, sabot.Errorf(sabot.EINVALID, "a block and its lifting need a reason")
	case len(reason) > MaxBlockReason || !utf8.ValidString(reason) || strings.ContainsAny(reason, "\r\n"):
		return nil, sabot.Errorf(sabot.EINVALID, "a block's reason is one line of at most %d bytes", MaxBlockReason)
	}
	u, err := s.Store.UserByName(ctx, name)
	if err != nil {
		return nil, err
	}
	if u.Admin || u.Role != "" {
		return nil, sabot.Errorf(sabot.EINVALID, "%s is staff, not a player: a block is for players", u.Name)
	}
	pc, err := c.CareOf(ctx, u.ID)
	if err != nil {
		return nil, err
	}
	if (pc.Blocked != "") == block { // a repeat
		return blockView(u, pc), nil
	}
	now := s.now()
	stored := ""
	if block {
		stored = reason
	}
	if err := c.SetBlock(ctx, u.ID, stored, now); err != nil {
		return nil, err
	}
	ev := "player-blocked"
	text := fmt.Sprintf("%s blocked by %s: %s", u.Name, pit.Name, reason)
	if !block {
		ev, text = "player-unblocked", fmt.Sprintf("%s's block lifted by %s: %s", u.Name, pit.Name, reason)
	}
	s.event(ctx, pit, adminPayload{Event: ev, User: u.Name, By: pit.Name, Memo: reason, Text: text}, nil, "")
	if block {
		if _, err := c.EndSessions(ctx, u.ID); err != nil {
			return nil, err
		}
		// His sockets closed and his places at the tables given up, on
		// every node; his stakes are refused from the commit above.
		s.revoke(ctx, sabot.Revocation{UserID: u.ID, Player: true}, nil)
	}
	pc.Blocked, pc.BlockedAt = stored, now
	return blockView(u, pc), nil
}

func blockView(u *sabot.User, pc *sabot.PlayerCare) *BlockView {
	v := &BlockView{Player: u.Name, Blocked: pc.Blocked != "", Reason: pc.Blocked}
	if v.Blocked && !pc.BlockedAt.IsZero() {
		v.At = pc.BlockedAt.UTC().Format(time.RFC3339)
	}
	return v
}
