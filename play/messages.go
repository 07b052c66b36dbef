package play

import (
	"sync"

	"golang.org/x/text/message/catalog"
)

// messages is the session's catalogue in Spanish and Italian, keyed by the
// English format strings (a format not here prints in English). The
// vocabulary is the regulations' own: casillero, croupier, pedir, plantarse,
// doblar, separar, seguro, desafío (Argentina, Spain); postazione, banco,
// carta / no carta, raddoppio, divisione, assicurazione (Venice). A menu
// item keeps its English key letter in brackets: the commands typed are the
// same in every language. Built when a session first prints, not at the
// start of every command of the binary.
var messages = sync.OnceValue(func() *catalog.Builder {
	b := catalog.NewBuilder()

	// The session.
	set(b, "You play %s at %s a box, with a bankroll of %s. Money shows in units with two decimals; type help for the commands.\n",
		"Juega %s a %s por casillero, con un capital de %s. El dinero se muestra en unidades con dos decimales; escriba help para ver los comandos.\n",
		"Gioca %s a %s per postazione, con un capitale di %s. Il denaro è in unità con due decimali; scriva help per i comandi.\n")
	set(b, "The table minimum is %s a box%s; type amounts as the table shows them: bet 25 is 25.00.\n",
		"La apuesta mínima de la mesa es %s por casillero%s; escriba las cantidades como las muestra la mesa: bet 25 es 25.00.\n",
		"La puntata minima del tavolo è %s per postazione%s; scriva gli importi come li mostra il tavolo: bet 25 è 25.00.\n")
	set(b, "\nBankroll %s; %s on %s. Enter deals; or bet N, box 1,3, help, quit.",
		"\nCapital %s; %s en %s. Enter reparte; o bet N, box 1,3, help, quit.",
		"\nCapitale %s; %s a postazione, gioca %s. Invio distribuisce; oppure bet N, box 1,3, help, quit.")
	set(b, "box %s", "el casillero %s", "la postazione %s")
	set(b, "boxes %s", "los casilleros %s", "le postazioni %s")
	set(b, "You leave the table.\n", "Usted deja la mesa.\n", "Lei lascia il tavolo.\n")
	set(b, "Unknown command %q: type help.\n", "Comando desconocido %q: escriba help.\n", "Comando sconosciuto %q: scriva help.\n")
	set(b, "Refused: %v.\n", "Rechazado: %v.\n", "Rifiutato: %v.\n")
	set(b, "Stake %s a box from the next round.\n", "Apuesta de %s por casillero desde la próxima ronda.\n", "Puntata di %s per postazione dalla prossima mano.\n")
	set(b, "You play %s from the next round.\n", "Juega %s desde la próxima ronda.\n", "Gioca %s dalla prossima mano.\n")
	set(b, "No hand is in play: press Enter to deal.\n", "No hay mano en juego: pulse Enter para repartir.\n", "Nessuna mano in gioco: prema Invio per distribuire.\n")
	set(b, "\nThe session ends after %s.\n", "\nLa sesión termina después de %s.\n", "\nLa sessione finisce dopo %s.\n")
	set(b, "\nSession over: %s%s, net %s, biggest win %s; bankroll %s (you sat down with %s).\n",
		"\nFin de la sesión: %s%s, neto %s, mayor ganancia %s; capital %s (se sentó con %s).\n",
		"\nFine della sessione: %s%s, netto %s, vincita più alta %s; capitale %s (si è seduto con %s).\n")
	set(b, ", %d void", ", %d nulas", ", %d nulle")
	set(b, "Seed %s: the same seed, profile, options and input play this session again.\n",
		"Semilla %s: la misma semilla, perfil, opciones y entrada vuelven a jugar esta sesión.\n",
		"Seme %s: lo stesso seme, profilo, opzioni e input rigiocano questa sessione.\n")
	setPlural(b, "%d round", "%d ronda", "%d rondas", "%d mano", "%d mani")

	// The shoe.
	set(b, "A new deck: shuffled and cut", "Un mazo nuevo: mezclado y cortado", "Un mazzo nuovo: mescolato e tagliato")
	set(b, "A new shoe: %d decks shuffled and cut", "Un sabot nuevo: %d mazos mezclados y cortados", "Un sabot nuovo: %d mazzi mescolati e tagliati")
	set(b, "; the cut card goes %d cards from the end%s", "; la carta de corte va a %d cartas del final%s", "; la carta di taglio va a %d carte dalla fine%s")
	set(b, "; played cards go under the deck face up, and are shuffled when the first of them is reached%s",
		"; las cartas jugadas van debajo del mazo boca arriba, y se mezclan al llegar a la primera%s",
		"; le carte giocate vanno sotto il mazzo scoperte, e si mescolano quando si arriva alla prima%s")
	set(b, "; played cards go under the deck face down and the deal goes on through them%s",
		"; las cartas jugadas van debajo del mazo boca abajo y el reparto sigue con ellas%s",
		"; le carte giocate vanno sotto il mazzo coperte e la distribuzione prosegue con esse%s")
	set(b, "; no cut card: the shoe is dealt to its end, and a round the cards run out in is void%s",
		"; sin carta de corte: el sabot se reparte hasta el final, y la ronda en que se acaban las cartas es nula%s",
		"; senza carta di taglio: il sabot si distribuisce fino alla fine, e la mano in cui finiscono le carte è nulla%s")
	setPlural(b, "; %d card burned%s", "; %d carta quemada%s", "; %d cartas quemadas%s", "; %d carta bruciata%s", "; %d carte bruciate%s")
	set(b, helpText, helpES, helpIT)

	// The round.
	set(b, "\nRound %d: %s staked on %s.\n", "\nRonda %d: %s apostados en %s.\n", "\nMano %d: %s puntati; gioca %s.\n")
	set(b, "Round %d is void: every stake is returned; bankroll %s.\n",
		"La ronda %d es nula: se devuelven todas las apuestas; capital %s.\n",
		"La mano %d è nulla: ogni puntata è restituita; capitale %s.\n")
	set(b, "Round %d: net %s; bankroll %s.\n", "Ronda %d: neto %s; capital %s.\n", "Mano %d: netto %s; capitale %s.\n")
	set(b, "Box %d", "Casillero %d", "Postazione %d")
	set(b, "Box %d hand %d", "Casillero %d mano %d", "Postazione %d mano %d")
	set(b, "Dealer: %s (%s)", "Croupier: %s (%s)", "Banco: %s (%s)")
	set(b, "%d, bust", "%d, se pasa", "%d, sballa")
	set(b, "soft %d", "%d blando", "%d morbido")
	set(b, "%d and a card face down until the dealer has played, AR-17", "%d y una carta tapada hasta que juegue el croupier, AR-17", "%d e una carta coperta finché il banco non ha giocato, AR-17")
	set(b, "blackjack", "Black Jack", "Black Jack")
	set(b, "Ace", "As", "Asso")
	set(b, "%s against the dealer's %s. %s%s", "%s contra %s del croupier. %s%s", "%s contro %s del banco. %s%s")
	set(b, "Dealer turns the hole card: %s (%s)\n", "El croupier da vuelta la carta tapada: %s (%s)\n", "Il banco scopre la carta coperta: %s (%s)\n")
	set(b, "The cut card is out: this round is the last of the shoe%s.\n", "Salió la carta de corte: esta ronda es la última del sabot%s.\n", "È uscita la carta di taglio: questa mano è l'ultima del sabot%s.\n")
	set(b, "The round is void: %s; every stake is returned.\n", "La ronda es nula: %s; se devuelven todas las apuestas.\n", "La mano è nulla: %s; ogni puntata è restituita.\n")
	set(b, "%s stands.\n", "%s se planta.\n", "%s: no carta.\n")
	set(b, "%s draws.\n", "%s pide.\n", "%s: carta.\n")
	set(b, "%s doubles: %s more for one card.\n", "%s dobla: %s más por una carta.\n", "%s raddoppia: %s in più per una carta.\n")
	set(b, "%s doubles: %s more for one card; %s of it plays and %s is returned, win or lose (%s).\n",
		"%s dobla: %s más por una carta; juegan %s y se devuelven %s, gane o pierda (%s).\n",
		"%s raddoppia: %s in più per una carta; ne giocano %s e %s è restituito, vinca o perda (%s).\n")
	set(b, "Box %d insures %s.\n", "El casillero %d asegura %s.\n", "La postazione %d assicura %s.\n")
	set(b, "Box %d: the insurance %s %s.\n", "Casillero %d: el seguro %s %s.\n", "Postazione %d: l'assicurazione %s %s.\n")
	set(b, "wins", "gana", "vince")
	set(b, "loses", "pierde", "perde")

	// The menu: the key letter stays the English command's.
	set(b, "[h]it", "pedir [h]", "carta [h]")
	set(b, "[s]tand", "plantarse [s]", "no carta [s]")
	set(b, "[d]ouble", "doblar [d]", "raddoppio [d]")
	set(b, "s[p]lit", "separar [p]", "divisione [p]")
	set(b, "su[r]render", "rendirse [r]", "resa [r]")
	set(b, "Ace [o]ne", "As uno [o]", "Asso uno [o]")
	set(b, "Ace [e]leven", "As once [e]", "Asso undici [e]")
	set(b, "[c]hallenge", "desafío [c]", "sfida [c]")
	set(b, "[i]nsure", "seguro [i]", "assicurazione [i]")
	set(b, "[e]ven money", "cobrar 1 a 1 [e]", "Black Jack alla pari [e]")
	set(b, "[n]o", "no [n]", "no [n]")

	// The results (rules.Result).
	set(b, "win", "gana", "vince")
	set(b, "blackjack", "Black Jack", "Black Jack")
	set(b, "push", "empata", "pari")
	set(b, "lose", "pierde", "perde")
	set(b, "bust", "se pasa", "sballa")
	set(b, "even-money", "cobrado 1 a 1", "pagato alla pari")
	set(b, "void", "nula", "nulla")
	set(b, "surrender", "rendida", "resa")
	return b
})

