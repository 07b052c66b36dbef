package main

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestReproducibleSaysWhyNot: a binary is the reproducible build only when
// its VCS stamp names a clean commit and it was built as documented; each
// departure is named.
func TestReproducibleSaysWhyNot(t *testing.T) {
	t.Parallel()
	good := buildInfo{Commit: "db6904cdf182b4e86ab97b99c5e8d10c1aaa6a15", SHA256: "ab",
		Settings: map[string]string{"-trimpath": "true", "CGO_ENABLED": "0", "GOOS": "linux", "GOARCH": "amd64"}}
	if ok, why := reproducible(good); !ok {
		t.Fatalf("the documented build of a clean commit: %s", why)
	}
	with := func(f func(b *buildInfo)) buildInfo {
		b := good
		b.Settings = map[string]string{}
		for k, v := range good.Settings {
			b.Settings[k] = v
		}
		f(&b)
		return b
	}
	for want, b := range map[string]buildInfo{
		"no VCS stamp":      with(func(b *buildInfo) { b.Commit = "unknown" }),
		"not committed":     with(func(b *buildInfo) { b.Modified = true }),
		"without -trimpath": with(func(b *buildInfo) { delete(b.Settings, "-trimpath") }),
		"with cgo":          with(func(b *buildInfo) { b.Settings["CGO_ENABLED"] = "1" }),
		"-ldflags, -tags":   with(func(b *buildInfo) { b.Settings["-ldflags"] = "-X main.v=1" }),
		"could not be read": with(func(b *buildInfo) { b.SHA256 = "" }),
	} {
		if ok, why := reproducible(b); ok || !strings.Contains(why, want) {
			t.Errorf("%s: reproducible %v, %q", want, ok, why)
		}
	}
}

// TestCertifyManifestNamesTheRebuiltBinary builds sabot by the documented
// reproducible build (reproducibleBuild), makes a kit with it, and checks
// that the manifest names that executable's SHA-256, that a second build
// into another folder gives the same SHA-256 (a laboratory rebuilding
// from the commit gets the binary the kit names), that `sabot version`
// prints it, and that SHA256SUMS covers every file, the manifest included.
func TestCertifyManifestNamesTheRebuiltBinary(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds sabot twice")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	build := func(dir string) string {
		t.Helper()
		exe := filepath.Join(dir, "sabot")
		cmd := exec.Command("go", "build", "-trimpath", "-buildvcs=true", "-o", exe, "./cmd/sabot")
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOFLAGS=")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%v: %v\n%s", cmd.Args, err, out)
		}
		return exe
	}
	sum := func(path string) string {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		h := sha256.Sum256(b)
		return hex.EncodeToString(h[:])
	}
	a := build(t.TempDir())
	kit := t.TempDir()
	cmd := exec.Command(a, "certify", "vegas-s17", "--out", kit, "--rounds", "0", "--shoes", "100", "--nist", "0", "--live-shoes", "0", "--dieharder", "none",
		"--seed", "1", "--scenarios", "../../scenario/testdata/contract")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("certify: %v\n%s", err, out)
	}
	var man struct {
		Commit     string `json:"source_commit"`
		Executable struct {
			SHA256       string            `json:"sha256"`
			Settings     map[string]string `json:"build_settings"`
			Reproducible bool              `json:"reproducible"`
			NotWhy       string            `json:"reproducible_not"`
			Build        string            `json:"build_command"`
		} `json:"executable"`
	}
	readJSON(t, filepath.Join(kit, "manifest.json"), &man)
	if man.Executable.SHA256 != sum(a) {
		t.Errorf("the manifest names the executable %q; the binary that made the kit is %s", man.Executable.SHA256, sum(a))
	}
	if man.Executable.Settings["-trimpath"] != "true" || man.Executable.Settings["CGO_ENABLED"] != "0" || man.Executable.Build != reproducibleBuild {
		t.Errorf("build settings %v, build command %q", man.Executable.Settings, man.Executable.Build)
	}
	if man.Commit != "unknown" && !man.Executable.Reproducible && !strings.Contains(man.Executable.NotWhy, "not committed") {
		t.Errorf("a stamped build of %s is not reproducible: %s", man.Commit, man.Executable.NotWhy)
	}
	if b := build(t.TempDir()); sum(b) != man.Executable.SHA256 {
		t.Errorf("the rebuilt binary's SHA-256 is %s, the manifest's %s", sum(b), man.Executable.SHA256)
	}
	out, err := exec.Command(a, "version").Output()
	if err != nil || !strings.Contains(string(out), "sha256 "+man.Executable.SHA256) {
		t.Errorf("sabot version: %v\n%s", err, out)
	}

	// SHA256SUMS: every file of the kit but itself, the manifest included,
	// each with its hash.
	f, err := os.Open(filepath.Join(kit, "SHA256SUMS"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	listed := map[string]bool{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		h, name, ok := strings.Cut(sc.Text(), "  ")
		if !ok || sum(filepath.Join(kit, name)) != h {
			t.Errorf("SHA256SUMS: %q does not check", sc.Text())
		}
		listed[name] = true
	}
	filepath.Walk(kit, func(p string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() {
			rel, _ := filepath.Rel(kit, p)
			if rel != "SHA256SUMS" && !listed[filepath.ToSlash(rel)] {
				t.Errorf("SHA256SUMS does not cover %s", rel)
			}
		}
		return nil
	})
	if !listed["manifest.json"] {
		t.Error("SHA256SUMS does not cover manifest.json")
	}
	if man, _ := os.ReadFile(filepath.Join(kit, "manifest.json")); bytes.Contains(man, []byte("SHA256SUMS")) {
		t.Error("the manifest lists SHA256SUMS, which covers it: a file cannot hold its own hash")
	}
}
