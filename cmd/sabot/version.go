package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime/debug"

	"github.com/spf13/cobra"
)

// reproducibleBuild is the build a laboratory repeats from the source
// commit to get the same executable, byte for byte (docs/certification.md,
// "Software identification"): the same Go release, no cgo, no paths of the
// machine it was built on, the commit stamped from git.
const reproducibleBuild = "CGO_ENABLED=0 go build -trimpath -buildvcs=true -o sabot ./cmd/sabot"

// buildInfo is what the binary knows of its own build: the module's version,
// the source commit and whether the tree had changes not committed (from
// the Go toolchain's VCS stamp; "unknown" where the build has none, as
// under `go test` or `go run`, or built outside a git clone), the build's
// settings, and the executable's own SHA-256.
type buildInfo struct {
	Version  string            `json:"version"`
	Commit   string            `json:"commit"`
	Time     string            `json:"commit_time,omitempty"`
	Modified bool              `json:"modified"`
	Go       string            `json:"go"`
	Settings map[string]string `json:"build_settings,omitempty"` // -trimpath, CGO_ENABLED, GOOS, GOARCH, GOAMD64, -ldflags…
	// Path is where the running executable is, SHA256 and Bytes its content
	// (empty where it cannot be read).
	Path   string `json:"executable,omitempty"`
	SHA256 string `json:"executable_sha256,omitempty"`
	Bytes  int64  `json:"executable_bytes,omitempty"`
	// Reproducible: built by reproducibleBuild from a clean commit, so a
	// laboratory can rebuild the same SHA-256.
	Reproducible bool   `json:"reproducible"`
	Why          string `json:"reproducible_not,omitempty"` // what keeps it from being reproducible
	Build        string `json:"build_command"`
}

func readBuildInfo() buildInfo {
	b := buildInfo{Version: "unknown", Commit: "unknown", Build: reproducibleBuild}
	if bi, ok := debug.ReadBuildInfo(); ok {
		b.Go = bi.GoVersion
		if v := bi.Main.Version; v != "" {
			b.Version = v
		}
		b.Settings = map[string]string{}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				b.Commit = s.Value
			case "vcs.time":
				b.Time = s.Value
			case "vcs.modified":
				b.Modified = s.Value == "true"
			case "vcs":
			default:
				b.Settings[s.Key] = s.Value
			}
		}
	}
	if exe, err := os.Executable(); err == nil {
		if f, err := os.Open(exe); err == nil {
			h := sha256.New()
			if n, err := io.Copy(h, f); err == nil {
				b.Path, b.SHA256, b.Bytes = exe, hex.EncodeToString(h.Sum(nil)), n
			}
			f.Close()
		}
	}
	b.Reproducible, b.Why = reproducible(b)
	return b
}

// reproducible reports whether a build is the documented reproducible
// build of a clean commit, and if not, why not.
func reproducible(b buildInfo) (bool, string) {
	switch {
	case b.Commit == "unknown":
		return false, "the binary carries no VCS stamp (built outside a git clone, with -buildvcs=false, or by go test/go run): the source it was built from is not known"
	case b.Modified:
		return false, "built from a tree with changes not committed (vcs.modified=true): no commit rebuilds it"
	case b.Settings["-trimpath"] != "true":
		return false, "built without -trimpath: the binary holds the paths of the machine it was built on"
	case b.Settings["CGO_ENABLED"] != "0":
		return false, "built with cgo: the binary depends on the C toolchain of the machine it was built on"
	case b.Settings["-ldflags"] != "" || b.Settings["-tags"] != "" || b.Settings["-gcflags"] != "":
		return false, "built with -ldflags, -tags or -gcflags the documented build does not give"
	case b.SHA256 == "":
		return false, "the executable could not be read to hash it"
	}
	return true, ""
}

// version is the binary's version and commit in one string.
func version() string {
	b := readBuildInfo()
	s := b.Version + " " + b.Commit
	if b.Modified {
		s += " (modified)"
	}
	return s
}

// newVersionCmd is `sabot version`: the binary's build, its source commit
// and its own SHA-256, to check an installed binary against a kit.
func newVersionCmd(e *env) *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:   "version",
		Short: "Print the binary's version, source commit, build settings and SHA-256 (the certification kit's manifest names the same)",
		Args:  cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			b := readBuildInfo()
			if asJSON {
				out, _ := json.MarshalIndent(b, "", "  ")
				fmt.Fprintf(e.stdout, "%s\n", out)
				return nil
			}
			w := e.stdout
			fmt.Fprintf(w, "sabot %s\n", b.Version)
			mod := ""
			if b.Modified {
				mod = " (modified)"
			}
			fmt.Fprintf(w, "commit %s%s %s\n", b.Commit, mod, b.Time)
			fmt.Fprintf(w, "%s %s/%s\n", b.Go, b.Settings["GOOS"], b.Settings["GOARCH"])
			fmt.Fprintf(w, "sha256 %s  %s\n", b.SHA256, b.Path)
			if b.Reproducible {
				fmt.Fprintf(w, "reproducible: %s at commit %s rebuilds it\n", b.Build, b.Commit)
			} else {
				fmt.Fprintf(w, "not reproducible: %s\n", b.Why)
			}
			return nil
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print one JSON object")
	return c
}
