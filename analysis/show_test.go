package analysis
import ("context";"os";"testing";"sabot/rules")
func TestShow(t *testing.T){
 for _, n := range []string{"vegas-s17","argentina"} {
  r, _ := Analyze(context.Background(), rules.MustLookup(n), Options{})
  r.Basic.WriteText(os.Stdout)
 }
}
