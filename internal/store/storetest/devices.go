package storetest

import (
	"context"
	"testing"
	"time"

	"sabot"
)

// The staff's roles and the card readers of a live table.

// A user keeps the role he was made with; a role that is not one is
// refused.
func testStaffRoles(t *testing.T, s sabot.Store) {
	ctx := context.Background()
	d := &sabot.User{Name: "dora", PasswordHash: []byte("x"), Role: sabot.RoleDealer}
	must(t, s.CreateUser(ctx, d))
	got, err := s.UserByName(ctx, "dora")
	must(t, err)
	if got.Role != sabot.RoleDealer || !got.Staff() {
		t.Fatalf("dora's role %q", got.Role)
	}
	p := &sabot.User{Name: "ana", PasswordHash: []byte("x")}
	must(t, s.CreateUser(ctx, p))
	if got, _ := s.UserByID(ctx, p.ID); got.Role != "" || got.Staff() {
		t.Fatalf("a player's role %q", got.Role)
	}
	if err := s.CreateUser(ctx, &sabot.User{Name: "zed", PasswordHash: []byte("x"), Role: "croupier"}); sabot.ErrorCode(err) != sabot.EINVALID {
		t.Fatalf("a role that is not one: %v", err)
	}
}

// A device is found by its token, never kept in the clear; it belongs to
// one table; revoked, it is still found, with the time.
func testDevices(t *testing.T, s sabot.Store) {
	ctx := context.Background()
	ds, ok := s.(sabot.Devices)
	if !ok {
		t.Fatalf("%T is not a sabot.Devices", s)
	}
	tb := &sabot.Table{Name: "live", Profile: "spain", Options: map[string]string{"shoe": "physical"}}
	must(t, s.CreateTable(ctx, tb))
	d := &sabot.Device{TableID: tb.ID, Name: "reader 1", CreatedBy: "pit"}
	must(t, ds.CreateDevice(ctx, d, "secret-token"))
	if d.ID == 0 || d.Created.IsZero() {
		t.Fatalf("created %+v", d)
	}
	got, err := ds.DeviceByToken(ctx, "secret-token")
	must(t, err)
	if got.ID != d.ID || got.TableID != tb.ID || got.Name != "reader 1" || got.CreatedBy != "pit" || !got.Revoked.IsZero() {
		t.Fatalf("found %+v", got)
	}
	if _, err := ds.DeviceByToken(ctx, "another"); sabot.ErrorCode(err) != sabot.ENOTFOUND {
		t.Fatalf("an unknown token: %v", err)
	}
	if err := ds.CreateDevice(ctx, &sabot.Device{TableID: tb.ID, Name: "reader 2"}, "secret-token"); sabot.ErrorCode(err) != sabot.ECONFLICT {
		t.Fatalf("a token in use: %v", err)
	}
	if err := ds.CreateDevice(ctx, &sabot.Device{TableID: tb.ID + 99, Name: "x"}, "t2"); sabot.ErrorCode(err) != sabot.ENOTFOUND {
		t.Fatalf("a device of no table: %v", err)
	}
	at := Now().Add(time.Hour)
	must(t, ds.RevokeDevice(ctx, d.ID, at))
	must(t, ds.RevokeDevice(ctx, d.ID, at.Add(time.Hour))) // again: the first time stays
	got, err = ds.DeviceByToken(ctx, "secret-token")
	must(t, err)
	if !got.Revoked.Equal(at) {
		t.Fatalf("revoked at %v, want %v", got.Revoked, at)
	}
	if err := ds.RevokeDevice(ctx, d.ID+99, at); sabot.ErrorCode(err) != sabot.ENOTFOUND {
		t.Fatalf("revoking no device: %v", err)
	}
	list, err := ds.TableDevices(ctx, tb.ID)
	must(t, err)
	if len(list) != 1 || list[0].ID != d.ID {
		t.Fatalf("the table's devices %+v", list)
	}
}