// The help, in Spanish and Italian: the commands are the same letters.
const helpES = `Entre rondas:
  Enter, deal      reparte la próxima ronda
  bet N            apuesta N en cada casillero desde la próxima ronda, en dinero como lo
                   muestra la mesa: bet 25 es 25.00, bet 2.50 es 2.50
  box 1,3          juega estos casilleros desde la próxima ronda (boxes 3: del 1 al 3)
  help             este texto
  quit             deja la mesa y muestra el resumen
Durante una ronda escriba la letra de una opción o su nombre; puede seguir un importe:
  h pedir  s plantarse  d doblar [N]  p separar  r rendirse
  o / e  cuenta el As como uno / once (AR-11, VE-13)
  c desafío (AR-10)  i seguro [N]  e cobrar 1 a 1  n no (rechaza la oferta)
Lo que el menú no ofrece se rechaza con la regla que lo prohíbe. El final de la
entrada, como quit, deja la mesa: una ronda en juego termina con sus manos
plantadas donde las reglas lo permiten (si no, pidiendo).`

const helpIT = `Tra una mano e l'altra:
  Enter, deal      distribuisce la prossima mano
  bet N            punta N su ogni postazione dalla prossima mano, in denaro come lo
                   mostra il tavolo: bet 25 è 25.00, bet 2.50 è 2.50
  box 1,3          gioca queste postazioni dalla prossima mano (boxes 3: dalla 1 alla 3)
  help             questo testo
  quit             lascia il tavolo e mostra il riepilogo
Durante una mano scriva la lettera di un'offerta o il suo nome; può seguire un importo:
  h carta  s no carta  d raddoppio [N]  p divisione  r resa
  o / e  conta l'Asso uno / undici (AR-11, VE-13)
  c sfida (AR-10)  i assicurazione [N]  e Black Jack alla pari  n no (rifiuta l'offerta)
Ciò che il menu non offre è rifiutato con la regola che lo vieta. La fine
dell'input, come quit, lascia il tavolo: una mano in gioco si conclude con le sue
mani ferme dove le regole lo consentono (altrimenti chiamando carta).`
