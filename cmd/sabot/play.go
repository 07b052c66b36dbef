package main

import (
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"sabot/money"
	"sabot/play"
	"sabot/shoe"
)

func newPlayCmd(e *env) *cobra.Command {
	var (
		pf       profileFlags
		boxes    int
		boxList  string
		bet      string
		bankroll string
		seed     string
		rounds   int
		lang     string
		suits    string
	)
	c := &cobra.Command{
		Use:   "play [PROFILE]",
		Short: "Play blackjack against the dealer in the terminal",
		Long: `Play blackjack against the dealer, one person alone at a table of any profile
(default ` + play.DefaultProfile + `; a built-in name or a profile file) with --option overrides.
The shoe runs from round to round with its cut card, burns and reshuffles; the
menu offers what the rules allow, and anything else is refused with its rule ID.

Money prints in units with two decimals, and amounts are typed as the table
shows them: --bet 25 is 25.00, --bet 2.50 is 2.50 (a profile's options, such
as min_bet, stay in minor units). A built-in profile's table sits at a
minimum of 5.00 unless --option min_bet sets one. In venice a lone customer
must play at least two boxes (VE-20), so that is the default there.

The game speaks English, Spanish or Italian (--lang en|es|it; by default the
language of the locale, $LC_ALL, $LC_MESSAGES or $LANG, else English), in
the regulations' own words; the commands typed are the same in every
language.

Input is read line by line, so a session can be piped in; the end of the input
ends the session with its summary. Without --seed the shoe is seeded from the
operating system's random source, and the summary prints the seed that plays
the session again.`,
		Example: `  sabot play
  sabot play spain --box 3 --bet 25
  sabot play argentina --boxes 2 --bankroll 500 --seed 7
  sabot play argentina --lang es
  printf '\nh\ns\nquit\n' | sabot play vegas-s17 --seed 42`,
		Args: profileArg,
		RunE: func(cmd *cobra.Command, args []string) error {
			name := play.DefaultProfile
			if len(args) == 1 {
				name = args[0]
			}
			p, err := pf.resolve(name)
			if err != nil {
				return err
			}
			cfg := play.Config{Profile: p, Rounds: rounds, Echo: !isTerminal(e.stdin), Lang: play.LangFromEnv(os.Getenv)}
			switch suits {
			case "auto":
				cfg.SuitSymbols = isTerminalWriter(e.stdout) && utf8Locale(os.Getenv)
			case "symbols":
				cfg.SuitSymbols = true
			case "letters":
			default:
				return refused("play: --suits %q: want auto, symbols or letters", suits)
			}
			if cmd.Flags().Changed("lang") {
				if cfg.Lang, err = play.ParseLang(lang); err != nil {
					return refused("play: --lang %v", err)
				}
			}
			switch {
			case cmd.Flags().Changed("boxes") && cmd.Flags().Changed("box"):
				return refused("play: give --boxes N or --box 1,3, not both")
			case cmd.Flags().Changed("boxes"):
				if boxes < 1 {
					return refused("play: --boxes %d: want 1 or more", boxes)
				}
				for i := 1; i <= boxes; i++ {
					cfg.Boxes = append(cfg.Boxes, i)
				}
			case cmd.Flags().Changed("box"):
				if cfg.Boxes, err = play.ParseBoxes(boxList); err != nil {
					return refused("play: --box: %v", err)
				}
			}
			if bet != "" {
				if cfg.Bet, err = money.ParseUnits(bet); err != nil {
					return refused("play: --bet: %v", err)
				}
			}
			if bankroll != "" {
				if cfg.Bankroll, err = money.ParseUnits(bankroll); err != nil {
					return refused("play: --bankroll: %v", err)
				}
			}
			if seed != "" {
				if cfg.Seed, err = play.ParseSeed(seed); err != nil {
					return refused("play: --seed: %v", err)
				}
				cfg.SeedText = strings.TrimSpace(seed)
			} else {
				cfg.Seed = shoe.RandomSeed()
				cfg.SeedText = play.SeedHex(cfg.Seed)
			}
			if rounds < 0 {
				return refused("play: --rounds %d: want 0 (no limit) or more", rounds)
			}
			s, err := play.New(cfg)
			if err != nil {
				hint := ""
				if p.LoneCustomerBoxes > 1 && strings.Contains(err.Error(), "VE-20") {
					hint = "; play --boxes " + strconv.Itoa(p.LoneCustomerBoxes)
				}
				return refused("play: %v%s", err, hint)
			}
			if _, err := s.Run(e.stdin, e.stdout); err != nil {
				return failed("play: %v", err)
			}
			return nil
		},
	}
	pf.add(c)
	f := c.Flags()
	f.IntVar(&boxes, "boxes", 0, "play boxes 1 to N (default: 1, or the lone customer's minimum, VE-20)")
	f.StringVar(&boxList, "box", "", "play these boxes, e.g. 1,3")
	f.StringVar(&bet, "bet", "", "stake on each box: minor units (1000) or units (10.00); default 10.00 within the table limits")
	f.StringVar(&bankroll, "bankroll", "", "money at the start: minor units or units; default 1000.00")
	f.StringVar(&seed, "seed", "", "seed the shoe: a number, or the 64 hex digits a summary prints (default: random)")
	f.IntVar(&rounds, "rounds", 0, "end the session after N rounds (0: no limit)")
	f.StringVar(&suits, "suits", "auto", "the cards' suits: symbols (A♠), letters (AS), or auto: symbols on a terminal whose locale is UTF-8")
	f.StringVar(&lang, "lang", "", "the game's language: en, es or it (default: the locale's, $LC_ALL, $LC_MESSAGES or $LANG; else en)")
	return c
}

// isTerminalWriter reports whether w is a terminal.
func isTerminalWriter(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// utf8Locale reports whether the locale ($LC_ALL, $LC_CTYPE or $LANG, the
// first set) is UTF-8, so that the terminal shows the suits' symbols.
func utf8Locale(getenv func(string) string) bool {
	for _, k := range []string{"LC_ALL", "LC_CTYPE", "LANG"} {
		if v := getenv(k); v != "" {
			v = strings.ToUpper(v)
			return strings.Contains(v, "UTF-8") || strings.Contains(v, "UTF8")
		}
	}
	return false
}

// isTerminal reports whether r is a terminal, which echoes what is typed;
// input from a pipe or a file is echoed by the game instead.
func isTerminal(r io.Reader) bool {
	f, ok := r.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
