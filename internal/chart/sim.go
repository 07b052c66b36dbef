// Package chart draws sabot's charts with gonum.org/v1/plot. The file's
// extension chooses the format (.svg, .png, .pdf); `sim --chart` writes
// each in SVG and PNG (SimFormats).
package chart

import (
	"fmt"
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"

	"sabot/sim"
)

// SimFormats are the formats `sim --chart` writes each chart in.
var SimFormats = []string{"svg", "png"}

// SimEVByCount draws the EV per initial bet by the count at the bet, with
// ±2 SE bars, and the frequency of each count.
func SimEVByCount(path string, rows []sim.CountRow) error {
	p := plot.New()
	p.Title.Text = "EV by count at the bet"
	p.X.Label.Text = "count (floor; the ends gather the tails)"
	p.Y.Label.Text = "EV per initial bet, % (bars: ±2 standard errors)"
	pts := make(plotter.XYs, 0, len(rows))
	errs := make(plotter.YErrors, 0, len(rows))
	for _, r := range rows {
		if r.Rounds < 100 {
			continue
		}
		pts = append(pts, plotter.XY{X: float64(r.Count), Y: 100 * r.EV})
		errs = append(errs, struct{ Low, High float64 }{200 * r.SE, 200 * r.SE})
	}
	if len(pts) == 0 {
		return fmt.Errorf("no count with enough rounds to draw")
	}
	sc, err := plotter.NewScatter(pts)
	if err != nil {
		return err
	}
	bars, err := plotter.NewYErrorBars(struct {
		plotter.XYer
		plotter.YErrorer
	}{pts, errs})
	if err != nil {
		return err
	}
	p.Add(plotter.NewGrid(), sc, bars, plotter.NewFunction(func(float64) float64 { return 0 }))
	return p.Save(6*vg.Inch, 4*vg.Inch, path)
}

// SimBankroll draws bankroll paths: the net in initial bets against the
// rounds played (roundsPerPoint rounds between two points of a path), one
// line per session of the run; the paths are named in the title, not in a
// legend over the lines.
func SimBankroll(path string, paths [][]float64, roundsPerPoint float64) error {
	p := plot.New()
	p.Title.Text = fmt.Sprintf("Bankroll: %d sessions of the run, each a line", len(paths))
	if len(paths) == 1 {
		p.Title.Text = "Bankroll: the run's one session"
	}
	p.X.Label.Text = "rounds played"
	p.Y.Label.Text = "net, in initial bets (1 = one base stake)"
	for i, ys := range paths {
		pts := make(plotter.XYs, len(ys))
		for j, y := range ys {
			pts[j] = plotter.XY{X: float64(j) * roundsPerPoint, Y: y}
		}
		l, err := plotter.NewLine(pts)
		if err != nil {
			return err
		}
		l.Color = plotutil.Color(i)
		p.Add(l)
	}
	p.Add(plotter.NewGrid(), plotter.NewFunction(func(float64) float64 { return 0 }))
	return p.Save(7*vg.Inch, 4*vg.Inch, path)
}

// SimDistribution draws the distribution of the net per round, in units.
func SimDistribution(path string, values, freq []float64) error {
	p := plot.New()
	p.Title.Text = "Distribution of results per round"
	p.X.Label.Text = "net of a round, in initial bets"
	p.Y.Label.Text = "share of rounds, %"
	pts := make(plotter.XYs, len(values))
	for i := range values {
		pts[i] = plotter.XY{X: values[i], Y: 100 * freq[i]}
	}
	h, err := plotter.NewHistogram(pts, max(len(values), 1))
	if err != nil {
		return err
	}
	h.FillColor = color.RGBA{R: 70, G: 110, B: 170, A: 255}
	p.Add(h)
	return p.Save(6*vg.Inch, 4*vg.Inch, path)
}
