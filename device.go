package sabot

import (
	"context"
	"time"
)

// Devices is a Store that keeps the card readers the pit issues to the
// tables dealt from a physical shoe (docs/live.md). A device
// authenticates with its token, kept only as its SHA-256.
type Devices interface {
	// CreateDevice stores a device of a table under its token, setting ID
	// and Created.
	CreateDevice(ctx context.Context, d *Device, token string) error
	// DeviceByToken returns the device of a token, revoked or not;
	// ENOTFOUND if there is none.
	DeviceByToken(ctx context.Context, token string) (*Device, error)
	// TableDevices returns a table's devices, the revoked ones included.
	TableDevices(ctx context.Context, tableID int64) ([]*Device, error)
	// RevokeDevice marks a device revoked from a time; ENOTFOUND if there is
	// none. Revoking one already revoked changes nothing.
	RevokeDevice(ctx context.Context, id int64, at time.Time) error
}

// Device is a card reader (or any device that reads the cards of one
// table's physical shoe): its name, who issued it, and whether it was
// revoked.
type Device struct {
	ID        int64     `json:"id"`
	TableID   int64     `json:"table"`
	Name      string    `json:"name"`
	CreatedBy string    `json:"created_by"`
	Created   time.Time `json:"created"`
	Revoked   time.Time `json:"revoked,omitzero"`
}
