package certify

import (
	"fmt"
	"html"
	"sabot"
	"sort"
	"strings"

	"sabot/internal/webapi"
	"sabot/money"
	"sabot/rules"
	"sabot/web"
)

// seedLang is the language of each built-in profile's regulation (its
// seed): the rules document is written in it as well as in English.
var seedLang = map[string]string{"argentina": "es", "spain": "es", "family": "es", "venice": "it"}

var langName = map[string]string{"en": "English", "es": "español", "it": "italiano"}

// words are the rules document's own words by language.
var words = map[string]map[string]string{
	"en": {"departs": "Where this table departs from its regulation", "limits": "The table's limits", "placeholder": "placeholder limits: the profile's defaults, not a table's; the operator sets the table's with -o min_bet=… -o max_bet=…", "min": "minimum stake", "max": "maximum stake", "title": "Rules of the game", "profile": "Profile", "rules": "The rules", "option": "options", "ids": "rules",
		"readings": "Readings taken where the regulation is silent or ambiguous", "tableRules": "this table's rules", "regulation": "The regulation, rule by rule",
		"seed": "the regulation's words", "options": "Every option of the profile", "value": "value", "none": "This profile follows no regulation (a reference profile): its rules are its options.",
		"note": "Made by `sabot certify` from the profile: each rule's sentence is the one the tables show (GET /api/tables/{id}/rules), each rule ID is RULES.md's, and the regulation's own words are quoted verbatim where the project has them."},
	"es": {"departs": "Donde esta mesa se aparta de su reglamento", "limits": "Límites de la mesa", "placeholder": "límites provisionales: los del perfil por omisión, no los de una mesa; el operador fija los de la mesa con -o min_bet=… -o max_bet=…", "min": "apuesta mínima", "max": "apuesta máxima", "title": "Reglamento del juego", "profile": "Perfil", "rules": "Las reglas", "option": "opciones", "ids": "reglas",
		"readings": "Lecturas tomadas donde el reglamento calla o es ambiguo", "tableRules": "las reglas de esta mesa", "regulation": "El reglamento, regla por regla",
		"seed": "palabras del reglamento", "options": "Todas las opciones del perfil", "value": "valor", "none": "",
		"note": "Hecho por `sabot certify` a partir del perfil: cada frase es la que muestran las mesas, en su traducción al español; cada regla lleva su identificador y, donde existen, las palabras del reglamento citadas textualmente."},
	"it": {"departs": "Dove questo tavolo si discosta dal suo regolamento", "limits": "Limiti del tavolo", "placeholder": "limiti provvisori: quelli predefiniti del profilo, non di un tavolo; l'operatore fissa quelli del tavolo con -o min_bet=… -o max_bet=…", "min": "puntata minima", "max": "puntata massima", "title": "Regolamento del gioco", "profile": "Profilo", "rules": "Le regole", "option": "opzioni", "ids": "regole",
		"readings": "Letture adottate dove il regolamento tace o è ambiguo", "tableRules": "le regole di questo tavolo", "regulation": "Il regolamento, regola per regola",
		"seed": "parole del regolamento", "options": "Tutte le opzioni del profilo", "value": "valore", "none": "",
		"note": "Prodotto da `sabot certify` a partire dal profilo: ogni frase è quella mostrata ai tavoli, nella traduzione italiana; ogni regola porta il suo identificativo e, dove esistono, le parole del regolamento citate alla lettera."},
}

func (k *Kit) languages() []string {
	if l, ok := seedLang[k.Profile.Name]; ok {
		return []string{l, "en"}
	}
	return []string{"en"}
}

// RulesDoc is the rules document in one language.
type RulesDoc struct {
	Lang, Title, Profile, Description string
	// Min and Max are the table's limits, written in the language's way;
	// Placeholder says they are the profile's defaults, not a table's.
	Min, Max        string
	Placeholder     bool
	Lines, Readings []DocLine
	// Departures are the option values that break a rule of the profile's
	// own regulation (rules.Departure), first in the document.
	Departures []DocLine
	Regulation []webapi.RuleRef
	Options    [][3]string // key, value, rules
	w          map[string]string
}

// DocLine is one rule of the document: its topic, its sentence, the options
// that set it and the rule IDs it follows.
type DocLine struct {
	Topic, Text string
	Options     []string
	Rules       []webapi.RuleRef
}

