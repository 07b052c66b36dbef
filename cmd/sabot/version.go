package main

import (
	"runtime/debug"
)

// buildInfo is what the binary knows of its own build: the module's version,
// the source commit and whether the tree had changes not committed (from
// the Go toolchain's VCS stamp; "unknown" where the build has none, as
// under `go test` or `go run`).
type buildInfo struct {
	Version  string `json:"version"`
	Commit   string `json:"commit"`
	Time     string `json:"commit_time,omitempty"`
	Modified bool   `json:"modified"`
	Go       string `json:"go"`
}

func readBuildInfo() buildInfo {
	b := buildInfo{Version: "unknown", Commit: "unknown"}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return b
	}
	b.Go = bi.GoVersion
	if v := bi.Main.Version; v != "" {
		b.Version = v
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			b.Commit = s.Value
		case "vcs.time":
			b.Time = s.Value
		case "vcs.modified":
			b.Modified = s.Value == "true"
		}
	}
	return b
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
