package report

import (
	"bytes"
	"context"
	"encoding/json"
	"maps"
	"math"
	"runtime"
	"slices"
	"strings"
	"testing"

	"sabot/money"
)

// A row reads back to the same sums, and writes the same bytes again;
// sums read add up as those written do.
func TestAdvSumsRow(t *testing.T) {
	s := &advSums{}
	p := s.player("ana")
	p.add(1000, 2.3, 3.1)
	p.add(money.Amount(1)<<58, -30, 40)
	p.index.Add(3, true, false)
	s.shoe(7).dealt(2.3, map[string]bool{"bo": true})
	s.shoe(7).dealt(-1, nil)
	b := encodeRow(advantageKind, s)
	read, err := decodeRow(advantageKind, b)
	if err != nil {
		t.Fatal(err)
	}
	back := read.(*advSums)
	sum := &advSums{}
	sum.then(back)
	sum.then(back)
	b2 := encodeRow(advantageKind, back)
	if a := sum.players["ana"]; !bytes.Equal(b, b2) || a.hilo.n != 4 || a.h2.n != 4 || a.sums[0] != money.Amount(1)<<59 || a.index.cells[3][1][0] != 2 ||
		sum.shoes[7].all[gridOf(2.3)] != 2 || sum.shoes[7].backed["bo"][gridOf(2.3)] != 2 {
		t.Fatalf("%x read back as %x, added twice %+v", b, b2, a)
	}
	j, err := RollupJSON(RollupAdvantage, b)
	if want := `{"players":{"ana":{"hilo":{"1000":{"18":1},"288230376151711740":{"-160":1}},"hioptii":{"1000":{"25":1},"288230376151711740":{"160":1}},"index":{"3":[0,0,1,0]},"chart":{"-6":[1,288230376151711744],"2":[1,1000]}}},"shoes":{"7":{"all":{"-8":1,"18":1},"back":{"bo":{"18":1}}}}}`; err != nil || string(j) != want {
		t.Errorf("RollupJSON: %s, %v\nwant %s", j, err, want)
	}
}

// Each kind's sums, as the log's rollups make them, read back to the same
// answers: TestRollupsAgreeWithTheLog, TestAdvantageRollupsAgreeWithTheLog
// and TestErrorRollupsAgree read them; here each real row writes again the
// bytes it was read from, and is refused as another kind's.
func TestRowsOfEachKindReadBack(t *testing.T) {
	rows := realRows(t)
	for _, k := range []*rollKind{tablesKind, playersKind, errorsKind, advantageKind} {
		if len(rows[k]) == 0 {
			t.Fatalf("no rows of %s", k.name)
		}
		for _, b := range rows[k] {
			s, err := decodeRow(k, b)
			if err != nil {
				t.Fatalf("%s: %x: %v", k.name, b, err)
			}
			if again := encodeRow(k, s); !bytes.Equal(again, b) {
				t.Fatalf("%s: %x read and written as %x", k.name, b, again)
			}
		}
		other := tablesKind
		if k == tablesKind {
			other = playersKind
		}
		if _, err := decodeRow(other, rows[k][0]); err == nil || !strings.Contains(err.Error(), "another kind's") {
			t.Errorf("a row of %s read as %s: %v", k.name, other.name, err)
		}
	}
}

// realRows are the rows RollUp writes of a log of each kind's records
// (a few tables, players and back bettors), by kind.
func realRows(t testing.TB) map[*rollKind][][]byte {
	ctx := context.Background()
	out := map[*rollKind][][]byte{}
	m, _ := synthLog(t, 2, 4, 300)
	ro := newMemRollups(m, 97)
	if _, err := RollUp(ctx, ro, nil, RollupTables, RollupPlayers, RollupErrors); err != nil {
		t.Fatal(err)
	}
	all, tables, _ := advLog(t, 2, 300)
	am := newMemLog(tables)
	for _, r := range all {
		am.add(r)
	}
	aro := newMemRollups(am, 97)
	if _, err := RollUp(ctx, aro, nil, RollupAdvantage); err != nil {
		t.Fatal(err)
	}
	for _, x := range []*memRollups{ro, aro} {
		for name, byTable := range x.rows {
			for _, id := range slices.Sorted(maps.Keys(byTable)) {
				for _, b := range byTable[id] {
					out[rollKinds[name]] = append(out[rollKinds[name]], b)
				}
			}
		}
	}
	return out
}

