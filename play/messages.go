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

	// The session's refusals and notes.
	set(b, "%s: the discards and the rest of the shoe are reshuffled%s.\n", "%s: se mezclan las cartas jugadas y el resto del sabot%s.\n", "%s: si mescolano le carte giocate e il resto del sabot%s.\n")
	set(b, "%s: the double card is turned: %s (%s)\n", "%s: se da vuelta la carta del doble: %s (%s)\n", "%s: si scopre la carta del raddoppio: %s (%s)\n")
	set(b, "%s counts the Ace %d: %s\n", "%s cuenta el As %d: %s\n", "%s conta l'Asso %d: %s\n")
	set(b, "Box %d splits: hand %d %s, hand %d %s; %s on hand %d.\n", "El casillero %d separa: mano %d %s, mano %d %s; %s en la mano %d.\n", "La postazione %d divide: mano %d %s, mano %d %s; %s sulla mano %d.\n")
	set(b, "%s challenges %s that the next card is ten-value (AR-10).\n", "%s desafía %s a que la próxima carta vale diez (AR-10).\n", "%s sfida %s che la prossima carta valga dieci (AR-10).\n")
	set(b, "%s: the challenge %s %s.\n", "%s: el desafío %s %s.\n", "%s: la sfida %s %s.\n")
	set(b, "Box %d takes even money: %s.\n", "El casillero %d cobra 1 a 1: %s.\n", "La postazione %d prende il Black Jack alla pari: %s.\n")
	set(b, "%s needs %s and %s of your bankroll is free", "%s necesita %s y tiene libres %s de su capital", "%s richiede %s e sono liberi %s del suo capitale")
	set(b, " (VE-06: %d or less must draw)", " (VE-06: con %d o menos se pide)", " (VE-06: con %d o meno si chiama carta)")
	set(b, "The round is in play: %s decides.\n", "La ronda está en juego: decide %s.\n", "La mano è in gioco: decide %s.\n")
	set(b, "No offer is open: %s decides.\n", "No hay ninguna oferta abierta: decide %s.\n", "Nessuna offerta è aperta: decide %s.\n")
	set(b, "Refused: %s needs %s and %s of your bankroll is free.\n", "Rechazado: %s necesita %s y tiene libres %s de su capital.\n", "Rifiutato: %s richiede %s e sono liberi %s del suo capitale.\n")
	set(b, "Refused: %s may not %s: %s.\n", "Rechazado: %s no puede %s: %s.\n", "Rifiutato: %s non può %s: %s.\n")
	set(b, "The round is finished for you: your hands stand where the rules allow, else draw.\n",
		"La ronda se termina por usted: sus manos se plantan donde las reglas lo permiten, si no, piden.\n",
		"La mano si conclude per Lei: le sue mani stanno dove le regole lo consentono, altrimenti chiamano carta.\n")
	set(b, "count the Ace %d", "contar el As %d", "contare l'Asso %d")
	set(b, "a stake of %s: the table minimum is %s", "una apuesta de %s: el mínimo de la mesa es %s", "una puntata di %s: il minimo del tavolo è %s")
	set(b, "\nYour bankroll of %s cannot cover the table minimum on %d boxes.\n", "\nSu capital de %s no cubre el mínimo de la mesa en %d casilleros.\n", "\nIl suo capitale di %s non copre il minimo del tavolo su %d postazioni.\n")
	set(b, "\n(end of input)\n", "\n(fin de la entrada)\n", "\n(fine dell'input)\n")
	set(b, "sabot play: %s. %s\n", "sabot play: %s. %s\n", "sabot play: %s. %s\n")
	set(b, "%s on %s needs %s; your bankroll is %s: lower the bet (bet N) or play fewer boxes.\n",
		"%s en %s necesita %s; su capital es %s: baje la apuesta (bet N) o juegue menos casilleros.\n",
		"%s su %s richiede %s; il suo capitale è %s: abbassi la puntata (bet N) o giochi meno postazioni.\n")
	set(b, "Unknown command %q: type a letter in brackets, or help", "Comando desconocido %q: escriba una letra entre corchetes, o help", "Comando sconosciuto %q: scriva una lettera fra parentesi quadre, o help")
	set(b, "Declare 1 or declare 11", "Declare 1 o declare 11", "Declare 1 o declare 11")
	set(b, "%s takes no amount", "%s no lleva importe", "%s non prevede un importo")

	// The decisions, as "may not ..." names them (actionText).
	set(b, "may:hit", "pedir", "chiamare carta")
	set(b, "may:stand", "plantarse", "stare")
	set(b, "may:double", "doblar", "raddoppiare")
	set(b, "may:split", "separar", "dividere")
	set(b, "may:surrender", "rendirse", "arrendersi")
	set(b, "may:insure", "asegurar", "assicurarsi")
	set(b, "may:even-money", "cobrar 1 a 1", "prendere il Black Jack alla pari")
	set(b, "may:challenge", "desafiar", "sfidare")
	set(b, "may:withdraw", "retirarse", "ritirarsi")

	// The engine's reasons a player meets at the terminal (engine.Refusal.Why).
	set(b, "doubling needs the first two cards", "para doblar hacen falta las dos primeras cartas", "per raddoppiare servono le prime due carte")
	set(b, "doubling needs a two-card 9, 10 or 11", "para doblar hace falta un 9, 10 u 11 con dos cartas", "per raddoppiare serve un 9, 10 o 11 con due carte")
	set(b, "doubling needs a two-card 10 or 11", "para doblar hace falta un 10 u 11 con dos cartas", "per raddoppiare serve un 10 o 11 con due carte")
	set(b, "doubling needs a two-card 11", "para doblar hace falta un 11 con dos cartas", "per raddoppiare serve un 11 con due carte")
	set(b, "no double after a split", "no se dobla después de separar", "non si raddoppia dopo una divisione")
	set(b, "splitting needs the first two cards", "para separar hacen falta las dos primeras cartas", "per dividere servono le prime due carte")
	set(b, "splitting needs two cards of equal value", "para separar hacen falta dos cartas del mismo valor", "per dividere servono due carte dello stesso valore")
	set(b, "split Aces are not split again", "los Ases separados no se vuelven a separar", "gli Assi divisi non si dividono di nuovo")
	set(b, "split Aces get one card each", "los Ases separados reciben una carta cada uno", "gli Assi divisi ricevono una carta ciascuno")
	set(b, "a blackjack cannot be insured", "un Black Jack no se asegura", "un Black Jack non si assicura")
	set(b, "already insured", "ya está asegurado", "già assicurato")
	set(b, "already challenged", "ya ha desafiado", "sfida già fatta")
	set(b, "insurance is offered only under a dealer Ace", "el seguro solo se ofrece con un As del croupier", "l'assicurazione si offre solo con un Asso del banco")
	set(b, "there is no insurance at this table", "en esta mesa no hay seguro", "a questo tavolo non c'è assicurazione")
	set(b, "there is no even money at this table", "en esta mesa no se cobra 1 a 1", "a questo tavolo non c'è il Black Jack alla pari")
	set(b, "there is no surrender at this table", "en esta mesa no hay rendición", "a questo tavolo non c'è la resa")
	set(b, "even money needs a blackjack", "cobrar 1 a 1 requiere un Black Jack", "il Black Jack alla pari richiede un Black Jack")
	set(b, "surrender is only on the first two cards of an unsplit hand", "la rendición es solo con las dos primeras cartas de una mano no separada", "la resa è solo sulle prime due carte di una mano non divisa")
	set(b, "the Ace must first be declared 1 or 11", "primero hay que declarar el As 1 u 11", "prima l'Asso va dichiarato 1 o 11")
	set(b, "the Ace has been declared, irrevocably", "el As ya se ha declarado, irrevocablemente", "l'Asso è già stato dichiarato, irrevocabilmente")
	set(b, "an Ace counts 1 or 11", "un As cuenta 1 u 11", "un Asso conta 1 o 11")
	set(b, "there is no Ace among the first two cards to declare", "no hay ningún As que declarar entre las dos primeras cartas", "non c'è un Asso da dichiarare fra le prime due carte")
	set(b, "the challenge needs an Ace as the hand's first card", "el desafío requiere un As como primera carta de la mano", "la sfida richiede un Asso come prima carta della mano")
	set(b, "the round is over", "la ronda ha terminado", "la mano è finita")
	set(b, "unknown action", "decisión desconocida", "decisione sconosciuta")

	// The built-in profiles' descriptions (rules.Profile.Description).
	set(b, "Argentine reglamento: 8 decks, no-peek hole card, the Desafío, Aces declared 1 or 11, double on 11 only, one split.",
		"Reglamento argentino: 8 mazos, carta tapada sin mirar, el Desafío, Ases declarados 1 u 11, doble solo con 11, una separación.",
		"Regolamento argentino: 8 mazzi, carta coperta senza controllo, il Desafío, Assi dichiarati 1 o 11, raddoppio solo su 11, una divisione.")
	set(b, "Spanish casino: 6 decks, European no hole card, double on 9-11, up to 6 splits, insurance and even money under an Ace.",
		"Casino español: 6 mazos, sin carta tapada (europeo), doble con 9 a 11, hasta 6 separaciones, seguro y 1 a 1 con un As.",
		"Casinò spagnolo: 6 mazzi, senza carta coperta (europeo), raddoppio su 9-11, fino a 6 divisioni, assicurazione e pari sotto un Asso.")
	set(b, "Family blackjack: casino rules with one deck, cards collected under the deck, a rotating bank; pontoon variants as options.",
		"Blackjack en familia: reglas de casino con un mazo, cartas recogidas bajo el mazo, banca rotatoria; variantes de pontoon como opciones.",
		"Blackjack in famiglia: regole da casinò con un mazzo, carte raccolte sotto il mazzo, banco a rotazione; varianti pontoon come opzioni.")
	set(b, "Casinò di Venezia: 6 decks, European no hole card, 3 spots per box, must draw to 11, double any two, split to 3 hands.",
		"Casinò di Venezia: 6 mazos, sin carta tapada (europeo), 3 puestos por casillero, se pide hasta 11, doble con dos cartas cualesquiera, separación hasta 3 manos.",
		"Casinò di Venezia: 6 mazzi, senza carta coperta (europeo), 3 posti per postazione, carta obbligatoria fino a 11, raddoppio su due carte qualsiasi, divisione fino a 3 mani.")
	set(b, "Reference: 6 decks, peek, dealer stands on soft 17, double any two, DAS, resplit to 4, Aces split once with one card.",
		"Referencia: 6 mazos, el croupier mira la carta tapada, se planta con 17 blando, doble con dos cartas cualesquiera y tras separar, hasta 4 manos, Ases separados una vez con una carta.",
		"Riferimento: 6 mazzi, il banco controlla la carta coperta, sta sul 17 morbido, raddoppio su due carte qualsiasi e dopo la divisione, fino a 4 mani, Assi divisi una volta con una carta.")
	set(b, "Reference: 6 decks, peek, dealer hits soft 17, double any two, DAS, resplit to 4, Aces split once with one card.",
		"Referencia: 6 mazos, el croupier mira la carta tapada, pide con 17 blando, doble con dos cartas cualesquiera y tras separar, hasta 4 manos, Ases separados una vez con una carta.",
		"Riferimento: 6 mazzi, il banco controlla la carta coperta, chiama carta sul 17 morbido, raddoppio su due carte qualsiasi e dopo la divisione, fino a 4 mani, Assi divisi una volta con una carta.")

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
