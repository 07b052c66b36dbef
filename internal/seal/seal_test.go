package seal

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sabot/card"
	"sabot/rules"
	"sabot/shoe"
)

// TestKeyFile: a key file made for a store is the owner's only, and reads
// back as the same key; it is never written over; a key that is not 64 hex
// digits is refused saying so.
func TestKeyFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sabot.db.seed-key")
	k, err := CreateKeyFile(path)
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("the key file: %v %v", fi.Mode(), err)
	}
	again, err := ReadKeyFile(path)
	if err != nil || again.ID() != k.ID() {
		t.Fatalf("read back: %v %v", again, err)
	}
	if _, err := CreateKeyFile(path); err == nil {
		t.Fatal("a key file was written over")
	}
	for _, bad := range []string{"", "00", strings.Repeat("z", 64), strings.Repeat("0", 66)} {
		if _, err := ParseKey(bad); err == nil || !strings.Contains(err.Error(), "64 hex digits") {
			t.Errorf("ParseKey(%q): %v", bad, err)
		}
	}
}

// TestSealOpens: a sealed value opens with its key for what it was sealed
// for, and for nothing else: not for another what, not with another key,
// not without a key, not altered; each refusal says why.
func TestSealOpens(t *testing.T) {
	k, _ := ParseKey(strings.Repeat("5eed", 16))
	other, _ := ParseKey(strings.Repeat("0b", 32))
	plain := []byte("the seed of a live shoe")
	s := k.Seal(plain, "shoe 7-2")
	if strings.Contains(s, string(plain)) || !strings.HasPrefix(s, "aes-gcm:"+k.ID()+":") {
		t.Fatalf("sealed: %q", s)
	}
	if got, err := k.Open(s, "shoe 7-2"); err != nil || string(got) != string(plain) {
		t.Fatalf("opened: %q %v", got, err)
	}
	altered := s[:len(s)-2] + "AA"
	if altered == s {
		altered = s[:len(s)-2] + "BB"
	}
	for _, c := range []struct {
		name, sealed, what string
		key                *Key
		want               string
	}{
		{"moved", s, "shoe 8-2", k, "altered or moved"},
		{"altered", altered, "shoe 7-2", k, "altered or moved"},
		{"another key", s, "shoe 7-2", other, "not with this server's key " + other.ID()},
		{"no key", s, "shoe 7-2", nil, "the server has no seed key"},
		{"not sealed", "00ff", "shoe 7-2", k, "not a sealed value"},
	} {
		if _, err := c.key.Open(c.sealed, c.what); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
	if len(k.NodeKey()) != 32 || string(k.NodeKey()) == string(other.NodeKey()) {
		t.Errorf("node keys: %x, %x", k.NodeKey(), other.NodeKey())
	}
}

// TestCommitment: the commitment of a shoe is over its seed and its order:
// the order ShoeOrder gives is the one a shoe dealt from the seed deals,
// and another seed, or another order, gives another commitment.
func TestCommitment(t *testing.T) {
	p, err := rules.Lookup("vegas-s17")
	if err != nil {
		t.Fatal(err)
	}
	seed, _ := ParseSeed(strings.Repeat("ab", 32))
	order, err := ShoeOrder(p, seed)
	if err != nil {
		t.Fatal(err)
	}
	s := shoe.New(p.Decks, seed)
	if _, err := s.Prepare(p.ShoeProcedure(), 0); err != nil {
		t.Fatal(err)
	}
	if card.Format(s.Composition()) != card.Format(order) || len(order) != 6*52 {
		t.Fatalf("the order of %d cards is not the shoe's", len(order))
	}
	c := Commitment(seed, order)
	if len(c) != 64 || Commitment(seed, order) != c {
		t.Fatalf("commitment %q", c)
	}
	other := seed
	other[0] ^= 1
	swapped := append([]card.Card(nil), order...)
	swapped[0], swapped[1] = swapped[1], swapped[0]
	if Commitment(other, order) == c || (swapped[0] != order[0] && Commitment(seed, swapped) == c) {
		t.Error("another seed or order gives the same commitment")
	}
	if back, err := ParseSeed(SeedHex(seed)); err != nil || back != seed {
		t.Errorf("ParseSeed(SeedHex) = %x, %v", back, err)
	}
	if _, err := ParseSeed("abc"); err == nil {
		t.Error("a short seed was read")
	}
}
