package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestInitAndEmitCommands(t *testing.T) {
	copySample(t, "memcached-operator")
	initArgs := []string{"init", "--version", "0.0.1", "--bundle-image", "quay.io/example/memcached-operator-bundle", "--catalog-image", "quay.io/example/memcached-operator-catalog:latest"}
	steps := []struct {
		args     []string
		code     int
		stdout   string // substring; "" checks nothing
		stderr   string
		setup    func(t *testing.T)
		teardown func(t *testing.T)
	}{
		{args: initArgs, code: 0, stdout: "wrote opack.yaml\n"},
		{args: initArgs, code: exitUsage, stderr: "already exists (pass --force to overwrite it)"},
		{args: []string{"init", "--olm", "v3"}, code: exitUsage, stderr: `unknown OLM target "v3"`},
		{args: []string{"init", "--version", "1.0", "--force"}, code: exitUsage, stderr: `--version: version "1.0" is not a semantic version`},
		{args: []string{"emit"}, code: 0, stdout: "deploy/olmv0/catalogsource.yaml\n", stderr: "warning: no bundle in bundle: the OLM v1 installability check was skipped"},
		{args: []string{"emit", "--olm", "v0"}, code: 0, stdout: "deploy/olmv0/subscription.yaml\n"},
		{args: []string{"emit", "--olm", "v9"}, code: exitUsage, stderr: `unknown OLM target "v9"`},
		{args: []string{"emit", "-f", "missing.yaml"}, code: exitUsage, stderr: "missing.yaml: not found; run opack init"},
		{args: []string{"emit"}, code: exitUsage, stderr: `opack.yaml:5: unknown field "pakage" in the top level`,
			setup: func(t *testing.T) {
				data, _ := os.ReadFile("opack.yaml")
				if err := os.WriteFile("opack.yaml", []byte(strings.Replace(string(data), "package:", "pakage:", 1)), 0o644); err != nil {
					t.Fatal(err)
				}
			}},
	}
	for _, s := range steps {
		if s.setup != nil {
			s.setup(t)
		}
		code, stdout, stderr := runOpack(t, "", s.args...)
		if code != s.code || !strings.Contains(stdout, s.stdout) || !strings.Contains(stderr, s.stderr) {
			t.Errorf("opack %s: exit %d, stdout %q, stderr %q; want exit %d, stdout ~%q, stderr ~%q",
				strings.Join(s.args, " "), code, stdout, stderr, s.code, s.stdout, s.stderr)
		}
	}
}

// TestInitErrorLines: the notes of a stopped init, and opack.yaml's problems, are a line each on
// stderr, each escaped as one line: a Makefile's carriage return cannot start a line of its own.
func TestInitErrorLines(t *testing.T) {
	dir := t.TempDir()
	mk := "VERSION ?= 1.0\r::error::injected\nIMG_BASE ?= memcached-operator\n" +
		"BUNDLE_IMG ?= $(IMG_BASE)-bundle:v$(VERSION)\nCATALOG_IMG ?= $(IMG_BASE)-catalog:v$(VERSION)\n" +
		"bundle:\n\tkustomize build config/manifests | operator-sdk generate bundle -q --version $(VERSION) --package p\n"
	if err := os.WriteFile(filepath.Join(dir, "Makefile"), []byte(mk), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runOpack(t, "", "init", dir)
	if code == 0 {
		t.Fatalf("init exited 0:\n%s", stderr)
	}
	lines := strings.Split(strings.TrimRight(stderr, "\n"), "\n")
	if !strings.HasPrefix(lines[0], "Error: ") || len(lines) < 3 || lines[1] != "notes on what opack read:" {
		t.Fatalf("not an error followed by its notes, each on its line:\n%s", stderr)
	}
	if !strings.Contains(stderr, `\r::error::injected`) {
		t.Errorf("the Makefile's line is not quoted, escaped, in a note:\n%s", stderr)
	}
	for _, l := range strings.FieldsFunc(stderr, func(r rune) bool { return r == '\n' || r == '\r' })[2:] {
		if !strings.HasPrefix(l, "  ") {
			t.Errorf("a line that is not an indented note: %q", l)
		}
	}
}
