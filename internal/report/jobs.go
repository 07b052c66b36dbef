package report

import (
	"context"
	"errors"
	"sync"

	"sabot"
)

// Jobs run long reports (a year's players or tables) in the background,
// one at a time for each member of the staff, so that a page asks for a
// report, then polls its job for its progress and its answer instead of
// holding a request open past the server's write timeout. A job finished
// is kept until its owner reads it done or starts another; at most MaxJobs
// are kept in all.
type Jobs struct {
	mu   sync.Mutex
	next int64
	jobs map[int64]*job
}

// MaxJobs bounds the jobs kept at once, running or finished and unread.
const MaxJobs = 64

// JobView is what a poll of a job answers.
type JobView struct {
	ID     int64  `json:"id"`
	Owner  string `json:"owner"`
	Report string `json:"report"` // which report (Start's name)
	Rounds int64  `json:"rounds"` // rounds read so far (Progress)
	Done   bool   `json:"done"`
	Error  string `json:"error,omitempty"`
	Code   string `json:"code,omitempty"`   // the error's (sabot.ErrorCode)
	Result any    `json:"result,omitempty"` // when done without an error
}

type job struct {
	view   JobView
	cancel context.CancelFunc
}

// Start runs report, named name, in a job of owner's, giving it a Progress to say the
// rounds read; it refuses (ECONFLICT) while another job of his runs, and
// (ETHROTTLED) when MaxJobs are kept. A finished job of his is dropped.
func (j *Jobs) Start(ctx context.Context, owner, name string, report func(ctx context.Context, progress func(rounds int64)) (any, error)) (int64, error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.jobs == nil {
		j.jobs = map[int64]*job{}
	}
	for id, x := range j.jobs {
		if x.view.Owner != owner {
			continue
		}
		if !x.view.Done {
			return 0, sabot.Errorf(sabot.ECONFLICT, "report job %d of %s still runs: one at a time", id, owner)
		}
		delete(j.jobs, id)
	}
	if len(j.jobs) >= MaxJobs {
		return 0, sabot.Errorf(sabot.ETHROTTLED, "%d report jobs kept: try again when one is read", MaxJobs)
	}
	j.next++
	id := j.next
	ctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	x := &job{view: JobView{ID: id, Owner: owner, Report: name}, cancel: cancel}
	j.jobs[id] = x
	go func() {
		defer cancel()
		r, err := report(ctx, func(n int64) {
			j.mu.Lock()
			x.view.Rounds = n
			j.mu.Unlock()
		})
		j.mu.Lock()
		defer j.mu.Unlock()
		x.view.Done = true
		if err != nil {
			x.view.Error, x.view.Code = err.Error(), sabot.ErrorCode(err)
			if e := (*sabot.Error)(nil); errors.As(err, &e) {
				x.view.Error = e.Message // its one line, as an answer's
			}
		} else {
			x.view.Result = r
		}
	}()
	return id, nil
}

// Get is owner's job id as it stands; a job done is dropped once read.
func (j *Jobs) Get(owner string, id int64) (JobView, error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	x := j.jobs[id]
	if x == nil || x.view.Owner != owner {
		return JobView{}, sabot.Errorf(sabot.ENOTFOUND, "no report job %d of %s", id, owner)
	}
	if x.view.Done {
		delete(j.jobs, id)
	}
	return x.view, nil
}

// Cancel stops owner's job id (its report sees its context done).
func (j *Jobs) Cancel(owner string, id int64) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	x := j.jobs[id]
	if x == nil || x.view.Owner != owner {
		return sabot.Errorf(sabot.ENOTFOUND, "no report job %d of %s", id, owner)
	}
	x.cancel()
	return nil
}
