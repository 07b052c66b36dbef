package sqlstore

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"errors"
	"strings"
	"time"

	"sabot"
)

// CreateUser inserts u, setting its ID and Created; ECONFLICT on a name
// taken, compared by sabot.FoldName.
func (s *Store) CreateUser(ctx context.Context, u *sabot.User) error {
	if u.Name == "" {
		return sabot.Errorf(sabot.EINVALID, "a user needs a name")
	}
	if u.Role != "" && u.Role != sabot.RoleDealer && u.Role != sabot.RoleInspector && u.Role != sabot.RoleGuest {
		return sabot.Errorf(sabot.EINVALID, "role %q: a user is a player (no role), a dealer, an inspector or a walk-in guest", u.Role)
	}
	created := s.clock(u.Created)
	hash := u.PasswordHash
	if hash == nil {
		hash = []byte{}
	}
	var id int64
	err := s.write(ctx, func(tx Tx) error {
		if u.OperatorID != "" { // an operator's player
			return tx.QueryRow(ctx, `INSERT INTO users (name, name_folded, password_hash, admin, operator_id, created) VALUES ($1, $2, $3, FALSE, $4, $5) RETURNING id`,
				u.Name, sabot.FoldName(u.Name), hash, u.OperatorID, stamp(created)).Scan(&id)
		}
		if u.Role == "" { // a player: the column's default (and a store migrated before roles takes it)
			return tx.QueryRow(ctx, `INSERT INTO users (name, name_folded, password_hash, admin, created) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
				u.Name, sabot.FoldName(u.Name), hash, u.Admin, stamp(created)).Scan(&id)
		}
		return tx.QueryRow(ctx, `INSERT INTO users (name, name_folded, password_hash, admin, role, created) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
			u.Name, sabot.FoldName(u.Name), hash, u.Admin, u.Role, stamp(created)).Scan(&id)
	})
	if errors.Is(err, ErrUnique) {
		return sabot.Errorf(sabot.ECONFLICT, "the name %q is taken", u.Name)
	} else if err != nil {
		return fail(err)
	}
	u.ID, u.Created = id, created
	return nil
}

// UserByName returns the user with exactly the name, or else the one whose
// name folds the same (sabot.FoldName); ENOTFOUND if there is none. Names
// that differ only by case, kept from before names were folded, each log in
// with their own spelling; another spelling finds the first registered.
func (s *Store) UserByName(ctx context.Context, name string) (*sabot.User, error) {
	u, err := s.user(ctx, `SELECT `+userColumns+` FROM users WHERE name = $1`, name)
	if sabot.ErrorCode(err) != sabot.ENOTFOUND {
		return u, err
	}
	return s.user(ctx, `SELECT `+userColumns+` FROM users WHERE name_folded = $1`, sabot.FoldName(name))
}

// UserByID returns the user with the ID; ENOTFOUND if there is none.
func (s *Store) UserByID(ctx context.Context, id int64) (*sabot.User, error) {
	return s.user(ctx, `SELECT `+userColumns+` FROM users WHERE id = $1`, id)
}

// SetPassword replaces a user's password hash and moves his credentials
// on, ending every session of his in the same transaction: a session made
// against the old credentials is gone, and CreateSession makes none
// against them from now on. It returns the new credentials; ENOTFOUND if
// there is no such user.
func (s *Store) SetPassword(ctx context.Context, userID int64, hash []byte) (int64, error) {
	var version int64
	err := s.write(ctx, func(tx Tx) error {
		err := tx.QueryRow(ctx, `UPDATE users SET password_hash = $2, credentials = credentials + 1 WHERE id = $1 RETURNING credentials`, userID, hash).Scan(&version)
		if noRows(err) {
			return sabot.Errorf(sabot.ENOTFOUND, "no user %d", userID)
		} else if err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `DELETE FROM sessions WHERE user_id = $1`, userID)
		return err
	})
	return version, fail(err)
}

const userColumns = `id, name, password_hash, admin, role, operator_id, created, credentials`

// Players lists the players whose folded name begins with prefix (the
// pit's search).
func (s *Store) Players(ctx context.Context, prefix string, limit int) ([]*sabot.User, error) {
	esc := strings.NewReplacer("!", "!!", "%", "!%", "_", "!_").Replace(sabot.FoldName(prefix))
	var out []*sabot.User
	err := s.read(ctx, func(tx Tx) error {
		out = out[:0]
		rows, err := tx.Query(ctx, `SELECT `+userColumns+` FROM users WHERE name_folded LIKE $1 ESCAPE '!' AND NOT admin AND role = ''
			ORDER BY name_folded LIMIT $2`, esc+"%", limit)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var u sabot.User
			var created int64
			var operator sql.NullString
			if err := rows.Scan(&u.ID, &u.Name, &u.PasswordHash, &u.Admin, &u.Role, &operator, &created, &u.Credentials); err != nil {
				return err
			}
			u.OperatorID, u.Created = operator.String, unstamp(created)
			out = append(out, &u)
		}
		return rows.Err()
	})
	return out, fail(err)
}

