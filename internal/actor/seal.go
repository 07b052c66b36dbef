package actor

import (
	"fmt"

	"sabot/internal/recall"
	"sabot/internal/seal"
	"sabot/internal/tablelog"
	"sabot/shoe"
)

// Shoe seeds are secret until their shoe is over (package seal): the log
// keeps a live shoe's seed, and a snapshot the state of the shoe in play,
// sealed with the server's seed key.

// shoeSealWhat names a shoe's seed in its seal.
func shoeSealWhat(table int64, no int) string { return "the seed of shoe " + recall.ShoeID(table, no) }

// snapshotSealWhat names a snapshot's shoe state in its seal.
func snapshotSealWhat(table int64, round int) string {
	return fmt.Sprintf("the shoes of table %d's snapshot after round %d", table, round)
}

// sealSeed is a shoe record's seed: sealed with the server's key, or in
// the clear without one (tests; `sabot serve` always has one).
func (s *Host) sealSeed(p *tablelog.ShoeStart, table int64, seed shoe.Seed) {
	if s.SeedKey == nil {
		p.Seed = seal.SeedHex(seed)
		return
	}
	p.Sealed = s.SeedKey.Seal(seed[:], shoeSealWhat(table, p.Shoe))
}

// openSeed is a shoe record's seed: sealed, or in the clear as stores
// written before seeds were sealed have it.
func (s *Host) openSeed(p tablelog.ShoeStart, table int64) (shoe.Seed, error) {
	if p.Sealed == "" {
		seed, err := seal.ParseSeed(p.Seed)
		if err != nil {
			return seed, fmt.Errorf("shoe %s: %w", recall.ShoeID(table, p.Shoe), err)
		}
		return seed, nil
	}
	var seed shoe.Seed
	b, err := s.SeedKey.Open(p.Sealed, shoeSealWhat(table, p.Shoe))
	if err != nil {
		return seed, err
	}
	if len(b) != len(seed) {
		return seed, fmt.Errorf("the seed of shoe %s is %d bytes", recall.ShoeID(table, p.Shoe), len(b))
	}
	copy(seed[:], b)
	return seed, nil
}
