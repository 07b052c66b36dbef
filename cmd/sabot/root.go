package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/pprof"
	"strings"

	"github.com/spf13/cobra"

	"sabot/internal/profilefile"
	"sabot/rules"
)

// Exit statuses: 0 ok, 1 failure, 2 refused input.
const (
	exitOK      = 0
	exitFailure = 1
	exitRefused = 2
)

// exitError carries an exit status and a one-line message for stderr.
type exitError struct {
	code int
	msg  string
}

func (e *exitError) Error() string { return e.msg }

// refused is an error for input the command refuses: exit status 2.
func refused(format string, a ...any) error {
	return &exitError{code: exitRefused, msg: fmt.Sprintf(format, a...)}
}

// failed is an error for a failure that is not the input's fault: exit status 1.
func failed(format string, a ...any) error {
	return &exitError{code: exitFailure, msg: fmt.Sprintf(format, a...)}
}

// env is what a command reads and writes, injected so tests can use buffers.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
}

// Run runs the sabot command line and returns the exit status.
func Run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	e := &env{stdin: stdin, stdout: stdout, stderr: stderr}
	root := &cobra.Command{
		Use:           "sabot",
		Short:         "sabot: a casino blackjack system on the regulations' own rules",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return refused("%v", err) })
	for _, add := range commands {
		root.AddCommand(add(e))
	}
	root.SetArgs(args)
	err := root.ExecuteContext(ctx)
	if err == nil {
		return exitOK
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.msg != "" {
			fmt.Fprintln(stderr, ee.msg)
		}
		return ee.code
	}
	// Cobra's own errors (unknown command, bad arguments) are refused input.
	fmt.Fprintln(stderr, "sabot:", err)
	return exitRefused
}

// commands lists the subcommands; each file adds its constructor here.
var commands = []func(*env) *cobra.Command{
	newProfilesCmd,
	newEdgeCmd, newStrategyCmd, newEVCmd,
	newScenarioCmd,
	newSimCmd, newCertifyCmd,
	newPlayCmd,
	newLedgerCmd,
	newWalletCmd,
	newWalletSimCmd,
	newServeCmd, newNodesCmd, newBotsCmd, newHostileCmd, newRecallCmd, newReplayCmd, newVerifyCmd, newEventsCmd,
	newReportCmd,
	newVersionCmd,
}

// profileArg is the Args of every command that takes a PROFILE: a command
// given none (or too many) is refused with the argument's name and the
// built-in profiles, rather than cobra's count of arguments. A command whose
// Use shows the profile in brackets ("play [PROFILE]") may go without.
func profileArg(cmd *cobra.Command, args []string) error {
	optional := strings.Contains(cmd.Use, "[PROFILE")
	name := cmd.CommandPath()
	builtins := strings.Join(rules.Names(), ", ")
	switch {
	case len(args) == 0 && !optional:
		return refused("%s needs a PROFILE: a built-in profile (%s; `sabot profiles` describes them) or a profile file, e.g. `%s venice`", name, builtins, name)
	case len(args) > 1:
		return refused("%s takes one PROFILE, not %d arguments (%s): a built-in profile (%s) or a profile file; options go in --option key=value", name, len(args), strings.Join(args, " "), builtins)
	}
	return nil
}

// profileFlags are the flags of every command that takes a profile.
type profileFlags struct {
	options []string
	cmd     *cobra.Command // where notes go: its stderr
}

func (f *profileFlags) add(c *cobra.Command) {
	f.cmd = c
	c.Flags().StringArrayVarP(&f.options, "option", "o", nil, "set a profile option, `key=value` (repeatable; sabot profiles show NAME lists them)")
}

// resolve returns the profile named by arg with the --option overrides. An
// option that followed a change of the decks alone (a cut card scaled with
// the shoe) is said on stderr.
func (f *profileFlags) resolve(arg string) (*rules.Profile, error) {
	p, notes, err := profilefile.ResolveNoted(arg, f.options)
	if err != nil {
		return nil, refused("%v", err)
	}
	if f.cmd != nil {
		for _, n := range notes {
			fmt.Fprintf(f.cmd.ErrOrStderr(), "note: %s\n", n)
		}
	}
	return p, nil
}

// startCPUProfile writes a CPU profile (go tool pprof) of what runs until
// stop to path, for a command's --cpuprofile ("": none; stop does nothing).
func startCPUProfile(command, path string) (stop func(), err error) {
	if path == "" {
		return func() {}, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, refused("%s: --cpuprofile: %v", command, err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, failed("%s: --cpuprofile: %v", command, err)
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}, nil
}
