package webtest

import (
	"strings"
	"testing"
)

// The felt says what the rule is, whole. Every line
// printed on the cloth, of every profile in every language, lies within its
// arc (a textPath cuts a longer line at both ends: the Italian S17 line read
// «BANCO CHIAMA CARTA FINO A 16 E SI FERMA A 1»), and the English H17 line
// says the dealer must hit soft 17, which casino English cannot read as a
// stand.
func TestFeltPrintFits(t *testing.T) {
	t.Parallel()
	site := MustStart(t, slow)
	ctx := page(t, 1280, 900)
	type table struct {
		name string
		id   int64
	}
	var tables []table
	for _, p := range []struct {
		name, profile string
		options       map[string]string
	}{
		{"Buenos Aires", "argentina", nil}, {"Madrid", "spain", nil}, {"Venezia", "venice", nil},
		{"Familia", "family", nil}, {"Pontoon", "family", map[string]string{"five_card_21": "true", "three_sevens": "true"}},
		{"S17", "vegas-s17", nil}, {"H17", "vegas-h17", nil}, {"Venezia H17", "venice", map[string]string{"dealer_hits_soft_17": "true"}},
	} {
		tables = append(tables, table{p.name, site.Table(t, p.name, p.profile, p.options)})
	}
	open(t, ctx, site, "/", ".lobby")
	for _, lang := range []string{"en", "es", "it"} {
		choose(t, ctx, lang)
		for _, tb := range tables {
			open(t, ctx, site, "/tables/"+itoa(tb.id), ".felt")
			waitJS(t, ctx, tb.name+"'s print fitted, in "+lang, `(() => { const s = document.querySelector('.felt .felt-print'); return !!s && s.dataset.fitted === '1' && s.querySelectorAll('text').length >= 2 })()`)
			// Each line set straight in its own style, against its arc.
			over := eval[[]string](t, ctx, `(() => {
				const svg = document.querySelector('.felt .felt-print');
				const arcs = [...svg.querySelectorAll('defs path')];
				return [...svg.querySelectorAll('text')].flatMap((text, i) => {
					const probe = document.createElementNS('http://www.w3.org/2000/svg', 'text');
					probe.setAttribute('class', text.getAttribute('class'));
					probe.style.fontSize = text.style.fontSize;
					probe.style.letterSpacing = text.style.letterSpacing;
					probe.textContent = text.textContent;
					svg.append(probe);
					const w = probe.getComputedTextLength();
					probe.remove();
					const room = arcs[i].getTotalLength();
					return w > room ? [text.textContent + ': ' + Math.round(w) + ' > ' + Math.round(room)] : [];
				});
			})()`)
			for _, o := range over {
				t.Errorf("%s, %s: a line longer than its arc, cut at both ends: %s", tb.name, lang, o)
			}
			lines := eval[[]string](t, ctx, `[...document.querySelectorAll('.felt .felt-print text')].map(t => t.textContent)`)
			if lang == "en" && tb.name == "H17" && !strings.Contains(strings.Join(lines, "|"), "DEALER MUST HIT SOFT 17") {
				t.Errorf("H17 prints %q, want DEALER MUST HIT SOFT 17", lines)
			}
			if lang == "it" && tb.name == "S17" && !strings.Contains(strings.Join(lines, "|"), "SI FERMA A 17") {
				t.Errorf("S17 in Italian prints %q", lines)
			}
		}
	}
}
