package project

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/opack/opack/internal/project/config"
	"gopkg.in/yaml.v3"
)

func TestSetVersion(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"plain", "kind: Project\nversion: 0.0.1\npackage: p\n", "kind: Project\nversion: 0.0.2\npackage: p\n"},
		{"double-quoted", "version: \"0.0.1\" # release\n", "version: \"0.0.2\" # release\n"},
		{"single-quoted", "version: '0.0.1'\n", "version: '0.0.2'\n"},
		{"comment and spaces", "version: 0.0.1   # the release\r\nkind: Project\r\n", "version: 0.0.2   # the release\r\nkind: Project\r\n"},
		{"no final newline", "package: p\nversion:   0.0.1", "package: p\nversion:   0.0.2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var root yaml.Node
			if err := yaml.Unmarshal([]byte(tt.in), &root); err != nil {
				t.Fatal(err)
			}
			got, err := setVersion([]byte(tt.in), topValue(root.Content[0], "version"), "0.0.2")
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, string(got)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	t.Run("block scalar refused", func(t *testing.T) {
		in := "version: |\n  0.0.1\n"
		var root yaml.Node
		if err := yaml.Unmarshal([]byte(in), &root); err != nil {
			t.Fatal(err)
		}
		if _, err := setVersion([]byte(in), topValue(root.Content[0], "version"), "0.0.2"); err == nil {
			t.Error("a block scalar was rewritten")
		}
	})
}

// TestBuildSavesVersionAndKeepsReleases checks that build --version saves the version in
// opack.yaml, so a plain check afterwards passes, and that a version already in the catalog
// template never gets a new digest without --allow-rebuild (check reports it with the diff).
func TestBuildSavesVersionAndKeepsReleases(t *testing.T) {
	ctx := context.Background()
	dir := sampleProject(t)
	if _, err := Build(ctx, load(t, dir)); err != nil {
		t.Fatalf("build 0.0.1: %v", err)
	}
	res2, err := Build(ctx, load(t, dir), BuildVersion("v0.0.2"))
	if err != nil {
		t.Fatalf("build 0.0.2: %v", err)
	}
	if !containsAll(res2.Written, config.DefaultFile) {
		t.Errorf("build --version 0.0.2 wrote %v; want %s among them", res2.Written, config.DefaultFile)
	}
	if diff := cmp.Diff("0.0.2", load(t, dir).Version); diff != "" {
		t.Errorf("version in opack.yaml (-want +got):\n%s", diff)
	}
	if res, err := Check(ctx, load(t, dir)); err != nil || res.Diff != "" {
		t.Fatalf("plain check after build --version: %v\n%s", err, res.Diff)
	}

	editFile(t, filepath.Join(dir, "config", "manifests", "bases", "memcached-operator.clusterserviceversion.yaml"),
		"description: Memcached Operator description. TODO.", "description: A better description.")
	before := snapshot(t, dir)
	tests := []struct {
		name    string
		check   bool
		opts    []BuildOption
		wantErr string // "" for success
	}{
		{"build refuses", false, nil, "step catalog-template (catalog-template.yaml): version 0.0.2 (memcached-operator.v0.0.2) is already in catalog-template.yaml as " + res2.Bundle.Digest + ", and this build gives "},
		{"check reports it with the diff", true, nil, "step catalog-template (catalog-template.yaml): 1 released version(s) would change"},
		{"build with --allow-rebuild", false, []BuildOption{BuildAllowRebuild(true)}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			run := Build
			if tt.check {
				run = Check
			}
			res, err := run(ctx, load(t, dir), tt.opts...)
			if tt.wantErr == "" {
				if err != nil {
					t.Fatal(err)
				}
				if !containsAll(res.Written, "bundle", "catalog-template.yaml") {
					t.Errorf("wrote %v", res.Written)
				}
				return
			}
			if err == nil || !strings.HasPrefix(err.Error(), tt.wantErr) || !errors.Is(err, ErrFindings) {
				t.Fatalf("got %v; want an error starting with %q", err, tt.wantErr)
			}
			if tt.check {
				var se *StepError
				errors.As(err, &se)
				if len(se.Findings) != 1 || se.Findings[0].Rule != RuleReleasedVersionChanged || !strings.Contains(res.Diff, "+  description: A better description.") {
					t.Errorf("findings %v, diff:\n%s", se.Findings, res.Diff)
				}
			}
			if diff := cmp.Diff(before, snapshot(t, dir)); diff != "" {
				t.Errorf("the project changed (-before +after):\n%s", diff)
			}
		})
	}
	data, _ := os.ReadFile(filepath.Join(dir, config.DefaultFile))
	if !strings.Contains(string(data), "version: ") {
		t.Errorf("opack.yaml lost its version:\n%s", data)
	}
}
