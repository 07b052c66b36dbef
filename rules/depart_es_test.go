package rules

import "testing"

// ES-01, ES-02: a spain or family table with the Desafío or the declared
// Ace departs from the Spanish leaflet: once the first card is out «no se
// podrán poner o modificar apuestas» (the challenge is a stake added after
// the deal), and Aces count «según le convenga a usted» (a declaration
// fixes the count).
func TestChallengeAndDeclarationDepart_ES01_ES02(t *testing.T) {
	for _, name := range []string{"spain", "family"} {
		for _, c := range []struct{ option, rule string }{{"challenge", "ES-01"}, {"declare_initial_ace", "ES-02"}} {
			p := MustLookup(name)
			if err := p.Set(c.option, "true"); err != nil {
				t.Fatal(err)
			}
			found := false
			for _, d := range p.Departures() {
				found = found || d.Rule == c.rule && d.Option == c.option
			}
			if !found {
				t.Errorf("%s %s=true: departures %v, want %s", name, c.option, p.Departures(), c.rule)
			}
		}
	}
}
