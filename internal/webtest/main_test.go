package webtest

import (
	"os"
	"testing"
)

// TestMain runs the tests, which share one chromium (Browser), and stops
// that chromium once they are done.
func TestMain(m *testing.M) {
	code := m.Run()
	Close()
	os.Exit(code)
}
