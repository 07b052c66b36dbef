package certify

import (
	"context"
	"io"
	"os"
	"os/exec"
	"testing"

	"sabot/shoe"
)

// stuckBit is a test-only generator: the shoe's ChaCha8 with one output bit
// in eight stuck at 1 (each byte's lowest bit).
type stuckBit struct{ r io.Reader }

func (s stuckBit) Read(p []byte) (int, error) {
	n, err := s.r.Read(p)
	for i := range p[:n] {
		p[i] |= 1
	}
	return n, err
}

// TestDieharder: the shoe's generator passes dieharder's short subset and a
// deliberately biased one fails it.
func TestDieharder(t *testing.T) {
	if _, err := exec.LookPath("dieharder"); err != nil {
		// As the PostgreSQL and browser tests: CI (.ci/run installs it) fails
		// without it; a developer's machine says why and goes on.
		if os.Getenv("CI") != "" {
			t.Fatal("dieharder is not installed: CI runs it (.ci/run installs Debian's dieharder)")
		}
		t.Skip("dieharder is not installed (apt-get install dieharder): skipping the generator's dieharder run")
	}
	seed := shoe.SeedFromUint64(30)
	good, err := RunDieharderSuite(context.Background(), seed, QuickDieharder, RawStream, "raw")
	if err != nil {
		t.Fatal(err)
	}
	if !good.Pass() || len(good.Tests) != len(QuickDieharder) {
		t.Errorf("the shoe's generator: %d passed, %d weak, %d failed of %d:\n%s", good.Passed, good.Weak, good.Failed, len(good.Tests), good.Output)
	}
	bad, err := RunDieharderSuite(context.Background(), seed, QuickDieharder, func(s shoe.Seed) io.Reader { return stuckBit{RawStream(s)} }, "raw")
	if err != nil {
		t.Fatal(err)
	}
	if bad.Pass() || bad.Failed < 3 {
		t.Errorf("a generator with a stuck bit: %d failed of %d:\n%s", bad.Failed, len(bad.Tests), bad.Output)
	}
}

// TestParseDieharder reads dieharder's report lines.
func TestParseDieharder(t *testing.T) {
	r := ParseDieharder(`#=====#
        test_name   |ntup| tsamples |psamples|  p-value |Assessment
#=====#
   diehard_birthdays|   0|       100|      10|0.66024005|  PASSED  
      sts_monobit|   1|    100000|      20|0.00000000|  FAILED  
   rgb_bitdist|   2|    100000|      20|0.99700000|   WEAK   
`)
	if len(r.Tests) != 3 || r.Passed != 1 || r.Failed != 1 || r.Weak != 1 || r.Tests[0].P != 0.66024005 || r.Tests[1].Name != "sts_monobit" {
		t.Errorf("%+v", r)
	}
}
