package report

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"

	"sabot"
)

// A long report runs as a job: its owner polls its
// progress and then its answer; he runs one at a time (a second is
// refused while the first runs), another member of the staff runs his
// own, nobody reads another's, a job read done is gone, and a failing
// report answers its error without hiding the other jobs.
func TestReportJobs(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx := context.Background()
		var j Jobs
		step, finish := make(chan int64), make(chan error)
		id, err := j.Start(ctx, "pit", "tables", func(ctx context.Context, progress func(int64)) (any, error) {
			for n := range step {
				progress(n)
			}
			return "the year's players", <-finish
		})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := j.Start(ctx, "pit", "tables", nil); sabot.ErrorCode(err) != sabot.ECONFLICT {
			t.Fatalf("a second job of pit's while the first runs: %v, want ECONFLICT", err)
		}
		other, err := j.Start(ctx, "ines", "tables", func(context.Context, func(int64)) (any, error) { return nil, errors.New("the store is down") })
		if err != nil {
			t.Fatal(err)
		}
		if _, err := j.Get("ines", id); sabot.ErrorCode(err) != sabot.ENOTFOUND {
			t.Errorf("ines reads pit's job: %v, want ENOTFOUND", err)
		}
		step <- 1000
		synctest.Wait()
		if v, _ := j.Get("pit", id); v.Rounds != 1000 || v.Done {
			t.Errorf("after 1000 rounds: %+v", v)
		}
		close(step)
		finish <- nil
		synctest.Wait()
		v, err := j.Get("pit", id)
		if err != nil || !v.Done || v.Result != "the year's players" || v.Error != "" || v.Rounds != 1000 {
			t.Errorf("done: %+v, %v", v, err)
		}
		if _, err := j.Get("pit", id); sabot.ErrorCode(err) != sabot.ENOTFOUND {
			t.Errorf("a job read done read again: %v, want ENOTFOUND", err)
		}
		if v, err := j.Get("ines", other); err != nil || !v.Done || v.Error != "the store is down" || v.Result != nil {
			t.Errorf("the failing job: %+v, %v", v, err)
		}
	})
}

// Jobs are bounded: past MaxJobs kept, a new one is refused.
func TestReportJobsBounded(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var j Jobs
		hold := make(chan struct{})
		for i := range MaxJobs {
			if _, err := j.Start(context.Background(), string(rune('a'+i%26))+string(rune('a'+i/26)), "tables", func(context.Context, func(int64)) (any, error) { <-hold; return nil, nil }); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := j.Start(context.Background(), "one more", "tables", nil); sabot.ErrorCode(err) != sabot.ETHROTTLED {
			t.Errorf("job %d: %v, want ETHROTTLED", MaxJobs+1, err)
		}
		close(hold)
		synctest.Wait()
	})
}
