package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/rogpeppe/go-internal/testscript"
)

// The examples of README.md and docs/*.md are tests. Each command line of
// an example (every line of a ```sh block; in any other block a line that
// starts with "sabot ", "go run ./cmd/sabot" or "curl ") must
// appear, written the same way, in one of the scripts of testdata/docs,
// which run it with `sabot` on the PATH and check what it prints; or the
// block is marked in the doc, on the line before it, with
//
//	<!-- not run in CI: the reason -->
//
// Written the same way means after normalising what a test must change:
// the comment at the end of a line, "go run ./cmd/sabot" for "sabot", the
// listen address (localhost:8080, 127.0.0.1:8080, :8080 become $ADDR; the
// reference operator's :9090 becomes $WADDR) and a PostgreSQL URL ($PG).
// A "$ command" followed by its output is a transcript, which
// TestDocsTranscripts runs and compares line for line.

// TestDocsExamples runs the scripts of testdata/docs (testscript, the tool
// of Go's own command tests).
func TestDocsExamples(t *testing.T) {
	t.Parallel()
	for _, tool := range []string{"curl", "openssl"} {
		if _, err := exec.LookPath(tool); err != nil {
			if os.Getenv("CI") != "" {
				t.Fatalf("%s is not installed: CI runs the docs' examples with it (.ci/run installs it)", tool)
			}
			t.Skipf("%s is not installed (apt-get install curl openssl): skipping the docs' examples", tool)
		}
	}
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/docs",
		RequireExplicitExec: true,
		Setup: func(env *testscript.Env) error {
			addr, waddr := freeAddr(t), freeAddr(t)
			env.Setenv("ADDR", addr)
			env.Setenv("URL", "http://"+addr)
			env.Setenv("WADDR", waddr)
			env.Setenv("WURL", "http://"+waddr)
			env.Setenv("SHARED", sharedDir())
			env.Setenv("DOCS", docsDir())
			pg, err := docsPostgres(env)
			if err != nil {
				return err
			}
			env.Setenv("PG", pg)
			return nil
		},
		Condition: func(cond string) (bool, error) {
			switch cond {
			case "postgres":
				return os.Getenv("SABOT_TEST_POSTGRES") != "", nil
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
	})
}

func sharedDir() string { p, _ := filepath.Abs("../../../shared"); return p }
func docsDir() string   { p, _ := filepath.Abs("../../docs"); return p }

// docsPostgres gives a script a schema of its own on the test database
// ($SABOT_TEST_POSTGRES), dropped when the script ends; "" without one
// (scripts that need it say [postgres], and CI sets it: see .ci/run).
func docsPostgres(env *testscript.Env) (string, error) {
	dsn := os.Getenv("SABOT_TEST_POSTGRES")
	if dsn == "" {
		if os.Getenv("CI") != "" {
			return "", fmt.Errorf("SABOT_TEST_POSTGRES is not set: CI runs the docs' PostgreSQL examples")
		}
		return "", nil
	}
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		return "", err
	}
	defer conn.Close(ctx)
	schema := fmt.Sprintf("docs_%d_%d", os.Getpid(), docsSchemaSeq.Add(1))
	if _, err := conn.Exec(ctx, "CREATE SCHEMA "+schema); err != nil {
		return "", err
	}
	env.Defer(func() {
		c, err := pgx.Connect(ctx, dsn)
		if err == nil {
			c.Exec(ctx, "DROP SCHEMA "+schema+" CASCADE")
			c.Close(ctx)
		}
	})
	sep := "?"
	if strings.Contains(dsn, "?") {
		sep = "&"
	}
	return dsn + sep + "search_path=" + schema, nil
}

var docsSchemaSeq atomic.Int64

var (
	docAddr      = regexp.MustCompile(`(localhost|127\.0\.0\.1)?:8080\b`)
	docWalletAdr = regexp.MustCompile(`(localhost|127\.0\.0\.1)?:9090\b`)
	docPostgres  = regexp.MustCompile(`'?postgres://[^ ']*'?`)
	docSpaces    = regexp.MustCompile(`\s+`)
	docRedirect  = regexp.MustCompile(`\s+(\d?>>?|<)\s*[^\s&|]+(\s+2>&1)?`)
	notInCI      = regexp.MustCompile(`^<!-- not run in CI: .{10,} -->$`)
)

