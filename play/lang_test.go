package play_test

import (
	"strings"
	"testing"

	"golang.org/x/text/language"

	"sabot/play"
	"sabot/rules"
	"sabot/shoe"
)

// runIn plays the example's session (deal, hit) in a language.
func runIn(t *testing.T, lang language.Tag) string {
	t.Helper()
	s, err := play.New(play.Config{Profile: rules.MustLookup("vegas-s17"), Seed: shoe.SeedFromUint64(2), Rounds: 1, Echo: true, Lang: lang})
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	if _, err := s.Run(strings.NewReader("\nh\n"), &out); err != nil {
		t.Fatal(err)
	}
	return out.String()
}

// The same session in Spanish and Italian: the regulations' words, the
// decimal comma, the plural of "round"; the commands typed are the same.
func TestSessionInEachLanguage(t *testing.T) {
	for _, c := range []struct {
		lang language.Tag
		want []string
	}{
		{language.Spanish, []string{
			"Juega el casillero 1 a 10,00 por casillero, con un capital de 1000,00.",
			"Un sabot nuevo: 6 mazos mezclados y cortados; la carta de corte va a 78 cartas del final; 1 carta quemada.",
			"Ronda 1: 10,00 apostados en el casillero 1.",
			"Casillero 1: AC 3D (14 blando) contra TC del croupier. pedir [h]  plantarse [s]  doblar [d] 10,00",
			"El croupier da vuelta la carta tapada: TC JH (20)",
			"Casillero 1: AC 3D 7S (21): gana +10,00",
			"La sesión termina después de 1 ronda.",
			"Fin de la sesión: 1 ronda, neto +10,00",
		}},
		{language.Italian, []string{
			"Gioca la postazione 1 a 10,00 per postazione, con un capitale di 1000,00.",
			"; 1 carta bruciata.",
			"Mano 1: 10,00 puntati; gioca la postazione 1.",
			"Il banco scopre la carta coperta: TC JH (20)",
			"carta [h]  no carta [s]  raddoppio [d] 10,00",
			"Banco: TC ?? (10)",
			"Postazione 1: AC 3D 7S (21): vince +10,00",
			"La sessione finisce dopo 1 mano.",
		}},
	} {
		out := runIn(t, c.lang)
		for _, w := range c.want {
			if !strings.Contains(out, w) {
				t.Errorf("%s: no %q in\n%s", c.lang, w, out)
			}
		}
	}
	if out := runIn(t, language.English); !strings.Contains(out, "[h]it  [s]tand  [d]ouble 10.00") || !strings.Contains(out, "after 1 round.") {
		t.Errorf("English changed:\n%s", out)
	}
}

func TestParseLang(t *testing.T) {
	for in, want := range map[string]language.Tag{"en": language.English, "es": language.Spanish, "it": language.Italian, "es-AR": language.Spanish, "it_IT.UTF-8": language.Italian, "ES": language.Spanish} {
		if got, err := play.ParseLang(in); err != nil || got != want {
			t.Errorf("ParseLang(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"fr", "de-DE", "", "xx-not a tag"} {
		if _, err := play.ParseLang(in); err == nil || !strings.Contains(err.Error(), "want en, es or it") {
			t.Errorf("ParseLang(%q): %v, want a refusal", in, err)
		}
	}
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	for _, c := range []struct {
		env  map[string]string
		want language.Tag
	}{
		{map[string]string{}, language.English},
		{map[string]string{"LANG": "es_AR.UTF-8"}, language.Spanish},
		{map[string]string{"LANG": "es_ES.UTF-8", "LC_ALL": "it_IT.UTF-8"}, language.Italian},
		{map[string]string{"LANG": "it_IT.UTF-8", "LC_MESSAGES": "C"}, language.English},
		{map[string]string{"LANG": "fr_FR.UTF-8"}, language.English},
	} {
		if got := play.LangFromEnv(env(c.env)); got != c.want {
			t.Errorf("LangFromEnv(%v) = %v, want %v", c.env, got, c.want)
		}
	}
}
