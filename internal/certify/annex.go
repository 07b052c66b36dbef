package certify

import (
	"fmt"
	"html"
	"sort"
	"strings"

	"sabot/internal/webapi"
)

// regulators names the authority each built-in profile's regulation
// answers to.
var regulators = map[string]string{
	"venice":    "Agenzia delle Dogane e dei Monopoli (ADM), Italy; the house rules of the Casinò di Venezia",
	"spain":     "Spain: the Dirección General de Ordenación del Juego (DGOJ) for play at a distance, the autonomous community's gaming authority for a casino; the casino's published rules",
	"family":    "Spain: the Black Jack familiar of the Spanish rules (§ 12), between players",
	"argentina": "Argentina: the provincial gaming authority (lotería) whose reglamento the table follows",
}

// AnnexRow is one requirement of a profile's regulation and the kit's
// evidence for it.
type AnnexRow struct {
	Rule        string   `json:"rule"`     // the rule ID (RULES.md)
	Citation    string   `json:"citation"` // title, section and point of the regulation
	Requirement string   `json:"requirement"`
	Words       string   `json:"words,omitempty"` // the regulation's own words
	Scenarios   []string `json:"scenarios,omitempty"`
	Tests       []string `json:"tests,omitempty"`
	Status      string   `json:"status"` // shown: a scenario of the kit agrees or a test is named by the rule; stated: the rules document only
}

// Annex is a jurisdiction annex: each requirement of the profile's
// regulation mapped to the evidence of the kit.
type Annex struct {
	Profile    string         `json:"profile"`
	Regulator  string         `json:"regulator"`
	Regulation []string       `json:"regulation"` // the documents' titles
	Note       string         `json:"note"`
	Rows       []AnnexRow     `json:"rows"`
	Count      map[string]int `json:"count"`
}

// JurisdictionAnnex is the profile's annex, nil for a profile that follows
// no regulation (a reference profile).
func JurisdictionAnnex(k *Kit) *Annex {
	refs := webapi.RegulationRules(k.Profile.Name)
	if len(refs) == 0 {
		return nil
	}
	byRule := map[string][]string{}
	for _, s := range k.Scenarios {
		if !s.Agrees {
			continue
		}
		for _, id := range scenarioRules(s.Name) {
			byRule[id] = append(byRule[id], "scenarios/"+s.Name)
		}
	}
	a := &Annex{Profile: k.Profile.Name, Regulator: regulators[k.Profile.Name], Count: map[string]int{},
		Note: "Each requirement of the regulation (by RULES.md's rule IDs, cited by the document's title, section and numbered point) with the kit's evidence: " +
			"the forced-card scenarios of this kit that exercise it and agree with their expectation, and the tests named by the rule. " +
			"The jurisdiction's technical requirements (RNG, return, software identification, records) are the compliance matrix's GLI lines."}
	titles := map[string]bool{}
	for _, r := range refs {
		row := AnnexRow{Rule: r.ID, Requirement: r.Text, Scenarios: byRule[r.ID], Tests: ruleTests[r.ID], Status: "stated"}
		if c, ok := Cite(r.ID); ok {
			row.Citation = c.String()
			titles[c.Title()] = true
		}
		if r.Seed != nil {
			row.Words = r.Seed.Text
		}
		if len(row.Scenarios) > 0 || len(row.Tests) > 0 {
			row.Status = "shown"
		}
		a.Count[row.Status]++
		a.Rows = append(a.Rows, row)
	}
	for t := range titles {
		a.Regulation = append(a.Regulation, t)
	}
	sort.Strings(a.Regulation)
	return a
}

// scenarioRules reads the rule IDs a scenario's file name cites:
// "argentina-ar-09-ar-15-no-peek….json" cites AR-09 and AR-15.
func scenarioRules(name string) []string {
	parts := strings.Split(strings.TrimSuffix(name, ".json"), "-")
	var out []string
	for i := 0; i+1 < len(parts); i++ {
		pre, num := strings.ToUpper(parts[i]), parts[i+1]
		switch pre {
		case "AR", "VE", "ES", "EG", "FAM", "PON":
		default:
			continue
		}
		if len(num) == 2 && strings.Trim(num, "0123456789") == "" {
			out = append(out, pre+"-"+num)
		}
	}
	return out
}

// AnnexHTML is the annex as an HTML page.
func AnnexHTML(meta Meta, a *Annex) string {
	e := html.EscapeString
	var b strings.Builder
	fmt.Fprintf(&b, "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Jurisdiction annex: %s</title>\n", e(a.Profile))
	b.WriteString("<style>body{font:14px/1.4 sans-serif;margin:2em}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.3em .5em;vertical-align:top;text-align:left}" +
		".shown{background:#e3f4e0}.stated{background:#fdf1cf}small{color:#555}</style></head><body>\n")
	fmt.Fprintf(&b, "<h1>Jurisdiction annex: %s</h1>\n<p>%s</p>\n<p>%s</p>\n<p>%s</p>\n", e(a.Profile), e(a.Regulator), e(strings.Join(a.Regulation, "; ")), e(a.Note))
	fmt.Fprintf(&b, "<p>%s</p>\n<table>\n<tr><th>rule</th><th>regulation</th><th>requirement</th><th>status</th><th>scenarios</th><th>tests</th></tr>\n", e(header(meta)))
	for _, r := range a.Rows {
		fmt.Fprintf(&b, "<tr><td>%s</td><td>%s</td><td>%s", e(r.Rule), e(r.Citation), e(r.Requirement))
		if r.Words != "" {
			fmt.Fprintf(&b, "<br><small>«%s»</small>", e(r.Words))
		}
		fmt.Fprintf(&b, "</td><td class=\"%s\">%s</td><td>%s</td><td>%s</td></tr>\n", e(r.Status), e(r.Status), e(strings.Join(r.Scenarios, ", ")), e(strings.Join(r.Tests, ", ")))
	}
	b.WriteString("</table>\n</body></html>\n")
	return b.String()
}

// AnnexPDF is the annex as a PDF.
func AnnexPDF(meta Meta, a *Annex) ([]byte, error) {
	d := NewDoc("Jurisdiction annex: "+a.Profile, header(meta), meta.Created)
	d.P(a.Regulator)
	d.P("Regulation: " + strings.Join(a.Regulation, "; ") + ".")
	d.P(a.Note)
	d.P(fmt.Sprintf("%d requirements: %d shown by a scenario or a test, %d stated in the rules document only.", len(a.Rows), a.Count["shown"], a.Count["stated"]))
	var rows [][]string
	for _, r := range a.Rows {
		rows = append(rows, []string{r.Rule + "\n" + r.Citation, r.Requirement, strings.ToUpper(r.Status),
			strings.Join(r.Scenarios, "\n"), strings.Join(r.Tests, "\n")})
	}
	d.Table([]float64{34, 50, 16, 44, 36}, []string{"rule, regulation", "requirement", "status", "scenarios (agree)", "tests"}, rows, "LLCLL")
	return d.Bytes()
}