// A row off the grid, off the index plays' rows or the chart, with a
// count of nothing, keys out of order or twice, a number in more bytes
// than it takes, bytes past its sums, another format's: refused, in one
// line that says where.
func TestRowsRefuseWhatIsOff(t *testing.T) {
	w := func(fn func(w *rowWriter)) []byte {
		x := &rowWriter{b: []byte{rowFormat, tagAdvantage}}
		fn(x)
		return x.b
	}
	noPlayers := func(w *rowWriter) { w.len(0) }
	shoe := func(q, k int64) func(w *rowWriter) {
		return func(w *rowWriter) {
			noPlayers(w)
			w.len(1)
			w.int(1)
			w.len(1)
			w.int(q)
			w.uint(uint64(k))
			w.len(0)
		}
	}
	player := func(fn func(w *rowWriter)) []byte {
		return w(func(w *rowWriter) { w.len(1); w.str("a"); fn(w); w.len(0) })
	}
	bet := func(bet float64, q int64) func(w *rowWriter) {
		return func(w *rowWriter) {
			w.len(1)
			w.f64(bet)
			w.len(1)
			w.int(q)
			w.uint(1)
			w.len(0)
			w.len(0)
			w.len(0)
		}
	}
	good := w(shoe(3, 2))
	if _, err := decodeRow(advantageKind, good); err != nil {
		t.Fatalf("a shoe's row: %v", err)
	}
	if _, err := decodeRow(advantageKind, player(bet(1000, 3))); err != nil {
		t.Fatalf("a player's row: %v", err)
	}
	for _, c := range []struct {
		what string
		row  []byte
		says string
	}{
		{"empty", nil, "opens with"},
		{"another format", append([]byte{2}, good[1:]...), "opens with"},
		{"bytes past it", append(slices.Clone(good), 0), "1 bytes past the sums"},
		{"cut short", good[:len(good)-1], "ends early"},
		{"off the grid", w(shoe(MaxCount/CountStep+1, 1)), "a count on the grid of"},
		{"no rounds", w(shoe(3, 0)), "0 rounds at 3"},
		{"rounds beyond int32", w(shoe(3, math.MaxInt32+1)), "rounds at 3"},
		{"a number too long", append(w(noPlayers), 0x81, 0x80, 0x00), "more than it takes"},
		{"beyond 64 bits", append(w(noPlayers), 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f), "beyond 64 bits"},
		{"a NaN bet", player(bet(math.NaN(), 3)), "finite bets"},
		{"the index off its rows", player(func(w *rowWriter) {
			w.len(0)
			w.len(0)
			w.len(1)
			w.uint(uint64(len(IndexPlays)))
			for range 4 {
				w.uint(1)
			}
			w.len(0)
		}), "there are"},
		{"the chart off its counts", player(func(w *rowWriter) {
			w.len(0)
			w.len(0)
			w.len(0)
			w.len(1)
			w.uint(13)
			w.uint(1)
			w.int(5)
		}), "the chart at 13"},
		{"players out of order", w(func(w *rowWriter) {
			w.len(2)
			for _, name := range []string{"b", "a"} {
				w.str(name)
				for range 4 {
					w.len(0)
				}
			}
			w.len(0)
		}), `the key "a" after "b"`},
	} {
		_, err := decodeRow(advantageKind, c.row)
		if err == nil || !strings.Contains(err.Error(), c.says) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s (%x): %v, want one line with %q", c.what, c.row, err, c.says)
		}
	}
}

// Every length a row gives is bounded by the bytes it has left: a row of
// a few bytes that says it holds 2⁶² players, a string of 2⁶² bytes, or a
// string longer than a name, is refused with no more allocated than the
// row's few bytes call for (and an error's words).
func TestRowLengthsAreBounded(t *testing.T) {
	for _, k := range []*rollKind{tablesKind, playersKind, errorsKind, advantageKind} {
		var huge []byte
		huge = binary62(append([]byte{rowFormat, k.tag}, []byte{}...))
		if k == tablesKind { // voids, drop, cashout and ledger before the rule sets
			huge = binary62([]byte{rowFormat, k.tag, 0, 0, 0, 0})
		}
		long := append([]byte{rowFormat, k.tag}, 0x01)
		long = binary62(long) // one entry, its key a string of 2⁶² bytes
		if k == tablesKind {
			long = binary62([]byte{rowFormat, k.tag, 0, 0, 0, 0, 0x01})
		}
		name := append([]byte{rowFormat, k.tag, 0x01, 0x81, 0x08}, bytes.Repeat([]byte{'a'}, 1025)...) // a key of 1,025 bytes
		if k == tablesKind {
			name = append([]byte{rowFormat, k.tag, 0, 0, 0, 0, 0x01, 0x81, 0x08}, bytes.Repeat([]byte{'a'}, 1025)...)
		}
		for _, row := range [][]byte{huge, long, name} {
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			before := ms.TotalAlloc
			_, err := decodeRow(k, row)
			runtime.ReadMemStats(&ms)
			if got := ms.TotalAlloc - before; err == nil || got > 4096 {
				t.Errorf("%s: %x read with %d bytes allocated: %v", k.name, row[:min(len(row), 16)], got, err)
			}
		}
	}
}

