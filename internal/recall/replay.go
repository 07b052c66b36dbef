package recall

import (
	"context"
	"fmt"
	"sort"

	"sabot"
	"sabot/engine"
	"sabot/internal/wire"
	"sabot/money"
)

// ReplayReport is the outcome of replaying a recorded round.
type ReplayReport struct {
	Round    string                  `json:"round"`
	Net      map[string]money.Amount `json:"net"`
	House    money.Amount            `json:"house"`
	Void     bool                    `json:"void,omitempty"`
	Problems []string                `json:"problems,omitempty"`
}

// OK reports whether the replay matched.
func (r *ReplayReport) OK() bool { return len(r.Problems) == 0 }

// ReplayRound plays a recorded round again through the engine
// (engine.Replay) and checks the stored result (`sabot replay`).
func ReplayRound(ctx context.Context, st Log, id string) (*ReplayReport, *wire.RoundRecord, error) {
	rr, err := Recall(ctx, st, id)
	if err != nil {
		return nil, nil, err
	}
	p, err := sabot.ProfileOf(rr.Profile, rr.Options)
	if err != nil {
		return nil, nil, err
	}
	rep := &ReplayReport{Round: rr.ID}
	r, err := engine.Replay(p, rr.Record)
	if err != nil {
		rep.Problems = append(rep.Problems, err.Error())
		return rep, rr, nil
	}
	if r.Phase() != engine.Done {
		rep.Problems = append(rep.Problems, "the replayed round is not over: "+r.Phase().String())
	}
	rep.Net, rep.House = r.Net()
	rep.Void, _ = r.Void()
	if rep.Void != rr.Void {
		rep.Problems = append(rep.Problems, fmt.Sprintf("void: replayed %v, stored %v", rep.Void, rr.Void))
	}
	if rep.House != rr.House {
		rep.Problems = append(rep.Problems, fmt.Sprintf("house: replayed %d, stored %d", rep.House, rr.House))
	}
	names := map[string]bool{}
	for k := range rep.Net {
		names[k] = true
	}
	for k := range rr.Net {
		names[k] = true
	}
	keys := make([]string, 0, len(names))
	for k := range names {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if rep.Net[k] != rr.Net[k] {
			rep.Problems = append(rep.Problems, fmt.Sprintf("%s: replayed net %d, stored %d", k, rep.Net[k], rr.Net[k]))
		}
	}
	return rep, rr, nil
}