func (s *Store) user(ctx context.Context, query string, key any) (*sabot.User, error) {
	var u sabot.User
	var created int64
	var operator sql.NullString
	err := s.read(ctx, func(tx Tx) error {
		return tx.QueryRow(ctx, query, key).Scan(&u.ID, &u.Name, &u.PasswordHash, &u.Admin, &u.Role, &operator, &created, &u.Credentials)
	})
	u.OperatorID = operator.String
	if noRows(err) {
		return nil, sabot.Errorf(sabot.ENOTFOUND, "no user %v", key)
	} else if err != nil {
		return nil, fail(err)
	}
	u.Created = unstamp(created)
	return &u, nil
}

// tokenHash is what the sessions table keeps of a token: whoever reads the
// database cannot log in with it.
func tokenHash(token string) []byte {
	h := sha256.Sum256([]byte(token))
	return h[:]
}

// CreateSession stores a session under the SHA-256 of its token. Created
// defaults to now and LastSeen to Created. The session is made only if its
// Credentials are still the user's: the user's row is locked and checked
// in the session's transaction (an UPDATE that changes nothing: under READ
// COMMITTED it waits for a password change under way and reads what it
// wrote), so a login that matched a hash before a change gets no session
// after it, on any node (EUNAUTHORIZED, reason "credentials_changed").
func (s *Store) CreateSession(ctx context.Context, x *sabot.Session) error {
	if x.Token == "" {
		return sabot.Errorf(sabot.EINVALID, "a session needs a token")
	}
	created := s.clock(x.Created)
	seen := created
	if !x.LastSeen.IsZero() {
		seen = s.clock(x.LastSeen)
	}
	err := s.write(ctx, func(tx Tx) error {
		var version int64
		err := tx.QueryRow(ctx, `UPDATE users SET credentials = credentials WHERE id = $1 RETURNING credentials`, x.UserID).Scan(&version)
		if noRows(err) {
			return sabot.Errorf(sabot.ENOTFOUND, "no user %d", x.UserID)
		} else if err != nil {
			return err
		}
		if version != x.Credentials {
			return sabot.Errorf(sabot.EUNAUTHORIZED, "the password changed as you logged in: log in again with the new one").WithReason("credentials_changed", nil)
		}
		_, err = tx.Exec(ctx, `INSERT INTO sessions (token_hash, user_id, created, last_seen, credentials) VALUES ($1, $2, $3, $4, $5)`,
			tokenHash(x.Token), x.UserID, stamp(created), stamp(seen), x.Credentials)
		return err
	})
	if errors.Is(err, ErrUnique) {
		return sabot.Errorf(sabot.ECONFLICT, "the session token is in use")
	} else if err != nil {
		return fail(err)
	}
	x.Created, x.LastSeen = created, seen
	return nil
}

// SessionByToken returns the session of a token; ENOTFOUND if there is none.
func (s *Store) SessionByToken(ctx context.Context, token string) (*sabot.Session, error) {
	x := sabot.Session{Token: token}
	var created, seen int64
	err := s.read(ctx, func(tx Tx) error {
		return tx.QueryRow(ctx, `SELECT user_id, created, last_seen, credentials FROM sessions WHERE token_hash = $1`,
			tokenHash(token)).Scan(&x.UserID, &created, &seen, &x.Credentials)
	})
	if noRows(err) {
		return nil, sabot.Errorf(sabot.ENOTFOUND, "no such session")
	} else if err != nil {
		return nil, fail(err)
	}
	x.Created, x.LastSeen = unstamp(created), unstamp(seen)
	return &x, nil
}

// TouchSession sets a session's LastSeen; ENOTFOUND if there is no session.
func (s *Store) TouchSession(ctx context.Context, token string, at time.Time) error {
	var n int64
	err := s.write(ctx, func(tx Tx) (err error) {
		n, err = tx.Exec(ctx, `UPDATE sessions SET last_seen = $2 WHERE token_hash = $1`, tokenHash(token), stamp(s.clock(at)))
		return err
	})
	if err != nil {
		return fail(err)
	} else if n == 0 {
		return sabot.Errorf(sabot.ENOTFOUND, "no such session")
	}
	return nil
}

// TouchSessions sets the LastSeen of several sessions in one transaction
// (the server's touches of a second or so, one sync for all of them), each
// to the later of its own and the time given.
func (s *Store) TouchSessions(ctx context.Context, seen map[string]time.Time) error {
	if len(seen) == 0 {
		return nil
	}
	return fail(s.write(ctx, func(tx Tx) error {
		for token, at := range seen {
			if _, err := tx.Exec(ctx, `UPDATE sessions SET last_seen = $2 WHERE token_hash = $1 AND last_seen < $2`, tokenHash(token), stamp(s.clock(at))); err != nil {
				return err
			}
		}
		return nil
	}))
}

// DeleteSession deletes a session; deleting one that is gone is not an error
// (a logout repeated).
func (s *Store) DeleteSession(ctx context.Context, token string) error {
	return fail(s.write(ctx, func(tx Tx) error {
		_, err := tx.Exec(ctx, `DELETE FROM sessions WHERE token_hash = $1`, tokenHash(token))
		return err
	}))
}
