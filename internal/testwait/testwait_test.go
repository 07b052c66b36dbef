package testwait

import (
	"testing"
	"time"
)

func TestScale(t *testing.T) {
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
