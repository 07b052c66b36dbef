package analysis
import ("context";"testing";"time";"sabot/rules")
func TestQuick(t *testing.T){
 for _, n := range []string{"vegas-s17", "argentina"} {
 st := time.Now()
 es, err := Effects(context.Background(), rules.MustLookup(n), TotalDependent, Options{Cache: NewCache()})
 if err != nil { t.Fatal(err) }
 for _, e := range es { t.Logf("%-24s %-16s %+.4f%%", e.Option, e.Value, 100*e.Delta) }
 t.Log(len(es), time.Since(st))
 }
}
