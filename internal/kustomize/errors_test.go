package kustomize

import (
	"context"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"sigs.k8s.io/kustomize/kyaml/filesys"
)

// TestBuildErrorNamesTheFile checks that a failed build leads with the file (and line) at fault
// rather than burying it at the end of kustomize's error chain.
func TestBuildErrorNamesTheFile(t *testing.T) {
	fs := filesys.MakeFsInMemory()
	files := map[string]string{
		"/base/kustomization.yaml":    "resources:\n- m.yaml\n",
		"/base/m.yaml":                "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n  labels:\n    a: b: [c\n",
		"/syntax/kustomization.yaml":  "resources:\n- ../base\n",
		"/missing/kustomization.yaml": "resources:\n- ok.yaml\n- missing.yaml\n",
		"/missing/ok.yaml":            "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ok\n",
		"/nobase/kustomization.yml":   "resources:\n- ../nope\n",
		"/badkust/kustomization.yaml": "resources: [\n",
		"/dup/kustomization.yaml":     "resources:\n- m.yaml\n",
		"/dup/m.yaml":                 "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n",
	}
	for name, data := range files {
		if err := fs.WriteFile(name, []byte(data)); err != nil {
			t.Fatal(err)
		}
	}
	type want struct {
		File string
		Line int
		Msg  string
	}
	tests := []struct {
		dir  string
		want want
	}{
		{"/syntax", want{"/base/m.yaml", 6, "YAML syntax error: mapping values are not allowed in this context"}},
		{"/missing", want{"/missing/kustomization.yaml", 0, `resource "missing.yaml" does not exist (/missing/missing.yaml): fix or remove it under resources`}},
		{"/nobase", want{"/nobase/kustomization.yml", 0, `resource "../nope" does not exist (/nope): fix or remove it under resources`}},
		{"/badkust", want{"/badkust/kustomization.yaml", 1, "YAML syntax error: did not find expected node content"}},
		{"/dup", want{}},
	}
	for _, tt := range tests {
		t.Run(tt.dir, func(t *testing.T) {
			_, err := BuildFS(context.Background(), fs, tt.dir, WithRoot("/"))
			var be *BuildError
			if !errors.As(err, &be) {
				t.Fatalf("got %v, want a *BuildError", err)
			}
			if diff := cmp.Diff(tt.want, want{be.File, be.Line, be.Msg}); diff != "" {
				t.Errorf("(-want +got):\n%s\nerror: %v", diff, err)
			}
			if be.File == "" && be.Error() != "building kustomization "+tt.dir+": "+be.Err.Error() {
				t.Errorf("an unexplained error must keep kustomize's chain: %v", err)
			}
		})
	}
	t.Run("message leads with the file and line", func(t *testing.T) {
		_, err := BuildFS(context.Background(), fs, "/syntax", WithRoot("/"))
		want := "/base/m.yaml:6: YAML syntax error: mapping values are not allowed in this context (while building kustomization /syntax)"
		if diff := cmp.Diff(want, err.Error()); diff != "" {
			t.Error(diff)
		}
	})
}
