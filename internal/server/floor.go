package server

import (
	"net/http"
	"sync"
	"time"

	"sabot/internal/care"
	"sabot/internal/report"
)

// The pit's floor's ratings (GET /api/admin/floor, internal/care): the
// players' report over the pit's day, read at most once a FloorRatingsAge
// for a day and kept, since the floor reloads every few seconds. They
// take the report slot as every report does; while another report runs,
// the floor shows the ratings it last read.

// FloorRatingsAge is how long the floor keeps the ratings it read.
const FloorRatingsAge = time.Minute

// floorRatings are the ratings last read: one day's, of every player.
type floorRatings struct {
	mu   sync.Mutex
	at   time.Time // when read (zero: never)
	from time.Time
	by   map[string]care.Rating
}

// floorRatings are the named players' ratings from from to now
// (care.Config.Ratings).
func (s *Server) floorRatings(r *http.Request, from time.Time, names []string) (map[string]care.Rating, error) {
	f := &s.floor
	f.mu.Lock()
	defer f.mu.Unlock()
	now := s.now().UTC()
	if !from.Before(now) {
		return map[string]care.Rating{}, nil
	}
	if f.at.IsZero() || !f.from.Equal(from) || now.Sub(f.at) >= FloorRatingsAge {
		th := s.reportTheories()
		select {
		case s.reportSlot <- struct{}{}:
			rep, err := report.PlayersReport(r.Context(), report.Paced(s.reportStore(), ReportPace), th, report.Period{From: from, To: now}, report.PlayersOptions{})
			<-s.reportSlot
			if err != nil {
				return nil, err
			}
			f.at, f.from, f.by = now, from, make(map[string]care.Rating, len(rep.Players))
			for _, p := range rep.Players {
				f.by[p.Player] = care.Rating{Rounds: p.Rounds, AvgBet: p.AvgBet, Win: p.Win, Theo: p.Theo, SkillTheo: p.SkillTheo}
			}
		default: // another report runs: the ratings last read, if of this day
		}
	}
	out := make(map[string]care.Rating, len(names))
	if !f.from.Equal(from) {
		return out, nil
	}
	for _, n := range names {
		if x, ok := f.by[n]; ok {
			out[n] = x
		}
	}
	return out, nil
}
