package sabot_test

import (
	"os"
	"strings"
	"testing"
)

// readmeTestCommand is the test command of the README's first block: the
// line that starts with "go test", without its comment.
func readmeTestCommand(readme string) string {
	for _, line := range strings.Split(readme, "\n") {
		if strings.HasPrefix(line, "go test") {
			cmd, _, _ := strings.Cut(line, "#")
			return strings.TrimSpace(cmd)
		}
	}
	return ""
}

// CI runs the README's test command as written, flags and all, so that
// what passes in CI is what a contributor who pastes it runs: a flag CI
// needs (a longer -timeout on two busy cores) is in the README too, and
// the README's command is no shorter than CI's.
func TestCIRunsTheReadmeTestCommand(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	ci, err := os.ReadFile(".ci/run")
	if err != nil {
		t.Fatal(err)
	}
	want := readmeTestCommand(string(readme))
	if want == "" {
		t.Fatal("README.md: no line starts with go test")
	}
	var got []string
	for _, line := range strings.Split(string(ci), "\n") {
		line = strings.TrimSpace(line)
		if strings.Contains(line, "go test") && !strings.HasPrefix(line, "#") && !strings.HasPrefix(line, "echo") {
			got = append(got, line)
		}
	}
	if len(got) != 1 || got[0] != want {
		t.Errorf(".ci/run runs %q; the README says %q: CI runs the README's command as written", got, want)
	}
	if strings.Contains(string(ci), "GOFLAGS=") {
		t.Error(".ci/run sets GOFLAGS: a flag its tests need belongs in the README's command")
	}
}
