package main

import (
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"sabot/rules"
)

func newProfilesCmd(e *env) *cobra.Command {
	c := &cobra.Command{
		Use:   "profiles",
		Short: "List the built-in rule profiles",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			w := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
			for _, n := range rules.Names() {
				p := rules.MustLookup(n)
				fmt.Fprintf(w, "%s\t%s\n", n, p.Description)
			}
			return w.Flush()
		},
	}
	var pf profileFlags
	show := &cobra.Command{
		Use:   "show PROFILE",
		Short: "Print a profile (a built-in name or a profile file): every option, its rule IDs, and the readings taken where a seed is ambiguous",
		Args:  profileArg,
		RunE: func(cmd *cobra.Command, args []string) error {
			p, err := pf.resolve(args[0])
			if err != nil {
				return err
			}
			fmt.Fprintf(e.stdout, "profile %s\n%s\n\n", p.Name, p.Description)
			if ds := p.Departures(); len(ds) > 0 {
				fmt.Fprintf(e.stdout, "this table departs from its regulation (%s):\n", p.Regulation)
				for _, d := range ds {
					fmt.Fprintf(e.stdout, "  %s\n", d)
				}
				fmt.Fprintln(e.stdout)
			}
			w := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
			fmt.Fprintln(w, "option\tvalue\trules\tmeaning")
			for _, o := range rules.Options() {
				v, _ := p.Get(o.Key)
				fmt.Fprintf(w, "%s\t%s\t%s\t%s\n", o.Key, v, strings.Join(o.Rules, " "), o.Doc)
			}
			if err := w.Flush(); err != nil {
				return err
			}
			if rs := p.Readings(); len(rs) > 0 {
				fmt.Fprintf(e.stdout, "\nreadings taken where the seed is silent or ambiguous:\n")
				for _, r := range rs {
					opt := ""
					if r.Option != "" {
						opt = " [" + r.Option + "]"
					}
					if r.Value != "" {
						opt = " [" + r.Option + "=" + r.Value + "]"
					}
					cite := r.Cite
					if cite == "" {
						cite = r.Rule
					}
					fmt.Fprintf(e.stdout, "  %s%s: %s\n", cite, opt, r.Text)
				}
			}
			fmt.Fprintf(e.stdout, "\nhash %s\n", p.Hash())
			return nil
		},
	}
	pf.add(show)
	c.AddCommand(show)
	return c
}
