package main

import (
	"os"
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
