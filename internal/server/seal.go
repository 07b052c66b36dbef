package server

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

	"sabot/shoe"
)

// Shoe seeds are secret until their shoe is over: whoever knows a live
// shoe's seed knows every card it will deal. The log keeps a live shoe's
// seed, and a snapshot the state of the shoe in play, sealed with
// AES-256-GCM under a key kept outside the database (a file, or
// $SABOT_SEED_KEY): a copy of the database or of a backup predicts
// nothing. The seed is written in the clear only in the shoe's reveal
// record, once the shoe is over, where `sabot verify` and GET
// /api/shoes/{id} read it.

// SeedKeyEnv is the environment variable that may hold the seed key, as
// 64 hex digits.
const SeedKeyEnv = "SABOT_SEED_KEY"

// SeedKeySize is the size of a seed key: AES-256.
const SeedKeySize = 32

// SeedKey seals and opens shoe seeds. Its ID, a fingerprint of the key,
// names it in every sealed value, so that a server started with another
// key says so instead of dealing other cards.
type SeedKey struct {
	id   string
	aead cipher.AEAD
	// node authenticates what one node tells another (forward.go): a key
	// derived from the seed key, which every node of a cluster shares.
	node []byte
}

// NewSeedKey returns the seed key of 32 bytes.
func NewSeedKey(key []byte) (*SeedKey, error) {
	if len(key) != SeedKeySize {
		return nil, fmt.Errorf("a seed key is %d bytes (%d hex digits), not %d", SeedKeySize, 2*SeedKeySize, len(key))
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
	return &SeedKey{id: hex.EncodeToString(h[:8]), aead: aead, node: m.Sum(nil)}, nil
}

// ParseSeedKey reads a seed key written as 64 hex digits (spaces and line
// ends around them are ignored).
func ParseSeedKey(text string) (*SeedKey, error) {
	b, err := hex.DecodeString(strings.TrimSpace(text))
	if err != nil || len(b) != SeedKeySize {
		return nil, fmt.Errorf("a seed key is %d hex digits (openssl rand -hex %d)", 2*SeedKeySize, SeedKeySize)
	}
	return NewSeedKey(b)
}

// ReadSeedKeyFile reads the seed key in a file.
func ReadSeedKeyFile(path string) (*SeedKey, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	k, err := ParseSeedKey(string(b))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return k, nil
}

// CreateSeedKeyFile writes a new random seed key to a file that must not
// exist, readable by its owner only (0600).
func CreateSeedKeyFile(path string) (*SeedKey, error) {
	key := make([]byte, SeedKeySize)
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
	return NewSeedKey(key)
}

// ID is the key's fingerprint: 16 hex digits, safe to print.
func (k *SeedKey) ID() string { return k.id }

// sealPrefix starts every sealed value: the format's version.
const sealPrefix = "aes-gcm:"

// seal seals plain, bound to what (the shoe or snapshot it belongs to: a
// sealed value moved to another record does not open). The value is
// "aes-gcm:KEYID:" and the base64 of the nonce and the ciphertext.
func (k *SeedKey) seal(plain []byte, what string) string {
	nonce := make([]byte, k.aead.NonceSize(), k.aead.NonceSize()+len(plain)+k.aead.Overhead())
	rand.Read(nonce)
	out := k.aead.Seal(nonce, nonce, plain, []byte(what))
	return sealPrefix + k.id + ":" + base64.RawStdEncoding.EncodeToString(out)
}

// open opens a value sealed for what with k, which may be nil (no key).
func (k *SeedKey) open(sealed, what string) ([]byte, error) {
	rest, ok := strings.CutPrefix(sealed, sealPrefix)
	id, box, ok2 := strings.Cut(rest, ":")
	if !ok || !ok2 {
		return nil, fmt.Errorf("%s is not a sealed value this server knows", what)
	}
	if k == nil {
		return nil, fmt.Errorf("%s is sealed with seed key %s and the server has no seed key: start it with that key (--seed-key-file, $%s)",
			what, id, SeedKeyEnv)
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

// shoeSealWhat names a shoe's seed in its seal.
func shoeSealWhat(table int64, no int) string { return "the seed of shoe " + ShoeID(table, no) }

// snapshotSealWhat names a snapshot's shoe state in its seal.
func snapshotSealWhat(table int64, round int) string {
	return fmt.Sprintf("the shoes of table %d's snapshot after round %d", table, round)
}

// sealSeed is a shoe record's seed: sealed with the server's key, or in
// the clear without one (tests; `sabot serve` always has one).
func (s *Server) sealSeed(p *shoePayload, table int64, seed shoe.Seed) {
	if s.SeedKey == nil {
		p.Seed = seedHex(seed)
		return
	}
	p.Sealed = s.SeedKey.seal(seed[:], shoeSealWhat(table, p.Shoe))
}

// openSeed is a shoe record's seed: sealed, or in the clear as stores
// written before seeds were sealed have it.
func (s *Server) openSeed(p shoePayload, table int64) (shoe.Seed, error) {
	if p.Sealed == "" {
		seed, err := parseSeed(p.Seed)
		if err != nil {
			return seed, fmt.Errorf("shoe %s: %w", ShoeID(table, p.Shoe), err)
		}
		return seed, nil
	}
	var seed shoe.Seed
	b, err := s.SeedKey.open(p.Sealed, shoeSealWhat(table, p.Shoe))
	if err != nil {
		return seed, err
	}
	if len(b) != len(seed) {
		return seed, fmt.Errorf("the seed of shoe %s is %d bytes", ShoeID(table, p.Shoe), len(b))
	}
	copy(seed[:], b)
	return seed, nil
}