func (k *Kit) rulesDoc(lang string) (*RulesDoc, error) {
	p := k.Profile
	tr := webapi.PlainRules(0, p)
	cat := map[string]map[string]string{}
	if lang != "en" {
		var err error
		if cat, err = web.Catalogue(lang); err != nil {
			return nil, err
		}
	}
	say := func(key, english string) string {
		if m, ok := cat[key]; ok && m[""] != "" {
			return m[""]
		}
		return english
	}
	sentence := func(ps []sabot.Phrase, english string) string {
		if lang == "en" || len(ps) == 0 {
			return english
		}
		var b strings.Builder
		for _, ph := range ps {
			b.WriteString(wordPhrase(cat, lang, ph))
		}
		return b.String()
	}
	doc := &RulesDoc{Lang: lang, Title: words[lang]["title"], Profile: p.Name, Description: say("profile."+p.Name, tr.Description), w: words[lang],
		Min: localMoney(p.MinBet, lang), Max: localMoney(p.MaxBet, lang), Placeholder: PlaceholderLimits(p)}
	for _, l := range tr.Lines {
		doc.Lines = append(doc.Lines, DocLine{Topic: say("topic."+l.Key, l.Topic), Text: sentence(l.Phrases, l.Text), Options: l.Options, Rules: l.Rules})
	}
	for _, l := range tr.Readings {
		// A reading cited as this table's rules says so in the
		// document's language.
		topic := l.Topic
		if rest, ok := strings.CutPrefix(topic, rules.TableRules+": "); ok {
			topic = words[lang]["tableRules"] + ": " + rest
		}
		doc.Readings = append(doc.Readings, DocLine{Topic: topic, Text: sentence(l.Phrases, l.Text), Options: l.Options, Rules: l.Rules})
	}
	for _, d := range tr.Departures {
		doc.Departures = append(doc.Departures, DocLine{Topic: d.Rule.ID, Text: d.Text, Options: []string{d.Option}, Rules: []webapi.RuleRef{d.Rule}})
	}
	doc.Regulation = webapi.RegulationRules(p.Name)
	keys := make([]string, 0, len(tr.Values))
	for key := range tr.Values {
		keys = append(keys, key)
	}
	sort.Strings(keys)
	for _, key := range keys {
		doc.Options = append(doc.Options, [3]string{key, tr.Values[key], ""})
	}
	return doc, nil
}

// PlaceholderLimits reports a profile whose limits are still the built-in
// profiles' defaults (0.01 to 1,000,000.00), not a table's: its rules
// document says so, and the compliance matrix's game-rules line is partly
// met.
func PlaceholderLimits(p *rules.Profile) bool { return p.MinBet == 1 && p.MaxBet == 1_000_000_00 }

// seedCite is where a rule's quotation stands in its regulation, by title,
// section and point (Cite); the seed file where the project has no
// citation for it.
func seedCite(r webapi.RuleRef) string {
	if c, ok := Cite(r.ID); ok && c.Title() != "" {
		return c.String()
	}
	return r.Seed.Source
}

// limitsText is the table's limits as the document states them.
func (d *RulesDoc) limitsText() string {
	t := d.w["min"] + " " + d.Min + ", " + d.w["max"] + " " + d.Max
	if d.Placeholder {
		t += " (" + d.w["placeholder"] + ")"
	}
	return t
}

// moneyParams are the phrase values in minor units.
var moneyParams = map[string]bool{"min": true, "max": true, "amount": true, "stake": true, "limit": true}

// wordPhrase words a phrase of the rules by a client catalogue (the rules
// panel's rule.KEY), as the web client does: its plural form by n, its
// amounts as money in the language's way; its English text where the
// catalogue lacks the key.
func wordPhrase(cat map[string]map[string]string, lang string, ph sabot.Phrase) string {
	if ph.Key == "" {
		return ph.Text
	}
	m, ok := cat["rule."+ph.Key]
	if !ok {
		return ph.Text
	}
	text := m[""]
	if text == "" {
		n := fmt.Sprint(ph.Params["n"])
		form := "other"
		if n == "1" {
			form = "one"
		}
		if text = m[form]; text == "" {
			text = m["other"]
		}
	}
	for name, v := range ph.Params {
		val := fmt.Sprint(v)
		if moneyParams[name] {
			val = localMoney(v, lang)
		}
		text = strings.ReplaceAll(text, "{"+name+"}", val)
	}
	return text
}

// localMoney writes minor units as the language writes amounts: 1,234.56
// in English, 1.234,56 in Spanish and Italian.
func localMoney(v any, lang string) string {
	var n int64
	switch x := v.(type) {
	case int:
		n = int64(x)
	case int64:
		n = x
	case money.Amount:
		n = int64(x)
	case float64:
		n = int64(x)
	default:
		return fmt.Sprint(v)
	}
	group, dec := ",", "."
	if lang != "en" {
		group, dec = ".", ","
	}
	sign := ""
	if n < 0 {
		sign, n = "−", -n
	}
	whole := fmt.Sprint(n / 100)
	var b strings.Builder
	for i, c := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b.WriteString(group)
		}
		b.WriteRune(c)
	}
	return fmt.Sprintf("%s%s%s%02d", sign, b.String(), dec, n%100)
}

// ruleText is a rule's wording in the document: in English, the project's
// (RULES.md); in the seed's language, the seed's own words follow it, so the
// project's English is left out where they exist.
func (d *RulesDoc) ruleText(r webapi.RuleRef) string {
	if d.Lang != "en" && r.Seed != nil {
		return ""
	}
	return r.Text
}

