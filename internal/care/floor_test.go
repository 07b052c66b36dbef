package care_test

import (
	"fmt"
	"testing"
	"time"

	"sabot"
	"sabot/internal/care"
	"sabot/internal/wire"
)

// The floor reads the care of at most care.MaxFloorPlayers seated players
// in one answer, each once however many boxes he holds, and says when it
// stopped there; walk-ins have none; a blocked or excluded player is
// flagged on every box he holds.
func TestFloorBoundedAndFlagged(t *testing.T) { eachStore(t, testFloorBoundedAndFlagged) }

func testFloorBoundedAndFlagged(t *testing.T, f *fixture) {
	pit := f.user(sabot.User{Name: "pit", Admin: true})
	f.user(sabot.User{Name: "ana"})
	f.user(sabot.User{Name: "eve"})
	must(0, f.do("POST", "/api/admin/players/eve/block", pit, "", care.BlockRequest{Reason: "fraud"}, nil))
	one := &wire.TableView{ID: 1, Name: "one", Seats: []wire.SeatView{{Box: 1, Player: "ana"}, {Box: 2, Player: "eve"}, {Box: 3, Player: "eve"}, {Box: 4, Player: "#1-4"}}}
	f.tables.mu.Lock()
	f.tables.lobby = []*wire.TableView{one}
	f.tables.mu.Unlock()

	var v care.FloorView
	must(0, f.do("GET", "/api/admin/floor", pit, "", nil, &v))
	if len(v.Tables) != 1 || v.Truncated || !v.From.Equal(f.now().UTC().Truncate(24*time.Hour)) {
		t.Fatalf("the floor: %+v", v)
	}
	ps := v.Tables[0].Players
	if len(ps) != 4 || ps[0].Player != "ana" || ps[0].Blocked != nil || ps[1].Blocked == nil || ps[1].Blocked.Reason != "fraud" || ps[2].Blocked == nil ||
		!ps[3].WalkIn || ps[3].Blocked != nil {
		t.Fatalf("the players: %+v", ps)
	}

	// MaxFloorPlayers+1 players seated: the last without his care.
	var seats []wire.SeatView
	for i := range care.MaxFloorPlayers + 1 {
		name := fmt.Sprintf("p%02d", i)
		f.user(sabot.User{Name: name})
		must(0, f.do("POST", "/api/admin/players/"+name+"/block", pit, "", care.BlockRequest{Reason: "test"}, nil))
		seats = append(seats, wire.SeatView{Box: 1, Player: name})
	}
	f.tables.mu.Lock()
	f.tables.lobby = nil
	for i, s := range seats {
		f.tables.lobby = append(f.tables.lobby, &wire.TableView{ID: int64(10 + i), Seats: []wire.SeatView{s}})
	}
	f.tables.mu.Unlock()
	v = care.FloorView{}
	must(0, f.do("GET", "/api/admin/floor", pit, "", nil, &v))
	if len(v.Tables) != care.MaxFloorPlayers+1 || !v.Truncated {
		t.Fatalf("%d tables, truncated %v", len(v.Tables), v.Truncated)
	}
	for i, x := range v.Tables {
		if read := x.Players[0].Blocked != nil; read != (i < care.MaxFloorPlayers) {
			t.Fatalf("player %d: care read %v, the cap %d", i, read, care.MaxFloorPlayers)
		}
	}
	wantCode(t, f.do("GET", "/api/admin/floor?from=nonsense", pit, "", nil, &v), sabot.EINVALID, "from=")
}
