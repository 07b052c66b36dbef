package client

import (
	"crypto/rand"
	"encoding/hex"
	"time"
)

// randomID is n random bytes in hex: a client's ID, a bot's name.
func randomID(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// durationOr is d, or def where d is 0, or none (0) where d is negative.
func durationOr(d, def time.Duration) time.Duration {
	switch {
	case d == 0:
		return def
	case d < 0:
		return 0
	}
	return d
}
