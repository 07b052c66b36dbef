package server

import (
	"context"
	"net/http"
	"strconv"

	"sabot"
	"sabot/internal/actor"
	"sabot/internal/live"
	"sabot/internal/tablelog"
	"sabot/internal/wire"
)

// liveDeps is what the live table needs of the server.
func (s *Server) liveDeps() *live.Live {
	readers, _ := s.Store.(sabot.Devices) // nil: none (capabilities.go logs it)
	return &live.Live{
		Store: s.Store, Readers: readers, Now: s.now,
		CashApproval: s.CashApproval, FloatLimit: s.FloatLimit,
		Account: s.account, Balance: s.balance,
		Decode: decode, WriteError: s.writeError, WriteJSON: writeJSON,
		CreateUser: func(ctx context.Context, name, password, role string) (*sabot.User, error) {
			return s.createUser(ctx, name, password, false, role)
		},
		Event: func(ctx context.Context, by *sabot.User, e tablelog.Event) { s.event(ctx, by, e, nil, "") },
	}
}

// The live table's routes.

func (s *Server) handleCreateStaff(w http.ResponseWriter, r *http.Request, pit *sabot.User) {
	s.liveDeps().CreateStaff(w, r, pit)
}

func (s *Server) handleIssueDevice(w http.ResponseWriter, r *http.Request, pit *sabot.User) {
	s.liveDeps().IssueDevice(w, r, pit)
}

func (s *Server) handleDevices(w http.ResponseWriter, r *http.Request, u *sabot.User) {
	s.liveDeps().Devices(w, r, u)
}

func (s *Server) handleRevokeDevice(w http.ResponseWriter, r *http.Request, pit *sabot.User) {
	s.liveDeps().RevokeDevice(w, r, pit)
}

// handleDeviceCard is a card reader's card: the card command, sent by the
// device for its own table only. Its command IDs are the device's own (a
// reader that sends a card again after a timeout is answered "duplicate").
func (s *Server) handleDeviceCard(w http.ResponseWriter, r *http.Request) {
	d, err := s.liveDeps().Device(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	a, err := s.tableOf(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if a.ID() != d.TableID {
		s.writeError(w, r, sabot.Errorf(sabot.EFORBIDDEN, "device %d reads table %d's shoe, not table %d's", d.ID, d.TableID, a.ID()))
		return
	}
	env, body, err := decodeCommand(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	as := &sabot.User{Name: d.Name, Role: sabot.RoleDealer}
	c, err := s.host.Command(as, actor.OpNamed(wire.OpCard), env, body)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	c.FromDevice(d, "device-"+strconv.FormatInt(d.ID, 10)+":"+env.ClientID)
	s.run(w, r, a, c)
}

// handleWalkIns lists the walk-ins seated at a table and the chips each
// holds, for the table's staff (a dealer or inspector on its staff option,
// or the pit).
func (s *Server) handleWalkIns(w http.ResponseWriter, r *http.Request, u *sabot.User) {
	if !u.Admin && !u.Staff() {
		s.writeError(w, r, sabot.Errorf(sabot.EFORBIDDEN, "a table's walk-ins are for its staff"))
		return
	}
	view, ok := s.tableViewOf(w, r)
	if !ok {
		return
	}
	seats := make([]live.Seat, len(view.Seats))
	for i, seat := range view.Seats {
		seats[i] = live.Seat{Box: seat.Box, Player: seat.Player}
	}
	out, err := s.liveDeps().WalkIns(r.Context(), u, view.Options, seats)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, out)
}