// normalizeDocLine writes a command line the way the doc test compares it.
func normalizeDocLine(s string) string {
	s = strings.TrimSpace(s)
	s = strings.TrimPrefix(s, "$ ")
	s = strings.TrimPrefix(s, "exec ")
	s = stripShellComment(s)
	s = strings.TrimSpace(strings.TrimSuffix(s, "&"))
	s = docRedirect.ReplaceAllString(s, "")
	s = strings.ReplaceAll(s, "go run ./cmd/sabot", "sabot")
	s = docAddr.ReplaceAllString(s, "$$ADDR")
	s = docWalletAdr.ReplaceAllString(s, "$$WADDR")
	s = docPostgres.ReplaceAllString(s, "$$PG")
	s = strings.ReplaceAll(s, "http://$ADDR", "$URL")
	s = strings.ReplaceAll(s, "http://$WADDR", "$WURL")
	// The listen address's default is the docs' port: a script's own port
	// stands for it.
	s = strings.ReplaceAll(s, " --addr $ADDR", "")
	s = strings.ReplaceAll(s, " --addr $WADDR", "")
	return strings.TrimSpace(docSpaces.ReplaceAllString(s, " "))
}

// stripShellComment cuts a line at a "#" that starts a word outside quotes.
func stripShellComment(s string) string {
	var quote rune
	for i, r := range s {
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			}
		case r == '\'' || r == '"':
			quote = r
		case r == '#' && (i == 0 || s[i-1] == ' ' || s[i-1] == '\t'):
			return strings.TrimSpace(s[:i])
		}
	}
	return s
}

// docCommand is one command line of a doc's example.
type docCommand struct {
	file string
	line int
	text string // as written, continuation lines joined
	norm string
}

// docCommands reads the command lines of a markdown file's examples; a
// block marked "not run in CI" is left out.
func docCommands(t *testing.T, path string) []docCommand {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var (
		out              []docCommand
		inBlock, skipped bool
		shell            bool
		transcript       bool
		prev             string
		pending          *docCommand
	)
	// A block whose first line is "$ command" is a transcript.
	all, err := io.ReadAll(f)
	if err != nil {
		t.Fatal(err)
	}
	blockLines := append(strings.Split(string(all), "\n"), "")
	sc := bufio.NewScanner(strings.NewReader(string(all)))
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if strings.HasPrefix(line, "```") {
			if !inBlock {
				info := strings.TrimSpace(strings.TrimPrefix(line, "```"))
				shell = info == "sh" || info == "shell" || info == "console"
				skipped = notInCI.MatchString(strings.TrimSpace(prev))
				transcript = len(blockLines[n]) > 0 && strings.HasPrefix(blockLines[n], "$ ")
				if strings.HasPrefix(strings.TrimSpace(prev), "<!-- not run in CI") && !skipped {
					t.Errorf("%s:%d: the mark must say why: <!-- not run in CI: the reason -->", path, n-1)
				}
			}
			inBlock = !inBlock
			prev = line
			continue
		}
		prev = line
		if !inBlock || skipped {
			continue
		}
		if pending != nil {
			pending.text += " " + strings.TrimSuffix(strings.TrimSpace(line), "\\")
			if !strings.HasSuffix(strings.TrimSpace(line), "\\") {
				out = append(out, *pending)
				pending = nil
			}
			continue
		}
		trimmed := strings.TrimSpace(line)
		if transcript {
			// A transcript's output lines are TestDocsTranscripts' to check.
			if strings.HasPrefix(trimmed, "$ ") {
				out = append(out, docCommand{file: path, line: n, text: trimmed})
			}
			continue
		}
		isCmd := strings.HasPrefix(trimmed, "$ ") || strings.HasPrefix(trimmed, "sabot ") ||
			strings.HasPrefix(trimmed, "go run ./cmd/sabot") || strings.HasPrefix(trimmed, "curl ")
		if shell && !isCmd {
			isCmd = trimmed != "" && !strings.HasPrefix(trimmed, "#") && !strings.HasPrefix(trimmed, "{") &&
				!strings.HasPrefix(trimmed, "…") && !strings.HasPrefix(trimmed, "[")
		}
		// go test is CI's own command (.ci/run): the test runner, not an example for it.
		if !isCmd || strings.HasPrefix(strings.TrimPrefix(trimmed, "$ "), "go test") {
			continue
		}
		c := docCommand{file: path, line: n, text: strings.TrimSuffix(trimmed, "\\")}
		if strings.HasSuffix(trimmed, "\\") {
			pending = &c
			continue
		}
		out = append(out, c)
	}
	for i := range out {
		out[i].norm = normalizeDocLine(out[i].text)
	}
	return out
}

