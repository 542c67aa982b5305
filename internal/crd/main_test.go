package crd

import (
	"os"
	"testing"
)

// TestMain stops the real API server the end-to-end tests share (see realServer).
func TestMain(m *testing.M) {
	code := m.Run()
	stopServer()
	os.Exit(code)
}
