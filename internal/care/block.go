package care

import (
	"context"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"sabot"
	"sabot/internal/tablelog"
)

// The pit's block of a player. A
// block holds until the pit lifts it: the player cannot log in, be
// launched or stake (the stake's own transaction reads the block:
// sabot.StakeGuard), his sessions end and, on every node, his sockets
// close and he is taken off the tables (Tables.Bar), his bets for the next
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

// setBlock blocks a player, or lifts his block. A repeat changes nothing
// and writes no event.
func (c *Care) setBlock(ctx context.Context, pit *sabot.User, name, reason string, block bool) (*BlockView, error) {
	st := c.store()
	if st == nil {
		return nil, sabot.Errorf(sabot.EINVALID, "this store keeps no player care: no block")
	}
	reason = strings.TrimSpace(reason)
	switch {
	case reason == "":
		return nil, sabot.Errorf(sabot.EINVALID, "a block and its lifting need a reason")
	case len(reason) > MaxBlockReason || !utf8.ValidString(reason) || strings.ContainsAny(reason, "\r\n"):
		return nil, sabot.Errorf(sabot.EINVALID, "a block's reason is one line of at most %d bytes", MaxBlockReason)
	}
	u, err := c.cfg.Users.UserByName(ctx, name)
	if err != nil {
		return nil, err
	}
	if u.Admin || u.Role != "" {
		return nil, sabot.Errorf(sabot.EINVALID, "%s is staff, not a player: a block is for players", u.Name)
	}
	pc, err := st.CareOf(ctx, u.ID)
	if err != nil {
		return nil, err
	}
	if (pc.Blocked != "") == block { // a repeat
		return blockView(u, pc), nil
	}
	now := c.now()
	stored := ""
	if block {
		stored = reason
	}
	if err := st.SetBlock(ctx, u.ID, stored, now); err != nil {
		return nil, err
	}
	var ev tablelog.Event = tablelog.PlayerBlocked{User: u.Name, By: pit.Name, Memo: reason, Text: fmt.Sprintf("%s blocked by %s: %s", u.Name, pit.Name, reason)}
	if !block {
		ev = tablelog.PlayerUnblocked{User: u.Name, By: pit.Name, Memo: reason, Text: fmt.Sprintf("%s's block lifted by %s: %s", u.Name, pit.Name, reason)}
	}
	c.cfg.Event(ctx, pit, ev)
	if block {
		if _, err := st.EndSessions(ctx, u.ID); err != nil {
			return nil, err
		}
		// His sockets closed and his places at the tables given up, on
		// every node; his stakes are refused from the commit above.
		c.cfg.Tables.Bar(ctx, u.ID)
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
