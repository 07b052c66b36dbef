package analysis
import ("context";"testing";"sabot/rules")
func BenchmarkQuick(b *testing.B){
 for _, n := range []string{"spain","vegas-s17"}{
  b.Run(n, func(b *testing.B){
  p := rules.MustLookup(n)
  for i:=0;i<b.N;i++{ compute(context.Background(), p, nil) }
  })
 }
}