// binary62 appends 2⁶² as a varint.
func binary62(b []byte) []byte {
	w := &rowWriter{b: b}
	w.uint(1 << 62)
	return w.b
}

// FuzzRollupRows: a row, whatever its bytes, is read or refused, never a
// panic nor an allocation beyond its size; a row read writes again the
// very bytes it was read from (one encoding of each sums), and reads back.
// Its seeds (testdata/fuzz/FuzzRollupRows, and those added here) are rows
// the log's rollups write, of each kind.
func FuzzRollupRows(f *testing.F) {
	for _, rows := range realRows(f) {
		for _, b := range rows[:min(len(rows), 3)] {
			f.Add(b)
		}
	}
	kinds := map[byte]*rollKind{tagTables: tablesKind, tagPlayers: playersKind, tagErrors: errorsKind, tagAdvantage: advantageKind}
	f.Fuzz(func(t *testing.T, row []byte) {
		k := tablesKind
		if len(row) > 1 && kinds[row[1]] != nil {
			k = kinds[row[1]]
		}
		s, err := decodeRow(k, row)
		if err != nil {
			return
		}
		again := encodeRow(k, s)
		if !bytes.Equal(again, row) {
			t.Fatalf("%s: %x read, written as %x", k.name, row, again)
		}
		if _, err := RollupJSON(k.name, row); err != nil {
			t.Fatalf("%s: %x read, not as JSON: %v", k.name, row, err)
		}
	})
}

// A store rolled up before the binary rows keeps rows of JSON under the
// kinds of then (tables/1, players/1, errors/2, advantage/1): they are left
// alone, the reports read the log until the kinds of now are rolled up,
// and then the new rows, the same answers either way.
func TestJSONRollupsAreRolledUpAnew(t *testing.T) {
	ctx := context.Background()
	full, p := synthLog(t, 2, 6, 200)
	ro := newMemRollups(full, 61)
	all, tables, ap := advLog(t, 2, 200)
	am := newMemLog(tables)
	for _, r := range all {
		am.add(r)
	}
	aro := newMemRollups(am, 61)
	th := NewTheories()
	report := func(src, adv Source) string {
		tr, err := TablesReport(ctx, src, th, p)
		if err != nil {
			t.Fatal(err)
		}
		ar, err := AdvantageReport(ctx, adv, ap, AdvantageOptions{})
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal([]any{tr, ar})
		return string(b) + playersJSON(t, src, p, false)
	}
	want := report(memLedger{full}, am)
	if _, err := RollUp(ctx, ro, nil, RollupTables, RollupPlayers, RollupErrors); err != nil {
		t.Fatal(err)
	}
	if _, err := RollUp(ctx, aro, nil, RollupAdvantage); err != nil {
		t.Fatal(err)
	}
	// The rows as the kinds of then wrote them (JSON), and none of now.
	for _, c := range []struct {
		ro       *memRollups
		now, old string
		json     string
	}{
		{ro, RollupTables, "tables/1", `{"voids":1}`}, {ro, RollupPlayers, "players/1", `{"players":{}}`},
		{ro, RollupErrors, "errors/2", `{"players":{}}`}, {aro, RollupAdvantage, "advantage/1", `{"players":{"a":";;;"}}`},
	} {
		old := map[int64]map[spanAt][]byte{}
		for id, rows := range c.ro.rows[c.now] {
			old[id] = map[spanAt][]byte{}
			for at := range rows {
				old[id][at] = []byte(c.json)
			}
		}
		c.ro.rows[c.old], c.ro.marks[c.old] = old, c.ro.marks[c.now]
		delete(c.ro.rows, c.now)
		delete(c.ro.marks, c.now)
	}
	if got := report(ro, aro); got != want {
		t.Fatalf("with rows of JSON only:\n%s\nfrom the log\n%s", got, want)
	}
	if _, err := RollUp(ctx, ro, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := RollUp(ctx, aro, nil, RollupAdvantage); err != nil {
		t.Fatal(err)
	}
	for _, kind := range RollupKinds() {
		x := ro
		if kind == RollupAdvantage {
			x = aro
		}
		if len(x.rows[kind]) == 0 {
			t.Fatalf("%s not rolled up anew", kind)
		}
	}
	if got := report(ro, aro); got != want {
		t.Fatalf("rolled up anew:\n%s\nfrom the log\n%s", got, want)
	}
}
