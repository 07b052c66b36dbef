package certify

import (
		"fmt"
	"os"
	"sync"
	"testing"

	"sabot/shoe"
)

func TestTmpNISTDump(t *testing.T) {
	out := os.Getenv("NISTDUMP")
	if out == "" {
		t.Skip()
	}
	seeds := NewShoeShuffler(1, shoe.SeedFromUint64(11))
	n := 1000
	ss := make([]shoe.Seed, n)
	for i := range ss {
		ss[i] = seeds.nextSeed()
	}
	f, _ := os.Create(out)
	var fmu sync.Mutex
	templates := AperiodicTemplates(9)
	var wg sync.WaitGroup
	ch := make(chan int)
	for w := 0; w < 2; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range ch {
				e := StreamBits(RawStream(ss[i]), NISTBits)
				s := fmt.Sprintf("%d freq %.17g\n%d blockf %.17g\n%d runs %.17g\n%d longest %.17g\n%d rank %.17g\n%d fft %.17g\n", i, NISTFrequency(e), i, NISTBlockFrequency(e, 128), i, NISTRuns(e), i, NISTLongestRun(e), i, NISTRank(e, 32, 32), i, NISTDFT(e))
				for k, b := range templates {
					s += fmt.Sprintf("%d nonover%d %.17g\n", i, k, NISTNonOverlapping(e, b, 9, 8))
				}
				s += fmt.Sprintf("%d over %.17g\n%d universal %.17g\n%d linear %.17g\n", i, NISTOverlapping(e), i, NISTUniversal(e, 0, 0), i, NISTLinearComplexity(e, 500))
				p1, p2 := NISTSerial(e, 16)
				s += fmt.Sprintf("%d serial1 %.17g\n%d serial2 %.17g\n%d apen %.17g\n", i, p1, i, p2, i, NISTApproximateEntropy(e, 10))
				cf, cr := NISTCumulativeSums(e)
				s += fmt.Sprintf("%d cusumf %.17g\n%d cusumb %.17g\n", i, cf, i, cr)
				if ps, ok := NISTRandomExcursions(e); ok {
					for k, p := range ps {
						s += fmt.Sprintf("%d re%d %.17g\n", i, k, p)
					}
				}
				if ps, ok := NISTRandomExcursionsVariant(e); ok {
					for k, p := range ps {
						s += fmt.Sprintf("%d rev%d %.17g\n", i, k, p)
					}
				}
				fmu.Lock()
				f.WriteString(s)
				fmu.Unlock()
			}
		}()
	}
	for i := 0; i < n; i++ {
		ch <- i
	}
	close(ch)
	wg.Wait()
	f.Close()
}
