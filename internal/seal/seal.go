// Package seal keeps a shoe's secrets: its seed is secret until the shoe is
// over, since whoever knows a live shoe's seed knows every card it will
// deal. The log keeps a live shoe's seed, and a snapshot the state of the
// shoe in play, sealed with AES-256-GCM under a key kept outside the
// database (a file, or $SABOT_SEED_KEY): a copy of the database or of a
// backup predicts nothing. The seed is written in the clear only in the
// shoe's reveal record, once the shoe is over, where `sabot verify` and GET
// /api/shoes/{id} read it; the commitment published when the shoe starts
// (Commitment) is what the revealed seed is checked against.
package seal

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"os"
	"strings"

	"sabot/card"
	"sabot/rules"
	"sabot/shoe"
)

// KeyEnv is the environment variable that may hold the seed key, as 64 hex
// digits.
const KeyEnv = "SABOT_SEED_KEY"

// KeySize is the size of a seed key: AES-256.
const KeySize = 32

// Key seals and opens shoe seeds. Its ID, a fingerprint of the key, names
// it in every sealed value, so that a server started with another key says
// so instead of dealing other cards.
type Key struct {
	id   string
	aead cipher.AEAD
	// node authenticates what one node tells another (forward.go): a key
	// derived from the seed key, which every node of a cluster shares.
	node []byte
}

// NewKey returns the seed key of 32 bytes.
func NewKey(key []byte) (*Key, error) {
	if len(key) != KeySize {
		return nil, fmt.Errorf("a seed key is %d bytes (%d hex digits), not %d", KeySize, 2*KeySize, len(key))
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	h := sha256.Sum256(append([]byte("sabot seed key\x00"), key...))
	m := hmac.New(sha256.New, key)
	m.Write([]byte("sabot: what one node tells another"))
	return &Key{id: hex.EncodeToString(h[:8]), aead: aead, node: m.Sum(nil)}, nil
}

// ParseKey reads a seed key written as 64 hex digits (spaces and line ends
// around them are ignored).
func ParseKey(text string) (*Key, error) {
	b, err := hex.DecodeString(strings.TrimSpace(text))
	if err != nil || len(b) != KeySize {
		return nil, fmt.Errorf("a seed key is %d hex digits (openssl rand -hex %d)", 2*KeySize, KeySize)
	}
	return NewKey(b)
}

// ReadKeyFile reads the seed key in a file.
func ReadKeyFile(path string) (*Key, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	k, err := ParseKey(string(b))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return k, nil
}

// CreateKeyFile writes a new random seed key to a file that must not exist,
// readable by its owner only (0600).
func CreateKeyFile(path string) (*Key, error) {
	key := make([]byte, KeySize)
	rand.Read(key)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, err
	}
	_, err = f.WriteString(hex.EncodeToString(key) + "\n")
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path)
		return nil, err
	}
	return NewKey(key)
}

// ID is the key's fingerprint: 16 hex digits, safe to print.
func (k *Key) ID() string { return k.id }

// NodeKey is the key, derived from the seed key, that authenticates what
// one node of a cluster tells another.
func (k *Key) NodeKey() []byte { return k.node }

// prefix starts every sealed value: the format's version.
const prefix = "aes-gcm:"

// Seal seals plain, bound to what (the shoe or snapshot it belongs to: a
// sealed value moved to another record does not open). The value is
// "aes-gcm:KEYID:" and the base64 of the nonce and the ciphertext.
func (k *Key) Seal(plain []byte, what string) string {
	nonce := make([]byte, k.aead.NonceSize(), k.aead.NonceSize()+len(plain)+k.aead.Overhead())
	rand.Read(nonce)
	out := k.aead.Seal(nonce, nonce, plain, []byte(what))
	return prefix + k.id + ":" + base64.RawStdEncoding.EncodeToString(out)
}

// Open opens a value sealed for what with k, which may be nil (no key).
func (k *Key) Open(sealed, what string) ([]byte, error) {
	rest, ok := strings.CutPrefix(sealed, prefix)
	id, box, ok2 := strings.Cut(rest, ":")
	if !ok || !ok2 {
		return nil, fmt.Errorf("%s is not a sealed value this server knows", what)
	}
	if k == nil {
		return nil, fmt.Errorf("%s is sealed with seed key %s and the server has no seed key: start it with that key (--seed-key-file, $%s)",
			what, id, KeyEnv)
	}
	if id != k.id {
		return nil, fmt.Errorf("%s is sealed with seed key %s, not with this server's key %s: start it with the key the store was written with",
			what, id, k.id)
	}
	b, err := base64.RawStdEncoding.DecodeString(box)
	if err != nil || len(b) < k.aead.NonceSize() {
		return nil, fmt.Errorf("%s: the sealed value is damaged", what)
	}
	n := k.aead.NonceSize()
	plain, err := k.aead.Open(nil, b[:n], b[n:], []byte(what))
	if err != nil {
		return nil, fmt.Errorf("%s does not open with seed key %s: the value was altered or moved", what, k.id)
	}
	return plain, nil
}

// Commitment is the SHA-256 over a shoe's seed and its order after the
// shuffle and the cut: published when the shoe starts, checked against the
// seed revealed after it (`sabot verify`).
func Commitment(seed shoe.Seed, order []card.Card) string {
	h := sha256.New()
	h.Write(seed[:])
	h.Write([]byte(card.Format(order)))
	return hex.EncodeToString(h.Sum(nil))
}

// ShoeOrder prepares a shoe from its seed exactly as a table does and
// returns the order of its cards, the burned ones first.
func ShoeOrder(p *rules.Profile, seed shoe.Seed) ([]card.Card, error) {
	s := shoe.New(p.Decks, seed)
	if _, err := s.Prepare(p.ShoeProcedure(), 0); err != nil {
		return nil, err
	}
	return s.Composition(), nil
}

// ShoeOrderUncut is the order of a shoe whose cut a player makes later
// (player_cut; AR-07, EG-02): shuffled from its seed, not cut. A
// commitment to such a shoe covers this order; the cut, public, is
// recorded apart and applied to it.
func ShoeOrderUncut(p *rules.Profile, seed shoe.Seed) []card.Card {
	s := shoe.New(p.Decks, seed)
	s.PrepareUncut(p.ShoeProcedure())
	return s.Composition()
}

// SeedHex is a seed as the log writes it in the clear: 64 hex digits.
func SeedHex(s shoe.Seed) string { return hex.EncodeToString(s[:]) }

// ParseSeed reads a seed written by SeedHex.
func ParseSeed(h string) (shoe.Seed, error) {
	var s shoe.Seed
	b, err := hex.DecodeString(h)
	if err != nil || len(b) != len(s) {
		return s, fmt.Errorf("bad shoe seed %q", h)
	}
	copy(s[:], b)
	return s, nil
}
