package sqlstore

import (
	"context"
	"errors"
	"time"

	"sabot"
)

// The card readers of the tables dealt from a physical shoe (sabot.Devices).

// CreateDevice stores a device of a table under the SHA-256 of its token.
func (s *Store) CreateDevice(ctx context.Context, d *sabot.Device, token string) error {
	if d.Name == "" || token == "" {
		return sabot.Errorf(sabot.EINVALID, "a device needs a name and a token")
	}
	created := s.clock(d.Created)
	var id int64
	err := s.write(ctx, func(tx Tx) error {
		var n int64
		if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM tables WHERE id = $1`, d.TableID).Scan(&n); err != nil {
			return err
		} else if n == 0 {
			return sabot.Errorf(sabot.ENOTFOUND, "no table %d", d.TableID)
		}
		return tx.QueryRow(ctx, `INSERT INTO devices (table_id, name, token_hash, created_by, created) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
			d.TableID, d.Name, tokenHash(token), d.CreatedBy, stamp(created)).Scan(&id)
	})
	if errors.Is(err, ErrUnique) {
		return sabot.Errorf(sabot.ECONFLICT, "the device token is in use")
	} else if err != nil {
		return fail(err)
	}
	d.ID, d.Created = id, created
	return nil
}

const deviceColumns = `id, table_id, name, created_by, created, revoked`

func scanDevice(row interface{ Scan(...any) error }) (*sabot.Device, error) {
	var d sabot.Device
	var created, revoked int64
	if err := row.Scan(&d.ID, &d.TableID, &d.Name, &d.CreatedBy, &created, &revoked); err != nil {
		return nil, err
	}
	d.Created = unstamp(created)
	if revoked != 0 {
		d.Revoked = unstamp(revoked)
	}
	return &d, nil
}

// DeviceByToken returns the device of a token; ENOTFOUND if there is none.
func (s *Store) DeviceByToken(ctx context.Context, token string) (*sabot.Device, error) {
	var d *sabot.Device
	err := s.read(ctx, func(tx Tx) (err error) {
		d, err = scanDevice(tx.QueryRow(ctx, `SELECT `+deviceColumns+` FROM devices WHERE token_hash = $1`, tokenHash(token)))
		return err
	})
	if noRows(err) {
		return nil, sabot.Errorf(sabot.ENOTFOUND, "no such device")
	} else if err != nil {
		return nil, fail(err)
	}
	return d, nil
}

// TableDevices returns a table's devices in the order they were issued.
func (s *Store) TableDevices(ctx context.Context, tableID int64) ([]*sabot.Device, error) {
	out := []*sabot.Device{}
	err := s.read(ctx, func(tx Tx) error {
		rows, err := tx.Query(ctx, `SELECT `+deviceColumns+` FROM devices WHERE table_id = $1 ORDER BY id`, tableID)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			d, err := scanDevice(rows)
			if err != nil {
				return err
			}
			out = append(out, d)
		}
		return rows.Err()
	})
	return out, fail(err)
}

// RevokeDevice marks a device revoked from at, unless it already is.
func (s *Store) RevokeDevice(ctx context.Context, id int64, at time.Time) error {
	err := s.write(ctx, func(tx Tx) error {
		var n int64
		if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM devices WHERE id = $1`, id).Scan(&n); err != nil {
			return err
		} else if n == 0 {
			return sabot.Errorf(sabot.ENOTFOUND, "no device %d", id)
		}
		_, err := tx.Exec(ctx, `UPDATE devices SET revoked = $2 WHERE id = $1 AND revoked = 0`, id, stamp(s.clock(at)))
		return err
	})
	return fail(err)
}
