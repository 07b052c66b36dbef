package live

import (
	"crypto/rand"
	"encoding/base64"
	"net/http"
	"strconv"
	"strings"

	"sabot"
	"sabot/internal/tablelog"
)

// The staff of a live table and its card readers (docs/live.md).
// The pit makes the dealers' and inspectors' accounts (staff do not play:
// the player's commands refuse them) and issues each table dealt from a
// physical shoe its readers: a device token, shown once, that sends the
// cards read to POST /api/tables/{id}/cards and nothing else.

// StaffRequest makes a member of the staff: a dealer or an inspector.
type StaffRequest struct {
	Name     string `json:"name"`
	Password string `json:"password"`
	Role     string `json:"role"`
}

// StaffView is a member of the staff made.
type StaffView struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
	Role string `json:"role"`
}

// CreateStaff is POST /api/admin/staff, the pit's (pit).
func (l *Live) CreateStaff(w http.ResponseWriter, r *http.Request, pit *sabot.User) {
	var req StaffRequest
	if err := l.Decode(r, &req); err != nil {
		l.WriteError(w, r, err)
		return
	}
	if req.Role != sabot.RoleDealer && req.Role != sabot.RoleInspector {
		l.WriteError(w, r, sabot.Errorf(sabot.EINVALID, "role %q: give dealer or inspector", req.Role))
		return
	}
	u, err := l.CreateUser(r.Context(), req.Name, req.Password, req.Role)
	if err != nil {
		l.WriteError(w, r, err)
		return
	}
	l.Event(r.Context(), pit, tablelog.StaffCreated{User: u.Name, Role: u.Role, Text: u.Role + " " + u.Name + " by " + pit.Name})
	l.WriteJSON(w, http.StatusCreated, StaffView{ID: u.ID, Name: u.Name, Role: u.Role})
}

// DeviceRequest issues a card reader to a table.
type DeviceRequest struct {
	Table int64  `json:"table"`
	Name  string `json:"name"`
}

// DeviceIssued is a device issued: its token, shown this once (the store
// keeps its SHA-256 only).
type DeviceIssued struct {
	Device *sabot.Device `json:"device"`
	Token  string        `json:"token"`
}

// MaxDeviceName bounds a device's name, in bytes.
const MaxDeviceName = 64

// devices is the store's sabot.Devices, or a refusal naming why not.
func (l *Live) devices() (sabot.Devices, error) {
	if l.Readers == nil {
		return nil, sabot.Errorf(sabot.EINVALID, "this store keeps no card readers")
	}
	return l.Readers, nil
}

// IssueDevice is POST /api/admin/devices, the pit's (pit).
func (l *Live) IssueDevice(w http.ResponseWriter, r *http.Request, pit *sabot.User) {
	var req DeviceRequest
	if err := l.Decode(r, &req); err != nil {
		l.WriteError(w, r, err)
		return
	}
	ds, err := l.devices()
	if err != nil {
		l.WriteError(w, r, err)
		return
	}
	name := strings.TrimSpace(req.Name)
	if name == "" || len(name) > MaxDeviceName || strings.ContainsFunc(name, func(r rune) bool { return r < ' ' }) {
		l.WriteError(w, r, sabot.Errorf(sabot.EINVALID, "a device's name is one line of 1 to %d bytes, e.g. \"reader 1\"", MaxDeviceName))
		return
	}
	t, err := l.Store.TableByID(r.Context(), req.Table)
	if err != nil {
		l.WriteError(w, r, err)
		return
	}
	if !t.Physical() {
		l.WriteError(w, r, sabot.Errorf(sabot.ECONFLICT, "table %d deals from the server's shuffled shoe: a card reader serves a table opened with shoe=physical", t.ID))
		return
	}
	b := make([]byte, 32)
	rand.Read(b)
	token := "dev_" + base64.RawURLEncoding.EncodeToString(b)
	d := &sabot.Device{TableID: t.ID, Name: name, CreatedBy: pit.Name, Created: l.Now()}
	if err := ds.CreateDevice(r.Context(), d, token); err != nil {
		l.WriteError(w, r, err)
		return
	}
	l.Event(r.Context(), pit, tablelog.DeviceIssued{Table: t.ID, Name: d.Name, Device: d.ID, Text: "card reader " + strconv.FormatInt(d.ID, 10) + " " + strconv.Quote(d.Name) + " for table " + strconv.FormatInt(t.ID, 10)})
	l.WriteJSON(w, http.StatusCreated, DeviceIssued{Device: d, Token: token})
}

// Devices is GET /api/admin/devices?table=ID: a table's card readers.
func (l *Live) Devices(w http.ResponseWriter, r *http.Request, _ *sabot.User) {
	ds, err := l.devices()
	if err != nil {
		l.WriteError(w, r, err)
		return
	}
	id, err := strconv.ParseInt(r.URL.Query().Get("table"), 10, 64)
	if err != nil {
		l.WriteError(w, r, sabot.Errorf(sabot.EINVALID, "?table=ID: the table whose card readers to list"))
		return
	}
	list, err := ds.TableDevices(r.Context(), id)
	if err != nil {
		l.WriteError(w, r, err)
		return
	}
	l.WriteJSON(w, http.StatusOK, list)
}

// RevokeDevice is POST /api/admin/devices/{id}/revoke, the pit's (pit).
func (l *Live) RevokeDevice(w http.ResponseWriter, r *http.Request, pit *sabot.User) {
	ds, err := l.devices()
	if err != nil {
		l.WriteError(w, r, err)
		return
	}
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil {
		l.WriteError(w, r, sabot.Errorf(sabot.EINVALID, "%q is not a device ID", r.PathValue("id")))
		return
	}
	if err := ds.RevokeDevice(r.Context(), id, l.Now()); err != nil {
		l.WriteError(w, r, err)
		return
	}
	l.Event(r.Context(), pit, tablelog.DeviceRevoked{Device: id, Text: "card reader " + strconv.FormatInt(id, 10) + " revoked"})
	l.WriteJSON(w, http.StatusOK, map[string]bool{"ok": true})
}

// Device authenticates a card reader: "Authorization: Device TOKEN".
func (l *Live) Device(r *http.Request) (*sabot.Device, error) {
	scheme, token, _ := strings.Cut(strings.TrimSpace(r.Header.Get("Authorization")), " ")
	token = strings.TrimSpace(token)
	if !strings.EqualFold(scheme, "Device") || token == "" {
		return nil, sabot.Errorf(sabot.EUNAUTHORIZED, "a card reader sends \"Authorization: Device TOKEN\" (the token the pit issued it)")
	}
	ds, err := l.devices()
	if err != nil {
		return nil, err
	}
	d, err := ds.DeviceByToken(r.Context(), token)
	if sabot.ErrorCode(err) == sabot.ENOTFOUND {
		return nil, sabot.Errorf(sabot.EUNAUTHORIZED, "unknown device token")
	} else if err != nil {
		return nil, err
	}
	if !d.Revoked.IsZero() {
		return nil, sabot.Errorf(sabot.EUNAUTHORIZED, "the pit revoked this device")
	}
	return d, nil
}
