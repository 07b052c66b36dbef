package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"sabot/analysis"
	"sabot/card"
	"sabot/rules"
)

func newEVCmd(e *env) *cobra.Command {
	var (
		pf                profileFlags
		up, hand, removed string
		splitHands        int
		splitPlay         string
		asJSON, pairs     bool
		batch             string
	)
	c := &cobra.Command{
		Use:   "ev PROFILE (--up CARD --hand CARDS | --pairs)",
		Short: "The hand calculator: the exact value of each action open to a hand against an up card",
		Long: "ev values every decision the profile's rules open to a hand against the dealer's up card, exactly,\n" +
			"from the full shoe less the up card, the hand and --removed: stand, hit, double, split, surrender,\n" +
			"even money, and insurance as a side bet, each per initial unit with composition-dependent play after\n" +
			"it (split hands: Farmer's CDP1 by default; --split-play cdz or cdp his CDZ- or CDP, exact Nairn's exact\n" +
			"splitting). Under a peek the values are given no dealer blackjack. Cards are ranks (A 2-9 T J Q K,\n" +
			"or 10), with or without a suit, separated by commas or spaces. --pairs values splitting every pair\n" +
			"against every up card instead.\n" +
			"See docs/analysis.md.",
		Args: profileArg,
		RunE: func(cmd *cobra.Command, args []string) error {
			p, err := pf.resolve(args[0])
			if err != nil {
				return err
			}
			sp, err := analysis.ParseSplitPlay(splitPlay)
			if err != nil {
				return refused("--split-play: %v", err)
			}
			if batch != "" {
				if up != "" || hand != "" || pairs {
					return refused("--batch reads its hands from %s: it takes no --up, --hand or --pairs", batch)
				}
				return evBatch(cmd, e, p, batch, removed, splitHands, splitPlay)
			}
			if pairs {
				if up != "" || hand != "" {
					return refused("--pairs values every pair against every up card: it takes no --up or --hand")
				}
				rem, err := analysis.ParseRanks(removed)
				if err != nil {
					return refused("--removed: %v", err)
				}
				if err := writePairs(e.stdout, p, rem, splitHands, sp, asJSON); err != nil {
					return err
				}
				for _, n := range publishedNotes(p, nil, splitHands, sp) {
					fmt.Fprintln(e.stderr, "note: "+n)
				}
				return nil
			}
			if up == "" || hand == "" {
				return refused("ev needs --up CARD and --hand CARDS, e.g. `sabot ev %s --up T --hand 8,8`", args[0])
			}
			u, err := analysis.ParseRanks(up)
			if err != nil {
				return refused("--up: %v", err)
			}
			if len(u) != 1 {
				return refused("--up takes one card, not %d", len(u))
			}
			h, err := analysis.ParseRanks(hand)
			if err != nil {
				return refused("--hand: %v", err)
			}
			rem, err := analysis.ParseRanks(removed)
			if err != nil {
				return refused("--removed: %v", err)
			}
			v, err := analysis.HandValues(p, u[0], h, analysis.EVOptions{Removed: rem, SplitHands: splitHands, SplitPlay: sp})
			if err != nil {
				if errors.Is(err, rules.ErrInvalid) || errors.Is(err, analysis.ErrHand) {
					return refused("%v", err)
				}
				return failed("ev: %v", err)
			}
			notes := publishedNotes(p, h, splitHands, sp)
			if asJSON {
				enc := json.NewEncoder(e.stdout)
				enc.SetIndent("", "  ")
				for _, n := range notes {
					fmt.Fprintln(e.stderr, "note: "+n)
				}
				return enc.Encode(v)
			}
			if err := writeEVText(e.stdout, p, u[0], h, rem, sp, v); err != nil {
				return err
			}
			for _, n := range notes {
				fmt.Fprintln(e.stdout, "note: "+n)
			}
			return nil
		},
	}
	pf.add(c)
	c.Flags().StringVar(&up, "up", "", "the dealer's up card")
	c.Flags().StringVar(&hand, "hand", "", "the player's cards (two or more)")
	c.Flags().StringVar(&removed, "removed", "", "cards out of the shoe besides the up card and the hand")
	c.Flags().IntVar(&splitHands, "split-hands", 0, "the most hands a split may make (2: one split; 0: the profile's max_hands)")
	c.Flags().StringVar(&splitPlay, "split-play", "cdp1", "the post-split strategy: cdp1 (Farmer's CDP1: the first split hand's best play), cdz (CDZ-: the unsplit hand's play), cdp (CDP: the best play for each number of pair cards removed) or exact (Nairn's: his basic strategy)")
	c.Flags().BoolVar(&asJSON, "json", false, "print one JSON object")
	c.Flags().StringVar(&batch, "batch", "", "value many hands: read one a line from FILE (- for stdin), as JSON {\"up\":\"T\",\"hand\":\"8,8\",\"removed\":\"\",\"split_hands\":0,\"split_play\":\"cdp1\"} or as \"UP HAND [REMOVED]\" (cards of a field by commas); write one JSON line each, the input echoed")
	c.Flags().BoolVar(&pairs, "pairs", false, "instead of one hand, the value of splitting every pair against every up card (a table like Nairn's)")
	return c
}

