package live

// The rules a live table's refusals and records cite: each regulation's
// own, by rules.Profile.Cite, never another's. A
// dealer's irregularity is corrected on the inspector's word at
// argentina (AR-23: «previa autorización del Inspector»), on the table
// head's at spain and family (ES-01: «la decisión del Jefe de Mesa es
// irrevocable»; 003 §11: «todas las incidencias del juego … deberán ser
// dirimidas por el jefe de mesa»), on the games management's at venice
// (VE-22: «la soluzione di eventuali controversie è demandata alla
// decisione inappellabile della Direzione Giochi»). A box taken is AR-21,
// ES-03 or VE-03, as for a player's sit; the cut card AR-08 or EG-04 (004
// says nothing of it: this table's rules, cut_card_reserve).
const (
	// StaffRules are the rules of the staff's authority over a round:
	// the corrections, the rulings, a void.
	StaffRules = "AR-23, ES-01, VE-22"
	// SeatRules are the rules of a box taken.
	SeatRules = "AR-21, ES-03, VE-03"
	// CutCardRules are the rules of the cut card's coming out.
	CutCardRules = "AR-08, EG-04"
)

// Cited is a refusal's citation at the table, " (IDS)": those of ids that
// are its own regulation's, else this table's rules with option (its
// value), else nothing (rules.Profile.Cite).
func Cited(t Table, ids, option string) string {
	return cite(t.Table().Profile().Cite(ids, option))
}

// cite is " (RULE)", or nothing.
func cite(rule string) string {
	if rule == "" {
		return ""
	}
	return " (" + rule + ")"
}
