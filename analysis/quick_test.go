package analysis
import ("context";"testing";"time";"sabot/rules")
func TestQuick(t *testing.T){
 for _, n := range rules.Names(){
  p := rules.MustLookup(n)
  st := time.Now()
  r, err := Analyze(context.Background(), p, Options{Cache: NewCache()})
  if err != nil { t.Fatal(err) }
  t.Logf("%-10s %v  CD %.5f%% TD %.5f%%  stake %.4f win %.4f push %.4f lose %.4f bj %.4f dbl %.4f spl %.4f", n, time.Since(st), -100*r.CD.EV, -100*r.TD.EV, r.TD.Stake, r.TD.Win, r.TD.Push, r.TD.Lose, r.TD.Blackjack, r.TD.Doubles, r.TD.Splits)
 }
}
