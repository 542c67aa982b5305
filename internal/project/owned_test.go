package project

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOwnedFiles: build deletes a stale file of a folder it replaces only when it wrote it; a
// file it did not write stops the build with its name (and nothing is written) unless --prune.
func TestOwnedFiles(t *testing.T) {
	ctx := context.Background()
	dir := sampleProject(t)
	if _, err := Build(ctx, load(t, dir)); err != nil {
		t.Fatalf("first build: %v", err)
	}
	owned, err := os.ReadFile(filepath.Join(dir, OwnedFile))
	if err != nil || !strings.Contains(string(owned), "\nbundle/metadata/annotations.yaml\n") {
		t.Fatalf("%s = %q, %v; want the bundle's files", OwnedFile, owned, err)
	}
	mine := filepath.Join(dir, "deploy", "olmv1", "stale.yaml")
	theirs := filepath.Join(dir, "deploy", "olmv0", "notes.txt")
	for _, f := range []string{mine, theirs} {
		if err := writeFile(f, "x: 1\n"); err != nil {
			t.Fatal(err)
		}
	}
	// As if an earlier build had written stale.yaml.
	if err := writeFile(filepath.Join(dir, OwnedFile), string(owned)+"deploy/olmv1/stale.yaml\n"); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		opts    []BuildOption
		check   bool
		wantErr string
		gone    []string
		kept    []string
	}{
		{name: "check refuses", check: true, wantErr: "1 file(s) opack did not write would be deleted: deploy/olmv0/notes.txt", kept: []string{mine, theirs}},
		{name: "build refuses", wantErr: "deploy/olmv0/notes.txt", kept: []string{mine, theirs}},
		{name: "prune", opts: []BuildOption{BuildPrune(true)}, gone: []string{mine, theirs}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			run := Build
			if tt.check {
				run = Check
			}
			res, err := run(ctx, load(t, dir), tt.opts...)
			if tt.wantErr != "" {
				var se *StepError
				if !errors.As(err, &se) || !errors.Is(err, ErrFindings) || !strings.Contains(err.Error(), tt.wantErr) || !strings.Contains(se.Fix, "--prune") {
					t.Fatalf("err = %v, want a refusal naming %q with --prune as fix", err, tt.wantErr)
				}
			} else if err != nil {
				t.Fatal(err)
			}
			for _, f := range tt.kept {
				if _, err := os.Stat(f); err != nil {
					t.Errorf("%s: %v", f, err)
				}
			}
			for _, f := range tt.gone {
				if _, err := os.Stat(f); err == nil {
					t.Errorf("%s still exists", f)
				}
			}
			if tt.name == "prune" && !strings.Contains(strings.Join(res.Warnings, "\n"), "pruned deploy/olmv0/notes.txt") {
				t.Errorf("warnings %q do not report the pruned file", res.Warnings)
			}
		})
	}
	t.Run("owned stale file removed without prune", func(t *testing.T) {
		owned, _ := os.ReadFile(filepath.Join(dir, OwnedFile))
		if err := writeFile(mine, "x: 1\n"); err != nil {
			t.Fatal(err)
		}
		if err := writeFile(filepath.Join(dir, OwnedFile), string(owned)+"deploy/olmv1/stale.yaml\n"); err != nil {
			t.Fatal(err)
		}
		if _, err := Build(ctx, load(t, dir)); err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(mine); err == nil {
			t.Errorf("%s still exists", mine)
		}
	})
}

func TestObjectWarning(t *testing.T) {
	tests := []struct{ kind, name, in, want string }{
		{"ClusterServiceVersion", "op.v1.0.0", "related image x is set under several names", "ClusterServiceVersion op.v1.0.0: related image x is set under several names"},
		{"ClusterServiceVersion", "op.v1.0.0", "ClusterServiceVersion op.v1.0.0 has no icon", "ClusterServiceVersion op.v1.0.0 has no icon"},
		{"ClusterServiceVersion", "", "no CSV yet", "no CSV yet"},
	}
	for _, tt := range tests {
		if got := ObjectWarning(tt.kind, tt.name, tt.in); got != tt.want {
			t.Errorf("ObjectWarning(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestOwnedBundleLeftover: a manifest left in the bundle by an earlier operator-sdk generate bundle
// (it never deletes one the kustomize build stopped giving, as in Kuadrant/dns-operator's bundle)
// is refused with a fix that says so.
func TestOwnedBundleLeftover(t *testing.T) {
	ctx := context.Background()
	dir := sampleProject(t)
	if _, err := Build(ctx, load(t, dir)); err != nil {
		t.Fatalf("first build: %v", err)
	}
	old := filepath.Join(dir, "bundle", "manifests", "metrics-reader_rbac.authorization.k8s.io_v1_clusterrole.yaml")
	if err := writeFile(old, "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata:\n  name: metrics-reader\nrules: []\n"); err != nil {
		t.Fatal(err)
	}
	_, err := Build(ctx, load(t, dir))
	var se *StepError
	if !errors.As(err, &se) || !strings.Contains(se.Fix, "operator-sdk generate bundle never deletes a manifest") || !strings.Contains(se.Fix, "--prune") {
		t.Fatalf("err = %v, want a refusal explaining leftovers", err)
	}
	if _, err := os.Stat(old); err != nil {
		t.Errorf("the leftover was touched: %v", err)
	}
}
