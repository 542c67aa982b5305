package kustomize

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

const cm = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: %s\n"

// sandboxProject writes a project (go.mod marks its root) with files, plus a folder outside it.
func sandboxProject(t *testing.T, files map[string]string) (root, outside string) {
	t.Helper()
	base := t.TempDir()
	root, outside = filepath.Join(base, "project"), filepath.Join(base, "outside")
	files["go.mod"] = "module x\n"
	for name, data := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(outside, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string]string{"kustomization.yaml": "resources:\n- secret.yaml\n", "secret.yaml": strings.Replace(cm, "%s", "outside", 1)} {
		if err := os.WriteFile(filepath.Join(outside, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root, outside
}

// fakeGit puts a git on PATH that records being run, so that a test can prove no git ran.
func fakeGit(t *testing.T) (ran func() bool) {
	t.Helper()
	bin := t.TempDir()
	marker := filepath.Join(bin, "ran")
	if err := os.WriteFile(filepath.Join(bin, "git"), []byte("#!/bin/sh\ntouch "+marker+"\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	return func() bool { _, err := os.Stat(marker); return err == nil }
}

// TestBuildSandbox: a resource climbing out of the project, a folder symlinked out of it, a URL
// (fetched and built in) and a git repository (git run) were once all accepted. Each is now refused with the kustomization file and the entry; nothing is fetched
// and git never runs; --allow-remote fetches URLs through opack itself.
func TestBuildSandbox(t *testing.T) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		if r.URL.Path != "/remote.yaml" {
			http.NotFound(w, r)
			return
		}
		w.Write([]byte(strings.Replace(cm, "%s", "remote", 1)))
	}))
	defer srv.Close()
	gitRan := fakeGit(t)
	for _, tc := range []struct {
		name        string
		resources   string
		symlink     bool
		allowRemote bool
		wantErr     string
		wantIn      string
		wantHits    int32
	}{
		{name: "inside", resources: "- ../base\n", wantIn: "name: base"},
		{name: "dotdot out of the project", resources: "- ../../../../outside\n",
			wantErr: `config/app/kustomization.yaml: resource "../../../../outside": `},
		{name: "folder symlinked out", resources: "- ../link\n", symlink: true,
			wantErr: `config/app/kustomization.yaml: resource "../link": `},
		{name: "url refused offline", resources: "- " + srv.URL + "/remote.yaml\n",
			wantErr: `config/app/kustomization.yaml: resources entry "` + srv.URL + `/remote.yaml" is remote; opack builds offline: vendor it into the project or pass --allow-remote`},
		{name: "git refused", resources: "- https://github.com/example/repo//config?ref=main\n",
			wantErr: `resources entry "https://github.com/example/repo//config?ref=main" is a git repository; kustomize would run git`},
		{name: "git refused even when remote is allowed", resources: "- github.com/example/repo/config?ref=v1\n", allowRemote: true,
			wantErr: "is a git repository"},
		{name: "unreachable url named when allowed", resources: "- " + srv.URL + "/missing.yaml\n", allowRemote: true,
			wantErr: `config/app/kustomization.yaml: fetching "` + srv.URL + `/missing.yaml": HTTP 404`, wantHits: 1},
		{name: "url fetched by opack when allowed", resources: "- ../base\n- " + srv.URL + "/remote.yaml\n", allowRemote: true,
			wantIn: "name: remote", wantHits: 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			hits.Store(0)
			root, outside := sandboxProject(t, map[string]string{
				"config/app/kustomization.yaml":  "resources:\n" + tc.resources,
				"config/base/kustomization.yaml": "resources:\n- cm.yaml\n",
				"config/base/cm.yaml":            strings.Replace(cm, "%s", "base", 1),
			})
			if tc.symlink {
				if err := os.Symlink(outside, filepath.Join(root, "config", "link")); err != nil {
					t.Fatal(err)
				}
			}
			out, err := Build(t.Context(), filepath.Join(root, "config", "app"), WithAllowRemote(tc.allowRemote))
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("Build() error = %v, want it to contain %q", err, tc.wantErr)
				}
				var be *BuildError
				var re *RemoteError
				if !tc.allowRemote && !errors.As(err, &be) && !errors.As(err, &re) {
					t.Errorf("error %T is neither a BuildError nor a RemoteError", err)
				}
			} else if err != nil {
				t.Fatal(err)
			}
			if tc.wantIn != "" && !strings.Contains(string(out), tc.wantIn) {
				t.Errorf("output lacks %q:\n%s", tc.wantIn, out)
			}
			if strings.Contains(string(out), "name: outside") {
				t.Errorf("output holds the outside folder's content:\n%s", out)
			}
			if got := hits.Load(); got != tc.wantHits {
				t.Errorf("the server was asked %d times, want %d", got, tc.wantHits)
			}
			if gitRan() {
				t.Fatal("git was run")
			}
		})
	}
}

func TestProjectRoot(t *testing.T) {
	base := t.TempDir()
	for _, d := range []string{"marked/config/manifests", "marked/sub", "bare/config/manifests", "loose/k"} {
		if err := os.MkdirAll(filepath.Join(base, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(base, "marked", "PROJECT"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for dir, want := range map[string]string{
		"marked/config/manifests": "marked",
		"marked":                  "marked",
		"bare/config/manifests":   "bare",
		"loose/k":                 "loose/k",
	} {
		if got := ProjectRoot(filepath.Join(base, dir)); got != filepath.Join(base, want) {
			t.Errorf("ProjectRoot(%s) = %s, want %s", dir, got, filepath.Join(base, want))
		}
	}
}