// scriptLines is every line the doc scripts run: their exec lines and the
// lines of the shell files they hold, normalised.
func scriptLines(t *testing.T) map[string]bool {
	t.Helper()
	files, err := filepath.Glob("testdata/docs/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no doc scripts: %v", err)
	}
	lines := map[string]bool{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var cont string
		for _, l := range strings.Split(string(b), "\n") {
			l = strings.TrimSpace(l)
			if strings.HasSuffix(l, "\\") {
				cont += strings.TrimSuffix(l, "\\") + " "
				continue
			}
			l, cont = cont+l, ""
			l = strings.TrimPrefix(l, "! ")
			lines[normalizeDocLine(l)] = true
		}
	}
	return lines
}

// TestDocsExamplesCovered: every example command of the docs is run by a
// doc script, or its block says why it cannot run in CI.
func TestDocsExamplesCovered(t *testing.T) {
	t.Parallel()
	docs, _ := filepath.Glob("../../docs/*.md")
	docs = append([]string{"../../README.md"}, docs...)
	have := scriptLines(t)
	var missing []string
	total := 0
	for _, d := range docs {
		for _, c := range docCommands(t, d) {
			total++
			if strings.HasPrefix(c.text, "$ ") {
				continue // TestDocsTranscripts runs it
			}
			if !have[c.norm] {
				missing = append(missing, fmt.Sprintf("%s:%d: %s\n\t(normalised: %s)", strings.TrimPrefix(c.file, "../../"), c.line, c.text, c.norm))
			}
		}
	}
	sort.Strings(missing)
	for _, m := range missing {
		t.Errorf("an example no doc script runs (add it to a script of testdata/docs, or mark its block <!-- not run in CI: why -->):\n%s", m)
	}
	if total < 30 {
		t.Errorf("found only %d example commands in the docs: is the reader broken?", total)
	}
}

// docTranscript is a "$ command" of a doc and the output shown after it.
type docTranscript struct {
	file    string
	line    int
	command string
	output  []string // "…" stands for lines left out
}

func docTranscripts(t *testing.T, path string) []docTranscript {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var (
		out              []docTranscript
		cur              *docTranscript
		inBlock, skipped bool
		prev             string
	)
	flush := func() {
		if cur != nil {
			out = append(out, *cur)
			cur = nil
		}
	}
	for i, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "```") {
			if !inBlock {
				skipped = notInCI.MatchString(strings.TrimSpace(prev))
			} else {
				flush()
			}
			inBlock = !inBlock
			prev = line
			continue
		}
		prev = line
		if !inBlock || skipped {
			continue
		}
		if strings.HasPrefix(line, "$ ") {
			flush()
			cur = &docTranscript{file: path, line: i + 1, command: strings.TrimPrefix(line, "$ ")}
			continue
		}
		if cur != nil {
			cur.output = append(cur.output, strings.TrimRight(line, " \t"))
		}
	}
	return out
}

