package sabot_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// trackerRef is a reference to a numbered issue of a tracker that is not in
// the repository (the word, a number after it, with a # or not, or a file
// named by one: TestNoIssueNumbersSeesThem's cases): a reader of the
// repository cannot follow it.
var trackerRef = regexp.MustCompile(`(?i)\bissues?[ _-]?#?[0-9]+|issue[0-9]+`)

// trackerRefFiles are the kinds of file a reader reads: code, pages, styles,
// scripts and docs.
var trackerRefFiles = map[string]bool{".go": true, ".js": true, ".mjs": true, ".css": true, ".md": true,
	".sh": true, ".html": true, ".yaml": true, ".txtar": true, ".txt": true}

// The code, the docs, the styles and the scripts say what a thing is for,
// not the number of the issue that asked for it: a comment, a heading or a
// file name that names an issue by number (of a tracker outside the
// repository) fails, with where it is. Say what it meant instead; a long
// reason is a design note in docs/.
func TestNoIssueNumbers(t *testing.T) {
	found := 0
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "vendor" || d.Name() == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if trackerRef.MatchString(d.Name()) {
			t.Errorf("%s: a file named by an issue number: name it for what it holds", path)
			found++
		}
		if !trackerRefFiles[filepath.Ext(path)] || strings.HasSuffix(path, ".min.js") {
			return nil // a vendored, minified script is not ours to word
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if !strings.Contains(strings.ToLower(string(src)), "issue") {
			return nil
		}
		for _, m := range issueRefs(string(src)) {
			t.Errorf("%s:%d: %q names an issue by number: say what it meant", path, m.line, m.text)
			found++
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if found > 0 {
		t.Logf("%d references to issue numbers", found)
	}
}

type issueRef struct {
	line int
	text string
}

// issueRefs lists the references to an issue number in src, with their
// lines.
func issueRefs(src string) []issueRef {
	var refs []issueRef
	for i, line := range strings.Split(src, "\n") {
		for _, m := range trackerRef.FindAllString(line, -1) {
			refs = append(refs, issueRef{i + 1, m})
		}
	}
	return refs
}

// The check sees the forms the repository had: a number after "issue" or
// "issues", with a # or without, in any case, and in a file's name; and not
// an "issue" that names none.
func TestNoIssueNumbersSeesThem(t *testing.T) {
	for _, s := range []string{"the float's limits (is" + "sue 25)", "(is" + "sues 11 and 40)", "Is" + "sue 17 item 2 asks",
		"since is" + "sue #7", "web/jstest/is" + "sue28.test.mjs", "/* is" + "sue 29: the pit's reports */"} {
		if refs := issueRefs(s); len(refs) == 0 {
			t.Errorf("%q: no reference found", s)
		}
	}
	for _, s := range []string{"an issue the operator raises", "issued 3 chips", "the issues of a shoe", "tissue 4"} {
		if refs := issueRefs(s); len(refs) != 0 {
			t.Errorf("%q: found %v, which names no issue", s, refs)
		}
	}
}