// writePairs prints the value of splitting each pair against each up card.
func writePairs(w io.Writer, p *rules.Profile, removed []card.Card, splitHands int, sp analysis.SplitPlay, asJSON bool) error {
	ups := []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 0}
	type row struct {
		Pair  string     `json:"pair"`
		Split []*float64 `json:"split"`
	}
	var out struct {
		Ups  []string `json:"ups"`
		Rows []row    `json:"rows"`
	}
	for _, u := range ups {
		out.Ups = append(out.Ups, analysis.UpName(u))
	}
	for k := 0; k < 10; k++ {
		pc := analysis.KindCard(k)
		r := row{Pair: analysis.UpName(k) + "," + analysis.UpName(k)}
		for _, u := range ups {
			v, err := analysis.HandValues(p, analysis.KindCard(u), []card.Card{pc, pc}, analysis.EVOptions{Removed: removed, SplitHands: splitHands, SplitPlay: sp})
			switch {
			case errors.Is(err, analysis.ErrHand):
				r.Split = append(r.Split, nil) // the shoe cannot hold these cards
			case err != nil:
				return refused("%v", err)
			default:
				r.Split = append(r.Split, v.Split)
			}
		}
		out.Rows = append(out.Rows, r)
	}
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	}
	var b strings.Builder
	hands := splitHands
	if hands == 0 {
		hands = p.MaxHands
	}
	fmt.Fprintf(&b, "profile %s, %d deck(s): the value of splitting each pair (to %d hands, split hands %s), per initial unit\n", p.Name, p.Decks, hands, sp)
	tw := tabwriter.NewWriter(&b, 0, 4, 1, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "pair\t%s\t\n", strings.Join(out.Ups, "\t"))
	for _, r := range out.Rows {
		fmt.Fprintf(tw, "%s", r.Pair)
		for _, x := range r.Split {
			if x == nil {
				fmt.Fprintf(tw, "\t-")
			} else {
				fmt.Fprintf(tw, "\t%+.6f", *x)
			}
		}
		fmt.Fprintf(tw, "\t\n")
	}
	tw.Flush()
	_, err := io.WriteString(w, b.String())
	return err
}

func writeEVText(w io.Writer, p *rules.Profile, up card.Card, hand, removed []card.Card, sp analysis.SplitPlay, v *analysis.Values) error {
	var b strings.Builder
	fmt.Fprintf(&b, "profile %s, %d deck(s): hand %s against %s", p.Name, p.Decks, ranks(hand), ranks([]card.Card{up}))
	if len(removed) > 0 {
		fmt.Fprintf(&b, ", %s removed", ranks(removed))
	}
	fmt.Fprintf(&b, "; %d cards left\n", v.Cards)
	if v.Peeked {
		fmt.Fprintf(&b, "the dealer has peeked: values given no dealer blackjack (it was %.4f)\n", v.PDealerBlackjack)
	} else if v.PDealerBlackjack > 0 {
		fmt.Fprintf(&b, "dealer blackjack %.4f, included in the values\n", v.PDealerBlackjack)
	}
	split := map[analysis.SplitPlay]string{
		analysis.SplitCDP1:  "CDP1",
		analysis.SplitCDZ:   "CDZ-",
		analysis.SplitCDP:   "CDP",
		analysis.SplitBasic: "Nairn's basic strategy",
	}[sp]
	fmt.Fprintf(&b, "expected net per initial unit (composition-dependent play after; split hands %s):\n", split)
	tw := tabwriter.NewWriter(&b, 0, 4, 2, ' ', 0)
	for _, a := range v.Actions {
		fmt.Fprintf(tw, "  %s\t%s\t%+.9f\n", actionName(a.Code), a.Code, a.EV)
	}
	if v.EvenMoney != nil {
		fmt.Fprintf(tw, "  even money\t\t%+.9f\n", *v.EvenMoney)
	}
	tw.Flush()
	fmt.Fprintf(&b, "best: %s\n", strings.ReplaceAll(v.Best, "_", " "))
	if v.Insurance != nil {
		adv := "not worth taking"
		if *v.Insurance > 0 {
			adv = "worth taking"
		}
		fmt.Fprintf(&b, "insurance (half a unit at 2:1): %+.9f, %s\n", *v.Insurance, adv)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func actionName(code string) string {
	name := map[byte]string{'S': "stand", 'H': "hit", 'D': "double", 'P': "split", 'R': "surrender"}[code[0]]
	if _, d, ok := strings.Cut(code, "@"); ok {
		name += ", Ace declared " + d
	}
	return name
}

func ranks(cs []card.Card) string {
	s := make([]string, len(cs))
	for i, c := range cs {
		s[i] = c.Rank().String()
	}
	return strings.Join(s, ",")
}