// TestDocsTranscripts runs each "$ command" of the docs from the
// repository's root, with the input its transcript shows typed after the
// game's prompts ("> h"), and checks that it prints the lines shown, in
// order ("…" leaves lines out; trailing spaces are not compared).
func TestDocsTranscripts(t *testing.T) {
	t.Parallel()
	docs, _ := filepath.Glob("../../docs/*.md")
	docs = append([]string{"../../README.md"}, docs...)
	n := 0
	for _, d := range docs {
		for _, tr := range docTranscripts(t, d) {
			n++
			t.Run(fmt.Sprintf("%s:%d", filepath.Base(tr.file), tr.line), func(t *testing.T) {
				var input strings.Builder
				for _, l := range tr.output {
					if l == ">" || strings.HasPrefix(l, "> ") {
						input.WriteString(strings.TrimPrefix(strings.TrimPrefix(l, ">"), " ") + "\n")
					}
				}
				cmd := exec.Command("sh", "-c", tr.command)
				cmd.Dir = "../.."
				cmd.Stdin = strings.NewReader(input.String())
				got, _ := cmd.CombinedOutput()
				var lines []string
				for _, l := range strings.Split(strings.TrimRight(string(got), "\n"), "\n") {
					lines = append(lines, strings.TrimRight(l, " \t"))
				}
				if err := containsInOrder(lines, tr.output); err != nil {
					t.Errorf("%s:%d: $ %s\n%v\ngot:\n%s", tr.file, tr.line, tr.command, err, got)
				}
			})
		}
	}
	if n < 3 {
		t.Errorf("found %d transcripts in the docs", n)
	}
}

// containsInOrder: each run of want's lines between "…" lines appears in
// got, contiguous, after the one before it.
func containsInOrder(got, want []string) error {
	var chunks [][]string
	cur := []string{}
	for _, w := range want {
		if w == "…" {
			chunks, cur = append(chunks, cur), []string{}
			continue
		}
		cur = append(cur, w)
	}
	chunks = append(chunks, cur)
	from := 0
	for _, c := range chunks {
		if len(c) == 0 {
			continue
		}
		found := -1
		for i := from; i+len(c) <= len(got) && found < 0; i++ {
			if slices.Equal(got[i:i+len(c)], c) {
				found = i
			}
		}
		if found < 0 {
			return fmt.Errorf("these lines are not in the output (after line %d):\n%s", from, strings.Join(c, "\n"))
		}
		from = found + len(c)
	}
	return nil
}

// The reader itself: a normalised line, a marked block, a continuation.
func TestDocCommandsReader(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"go run ./cmd/sabot serve --admin pit     # the pit's password":          "sabot serve --admin pit",
		"$ sabot verify 8-1 --url http://127.0.0.1:8080":                         "sabot verify 8-1 --url $URL",
		"exec sabot recall 8-17 --db sabot.db":                                   "sabot recall 8-17 --db sabot.db",
		"sabot serve --addr :8080 --db x.db":                                     "sabot serve --db x.db",
		"sabot serve --addr $ADDR --db x.db > serve.log 2>&1 &":                  "sabot serve --db x.db",
		"sabot play spain < /dev/null":                                           "sabot play spain",
		"sabot serve --db 'postgres://sabot:PW@db:5432/s?x=y' --seed-key-file k": "sabot serve --db $PG --seed-key-file k",
		`curl -s -d '{"a":"# not a comment"}' localhost:8080/api/x`:              `curl -s -d '{"a":"# not a comment"}' $ADDR/api/x`,
	} {
		if got := normalizeDocLine(in); got != want {
			t.Errorf("normalizeDocLine(%q) = %q, want %q", in, got, want)
		}
	}
	dir := t.TempDir()
	md := filepath.Join(dir, "x.md")
	os.WriteFile(md, []byte("text\n```sh\nsabot a \\\n  --b c   # note\n# comment\n```\n"+
		"<!-- not run in CI: needs a server elsewhere -->\n```sh\nsabot skipped\n```\n```\n$ sabot d\noutput\n```\n"), 0o644)
	got := docCommands(t, md)
	if len(got) != 2 || got[0].norm != "sabot a --b c" || got[0].line != 3 || got[1].norm != "sabot d" {
		t.Errorf("docCommands = %+v", got)
	}
}
