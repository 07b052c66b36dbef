package analysis

// remTable maps a removal (the cards out of the shoe, packed) to the index
// of its dealer distribution in the solver's dists: one distribution
// serves every hand and context that leave the same shoe. An open-address
// table probed linearly from a multiplicative hash: the solver looks a
// removal up for every distribution it asks for (some 200,000 an
// analysis), and Go's map cost it a tenth of the analysis.
type remTable struct {
	keys  []pack
	vals  []int32 // 1 + the index; 0: empty slot
	n     int
	shift uint // 64 − log2(len(keys))
}

// remTableMin is the first size: a six-deck analysis looks up to about
// 20,000 removals under one up card, which fit in 1<<15 slots at the
// load it allows (3/4).
const remTableMin = 1 << 14

func (t *remTable) slot(k pack) int {
	return int(uint64(k) * 0x9e3779b97f4a7c15 >> t.shift)
}

// get returns the index stored for removal k.
func (t *remTable) get(k pack) (int32, bool) {
	if t.n == 0 {
		return 0, false
	}
	mask := len(t.keys) - 1
	for i := t.slot(k); ; i = (i + 1) & mask {
		switch v := t.vals[i]; {
		case v == 0:
			return 0, false
		case t.keys[i] == k:
			return v - 1, true
		}
	}
}

// put stores index v for removal k, not stored yet.
func (t *remTable) put(k pack, v int32) {
	if 4*(t.n+1) > 3*len(t.keys) {
		t.resize(max(remTableMin, 2*len(t.keys)))
	}
	mask := len(t.keys) - 1
	i := t.slot(k)
	for t.vals[i] != 0 {
		i = (i + 1) & mask
	}
	t.keys[i], t.vals[i] = k, v+1
	t.n++
}

func (t *remTable) resize(size int) {
	keys, vals := t.keys, t.vals
	t.keys, t.vals, t.n = make([]pack, size), make([]int32, size), 0
	t.shift = 64
	for s := size; s > 1; s >>= 1 {
		t.shift--
	}
	for i, v := range vals {
		if v != 0 {
			t.put(keys[i], v-1)
		}
	}
}

// reset empties the table, keeping its room.
func (t *remTable) reset() {
	if t.n > 0 {
		clear(t.vals)
		t.n = 0
	}
}
