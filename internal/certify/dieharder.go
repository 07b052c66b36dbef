package certify

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	mrand "math/rand/v2"
	"os/exec"
	"strconv"
	"strings"

	"sabot/shoe"
)

// RawStream is the shoe's generator's raw output: ChaCha8 (math/rand/v2)
// seeded with seed, its 64-bit outputs little-endian, without end. It is
// what every shuffle of a shoe of that seed draws from.
func RawStream(seed shoe.Seed) io.Reader { return &chachaReader{src: mrand.NewChaCha8(seed)} }

type chachaReader struct {
	src interface{ Uint64() uint64 }
	buf [8]byte
	n   int // bytes of buf not yet read
}

func (r *chachaReader) Read(p []byte) (int, error) {
	done := 0
	for done < len(p) {
		if r.n == 0 {
			binary.LittleEndian.PutUint64(r.buf[:], r.src.Uint64())
			r.n = 8
		}
		k := copy(p[done:], r.buf[8-r.n:])
		r.n -= k
		done += k
	}
	return done, nil
}

// DieharderTest is one line of dieharder's report.
type DieharderTest struct {
	Name       string  `json:"name"`
	NTup       int     `json:"ntup"`
	TSamples   int     `json:"tsamples"`
	PSamples   int     `json:"psamples"`
	P          float64 `json:"p"`
	Assessment string  `json:"assessment"` // PASSED, WEAK, FAILED
}

// DieharderRun is a run of dieharder on a generator's raw output.
type DieharderRun struct {
	Command string          `json:"command"` // the command that reruns it
	Version string          `json:"version"`
	Tests   []DieharderTest `json:"tests"`
	Passed  int             `json:"passed"`
	Weak    int             `json:"weak"`
	Failed  int             `json:"failed"`
	Output  string          `json:"-"`
}

// Pass reports whether no test failed (dieharder's WEAK is a p-value in its
// outer 0.5 %, which a good generator shows about once in a hundred tests).
func (d *DieharderRun) Pass() bool { return d.Failed == 0 && len(d.Tests) > 0 }

// ErrNoDieharder is returned when the dieharder program is not installed.
var ErrNoDieharder = errors.New("dieharder is not installed (Debian: apt-get install dieharder)")

// RunDieharder runs dieharder on src's output (its raw input generator, -g
// 200, reading stdin) with args (the tests: e.g. "-a", or "-d 0 -p 10").
func RunDieharder(ctx context.Context, src io.Reader, args []string) (*DieharderRun, error) {
	bin, err := exec.LookPath("dieharder")
	if err != nil {
		return nil, ErrNoDieharder
	}
	full := append([]string{"-g", "200"}, args...)
	cmd := exec.CommandContext(ctx, bin, full...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	go func() {
		io.Copy(stdin, src) // until dieharder closes its input
		stdin.Close()
	}()
	if err := cmd.Wait(); err != nil {
		return nil, fmt.Errorf("dieharder %s: %v: %s", strings.Join(full, " "), err, lastLine(out.String()))
	}
	r := ParseDieharder(out.String())
	r.Output = out.String()
	if len(r.Tests) == 0 {
		return nil, fmt.Errorf("dieharder %s: no test in its report: %s", strings.Join(full, " "), lastLine(out.String()))
	}
	if v, err := exec.CommandContext(ctx, bin, "-h").CombinedOutput(); err == nil || len(v) > 0 {
		for _, l := range strings.Split(string(v), "\n") {
			if strings.Contains(l, "dieharder version") {
				r.Version = strings.TrimSpace(strings.Trim(strings.TrimSpace(l), "#"))
				break
			}
		}
	}
	return r, nil
}

// ParseDieharder reads dieharder's report: a line a test,
// "name|ntup|tsamples|psamples|p-value|assessment".
func ParseDieharder(out string) *DieharderRun {
	r := &DieharderRun{}
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		f := strings.Split(sc.Text(), "|")
		if len(f) != 6 {
			continue
		}
		for i := range f {
			f[i] = strings.TrimSpace(f[i])
		}
		p, err := strconv.ParseFloat(f[4], 64)
		if err != nil {
			continue // the header
		}
		t := DieharderTest{Name: f[0], P: p, Assessment: f[5]}
		t.NTup, _ = strconv.Atoi(f[1])
		t.TSamples, _ = strconv.Atoi(f[2])
		t.PSamples, _ = strconv.Atoi(f[3])
		r.Tests = append(r.Tests, t)
		switch t.Assessment {
		case "PASSED":
			r.Passed++
		case "WEAK":
			r.Weak++
		default:
			r.Failed++
		}
	}
	return r
}

func lastLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		return s[i+1:]
	}
	return s
}

// QuickDieharder is a short subset of dieharder for development and CI:
// tests that take seconds, with 30 p-samples each (fewer make dieharder's
// final Kolmogorov–Smirnov test unreliable: at 10 it calls a good stream's
// count-the-1s FAILED at p = 1.00000000 for one seed in three tried). A laboratory's kit runs
// FullDieharder.
var QuickDieharder = [][]string{
	{"-d", "0", "-p", "30"},                   // Diehard birthdays
	{"-d", "8", "-p", "30"},                   // Diehard count the 1s (stream)
	{"-d", "100", "-p", "30"},                 // STS monobit
	{"-d", "205", "-t", "500000", "-p", "30"}, // byte distribution
}

// FullDieharder is every dieharder test at its default sizes (-a).
var FullDieharder = [][]string{{"-a"}}

// RunDieharderSuite runs each argument list of suite on a fresh stream of
// the shoe generator of seed (every run from the stream's start) and gathers
// the reports. Its Command is one line a run: rerun, the command that
// writes the stream (e.g. "sabot certify rng --seed HEX"), piped into
// dieharder.
func RunDieharderSuite(ctx context.Context, seed shoe.Seed, suite [][]string, raw func(shoe.Seed) io.Reader, rerun string) (*DieharderRun, error) {
	all := &DieharderRun{}
	var cmds []string
	for _, args := range suite {
		r, err := RunDieharder(ctx, raw(seed), args)
		if err != nil {
			return nil, err
		}
		all.Version = r.Version
		all.Tests = append(all.Tests, r.Tests...)
		all.Passed += r.Passed
		all.Weak += r.Weak
		all.Failed += r.Failed
		all.Output += r.Output
		cmds = append(cmds, rerun+" | dieharder -g 200 "+strings.Join(args, " "))
	}
	all.Command = strings.Join(cmds, "\n")
	return all, nil
}
