package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestLimitFlags(t *testing.T) {
	dir := t.TempDir()
	crd := filepath.Join(dir, "crd.yaml")
	data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "operator-sdk", "memcached-operator", "config", "crd", "bases", "cache.example.com_memcacheds.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(crd, data, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name     string
		args     []string
		wantCode int
		wantErr  string
	}{
		{name: "defaults read the file", args: []string{"validate", "crds", crd, crd}, wantCode: 0},
		{name: "a small limit refuses it and names the flag", args: []string{"--max-file-size", "1Ki", "validate", "crds", crd, crd}, wantCode: 2, wantErr: "exceeds the limit of 1024 (raise it with --max-file-size)"},
		{name: "raised again in the next run", args: []string{"--max-file-size", "10Mi", "validate", "crds", crd, crd}, wantCode: 0},
		{name: "bad size", args: []string{"--max-file-size", "lots", "validate", "crds", crd, crd}, wantCode: 2, wantErr: `--max-file-size "lots": want a positive size`},
		{name: "bad count", args: []string{"--max-files", "0", "version"}, wantCode: 2, wantErr: "must be positive"},
		{name: "bad layer count", args: []string{"--max-layers", "0", "version"}, wantCode: 2, wantErr: "--max-layers must be positive"},
		{name: "total bytes per command", args: []string{"--max-total-size", "8Ki", "validate", "crds", crd, crd}, wantCode: 2, wantErr: "total size read exceeds the limit of 8192 (raise it with --max-total-size)"},
		{name: "total reset for the next command", args: []string{"validate", "crds", crd, crd}, wantCode: 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, stderr := runOpack(t, "", tc.args...)
			if code != tc.wantCode || !strings.Contains(stderr, tc.wantErr) {
				t.Errorf("opack %s: exit %d, want %d; stderr:\n%s\nwant it to contain %q", strings.Join(tc.args, " "), code, tc.wantCode, stderr, tc.wantErr)
			}
		})
	}
	// Leave the process-wide limits at their defaults for the other tests.
	runOpack(t, "", "version")
}