// HTML is the document as one HTML page.
func (d *RulesDoc) HTML() string {
	e := html.EscapeString
	var b strings.Builder
	fmt.Fprintf(&b, "<!doctype html>\n<html lang=\"%s\"><head><meta charset=\"utf-8\"><title>%s: %s</title>\n", d.Lang, e(d.Title), e(d.Profile))
	b.WriteString("<style>body{font:15px/1.45 sans-serif;max-width:58em;margin:2em auto;padding:0 1em}dt{font-weight:bold;margin-top:.8em}" +
		"blockquote{margin:.3em 0 .3em 1.5em;color:#444;font-style:italic}.id{font-family:monospace;color:#235}table{border-collapse:collapse}" +
		"td,th{border:1px solid #ccc;padding:.2em .5em;text-align:left}small{color:#555}</style></head><body>\n")
	fmt.Fprintf(&b, "<h1>%s: %s</h1>\n<p>%s</p>\n<p><small>%s</small></p>\n", e(d.Title), e(d.Profile), e(d.Description), e(d.w["note"]))
	fmt.Fprintf(&b, "<h2>%s</h2>\n<p class=\"limits\">%s</p>\n", e(d.w["limits"]), e(d.limitsText()))
	refs := func(rs []webapi.RuleRef) {
		for _, r := range rs {
			fmt.Fprintf(&b, "<div><span class=\"id\">%s</span> %s", e(r.ID), e(d.ruleText(r)))
			if r.Seed != nil {
				fmt.Fprintf(&b, "<blockquote lang=\"%s\">«%s» <small>(%s, %s)</small></blockquote>", e(r.Seed.Lang), e(r.Seed.Text), e(d.w["seed"]), e(seedCite(r)))
			}
			b.WriteString("</div>\n")
		}
	}
	lines := func(title string, ls []DocLine) {
		if len(ls) == 0 {
			return
		}
		fmt.Fprintf(&b, "<h2>%s</h2>\n<dl>\n", e(title))
		for _, l := range ls {
			fmt.Fprintf(&b, "<dt>%s</dt><dd><p>%s</p>", e(l.Topic), e(l.Text))
			if len(l.Options) > 0 {
				fmt.Fprintf(&b, "<small>%s: %s</small>", e(d.w["option"]), e(strings.Join(l.Options, ", ")))
			}
			refs(l.Rules)
			b.WriteString("</dd>\n")
		}
		b.WriteString("</dl>\n")
	}
	lines(d.w["departs"], d.Departures)
	lines(d.w["rules"], d.Lines)
	lines(d.w["readings"], d.Readings)
	fmt.Fprintf(&b, "<h2>%s</h2>\n", e(d.w["regulation"]))
	if len(d.Regulation) == 0 {
		fmt.Fprintf(&b, "<p>%s</p>\n", e(words["en"]["none"]))
	}
	refs(d.Regulation)
	fmt.Fprintf(&b, "<h2>%s</h2>\n<table><tr><th>option</th><th>%s</th></tr>\n", e(d.w["options"]), e(d.w["value"]))
	for _, o := range d.Options {
		fmt.Fprintf(&b, "<tr><td class=\"id\">%s</td><td>%s</td></tr>\n", e(o[0]), e(o[1]))
	}
	b.WriteString("</table>\n</body></html>\n")
	return b.String()
}

// PDF is the document as a PDF.
func (d *RulesDoc) PDF(m Meta) ([]byte, error) {
	doc := NewDoc(d.Title+": "+d.Profile, header(m), m.Created)
	doc.P(d.Description)
	doc.Small(d.w["note"])
	doc.H(d.w["limits"])
	doc.P(d.limitsText())
	refs := func(rs []webapi.RuleRef) {
		for _, r := range rs {
			doc.f.SetFont("sans", "B", 8.5)
			doc.f.CellFormat(16, 4.2, r.ID, "", 0, "L", false, 0, "")
			if text := d.ruleText(r); text != "" {
				doc.f.SetFont("sans", "", 8.5)
				doc.f.MultiCell(0, 4.2, text, "", "L", false)
				doc.f.SetX(31)
			}
			if r.Seed != nil {
				doc.f.SetFont("sans", "I", 8)
				doc.f.SetTextColor(70, 70, 70)
				doc.f.MultiCell(0, 3.9, "«"+r.Seed.Text+"» ("+d.w["seed"]+", "+seedCite(r)+")", "", "L", false)
				doc.f.SetTextColor(0, 0, 0)
			}
			doc.f.Ln(0.8)
		}
	}
	lines := func(title string, ls []DocLine) {
		if len(ls) == 0 {
			return
		}
		doc.H(title)
		for _, l := range ls {
			doc.H2(l.Topic)
			doc.P(l.Text)
			if len(l.Options) > 0 {
				doc.Small(d.w["option"] + ": " + strings.Join(l.Options, ", "))
			}
			refs(l.Rules)
		}
	}
	lines(d.w["departs"], d.Departures)
	lines(d.w["rules"], d.Lines)
	lines(d.w["readings"], d.Readings)
	doc.H(d.w["regulation"])
	if len(d.Regulation) == 0 {
		doc.P(words["en"]["none"])
	}
	refs(d.Regulation)
	doc.H(d.w["options"])
	var rows [][]string
	for _, o := range d.Options {
		rows = append(rows, []string{o[0], o[1]})
	}
	doc.Table([]float64{60, 120}, []string{"option", d.w["value"]}, rows, "LL")
	return doc.Bytes()
}
