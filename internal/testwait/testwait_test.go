package testwait

import (
	"runtime"
	"testing"
	"time"
)

func TestScale(t *testing.T) {
	load := 0.5
	defer func(f func() (float64, bool)) { loadAverage = f }(loadAverage)
	loadAverage = func() (float64, bool) { return load * float64(runtime.NumCPU()), true }
	t.Setenv("SABOT_TEST_TIME_SCALE", "")
	if Scale() != 1 || Deadline(time.Second) != time.Second {
		t.Fatalf("no scale: %v, %v", Scale(), Deadline(time.Second))
	}
	t.Setenv("SABOT_TEST_TIME_SCALE", "3")
	if Deadline(time.Second) != 3*time.Second {
		t.Fatalf("scale 3: %v", Deadline(time.Second))
	}
	for _, bad := range []string{"0", "-2", "x"} {
		t.Setenv("SABOT_TEST_TIME_SCALE", bad)
		if Scale() != 1 {
			t.Fatalf("SABOT_TEST_TIME_SCALE=%s: scale %v", bad, Scale())
		}
	}
	// Without the variable, a busy machine's load per core scales the
	// deadlines (up to maxLoadScale); a quiet one's, or none read, not.
	t.Setenv("SABOT_TEST_TIME_SCALE", "")
	for _, c := range []struct{ load, want float64 }{{0.5, 1}, {1, 1}, {4, 4}, {15.5, 15.5}, {100, maxLoadScale}} {
		load = c.load
		if got := Scale(); got != c.want {
			t.Errorf("load %v a core: scale %v, want %v", c.load, got, c.want)
		}
	}
	t.Setenv("SABOT_TEST_TIME_SCALE", "2")
	if load = 8; Scale() != 2 {
		t.Errorf("the variable set: scale %v, want 2 whatever the load", Scale())
	}
	loadAverage = func() (float64, bool) { return 0, false }
	t.Setenv("SABOT_TEST_TIME_SCALE", "")
	if Scale() != 1 {
		t.Errorf("no load read: scale %v", Scale())
	}
}

func TestWithin(t *testing.T) {
	n := 0
	if !Within(time.Second, func() bool { n++; return n == 3 }) || n != 3 {
		t.Fatalf("a state reached on the third ask: %d asks", n)
	}
	if Within(20*time.Millisecond, func() bool { return false }) {
		t.Fatal("a state never reached was reported reached")
	}
}
