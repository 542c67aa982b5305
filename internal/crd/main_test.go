package crd

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/opack/opack/internal/crdserver"
)

// TestMain stops the real API server the end-to-end tests share (see realServer).
func TestMain(m *testing.M) {
	code := m.Run()
	stopServer()
	os.Exit(code)
}

var (
	serverOnce sync.Once
	server     *crdserver.Server
	serverErr  error
	serverSkip string
)

// realServer starts one etcd and apiextensions-apiserver for the whole test binary (TestMain
// stops it). It skips when the binaries cannot be had, unless CI is set:
// in CI the real-server tests must run.
func realServer(t *testing.T) *crdserver.Server {
	t.Helper()
	if testing.Short() {
		t.Skip("real API server test: builds and runs apiextensions-apiserver and etcd; run without -short")
	}
	serverOnce.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
		defer cancel()
		etcd, err := crdserver.Etcd()
		if err != nil {
			serverSkip = err.Error()
			return
		}
		root, err := filepath.Abs("../..")
		if err != nil {
			serverErr = err
			return
		}
		bin, err := crdserver.Build(ctx, root)
		if err != nil {
			serverSkip = err.Error()
			return
		}
		dir, err := os.MkdirTemp("", "crdserver-e2e-")
		if err != nil {
			serverErr = err
			return
		}
		server, serverErr = crdserver.Start(ctx, etcd, bin, dir)
		if serverErr != nil {
			os.RemoveAll(dir)
			return
		}
		stopServer = func() { server.Close(); os.RemoveAll(dir) }
	})
	switch {
	case serverSkip != "" && os.Getenv("CI") != "":
		t.Fatalf("CI is set, so the real API server test must run: %s", serverSkip)
	case serverSkip != "":
		t.Skipf("SKIPPED: no real API server: %s", serverSkip)
	case serverErr != nil:
		t.Fatalf("starting the real API server: %v", serverErr)
	}
	return server
}

// stopServer stops the shared server; TestMain calls it after the tests.
var stopServer = func() {}
