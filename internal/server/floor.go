package server

import (
	"net/http"
	"sync"
	"time"

	"sabot/internal/care"
	"sabot/internal/report"
)

// The pit's floor's day (GET /api/admin/floor, internal/care): the
// players' and the tables' reports over the pit's day, read together at
// most once a FloorRatingsAge for a day and kept, since the floor reloads
// every few seconds. They take the report slot as every report does;
// while another report runs, the floor shows what it last read.

// FloorRatingsAge is how long the floor keeps the reports it read.
const FloorRatingsAge = time.Minute

// floorRatings are the reports last read: one day's ratings of every
// player and day of every table.
type floorRatings struct {
	mu     sync.Mutex
	at     time.Time // when read (zero: never)
	from   time.Time
	by     map[string]care.Rating
	tables map[int64]care.TableDay
}

// floorDay brings the floor's reports up to date for the day from from,
// if they are older than FloorRatingsAge or of another day and the report
// slot is free; the caller holds f.mu. It says whether what is kept is
// of that day.
func (s *Server) floorDay(r *http.Request, from time.Time) (bool, error) {
	f := &s.floor
	now := s.now().UTC()
	if f.at.IsZero() || !f.from.Equal(from) || now.Sub(f.at) >= FloorRatingsAge {
		th := s.reportTheories()
		select {
		case s.reportSlot <- struct{}{}:
			src, p := report.Paced(s.reportStore(), ReportPace), report.Period{From: from, To: now}
			players, err := report.PlayersReport(r.Context(), src, th, p, report.PlayersOptions{})
			var tables *report.Tables
			if err == nil {
				tables, err = report.TablesReport(r.Context(), src, th, p)
			}
			<-s.reportSlot
			if err != nil {
				return false, err
			}
			f.at, f.from = now, from
			f.by = make(map[string]care.Rating, len(players.Players))
			for _, p := range players.Players {
				f.by[p.Player] = care.Rating{Rounds: p.Rounds, AvgBet: p.AvgBet, Win: p.Win, Theo: p.Theo, SkillTheo: p.SkillTheo}
			}
			f.tables = make(map[int64]care.TableDay, len(tables.Tables))
			for _, x := range tables.Tables {
				f.tables[x.Table] = care.TableDay{Rounds: x.Rounds, Win: x.Win, Theo: x.Theo, BandLow: x.BandLow, BandHigh: x.BandHigh, Outside: x.Outside}
			}
		default: // another report runs: what was last read, if of this day
		}
	}
	return f.from.Equal(from), nil
}

// floorRatings are the named players' ratings from from to now
// (care.Config.Ratings).
func (s *Server) floorRatings(r *http.Request, from time.Time, names []string) (map[string]care.Rating, error) {
	f := &s.floor
	f.mu.Lock()
	defer f.mu.Unlock()
	out := make(map[string]care.Rating, len(names))
	if !from.Before(s.now().UTC()) {
		return out, nil
	}
	ok, err := s.floorDay(r, from)
	if err != nil || !ok {
		return out, err
	}
	for _, n := range names {
		if x, ok := f.by[n]; ok {
			out[n] = x
		}
	}
	return out, nil
}

// floorTables are the tables' days from from to now
// (care.Config.TableDays).
func (s *Server) floorTables(r *http.Request, from time.Time) (map[int64]care.TableDay, error) {
	f := &s.floor
	f.mu.Lock()
	defer f.mu.Unlock()
	if !from.Before(s.now().UTC()) {
		return map[int64]care.TableDay{}, nil
	}
	ok, err := s.floorDay(r, from)
	if err != nil || !ok {
		return map[int64]care.TableDay{}, err
	}
	out := make(map[int64]care.TableDay, len(f.tables))
	for id, d := range f.tables {
		out[id] = d
	}
	return out, nil
}
