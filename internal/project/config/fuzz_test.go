package config

import (
	"errors"
	"strings"
	"testing"

	"github.com/opack/opack/internal/fuzzseed"
)

// FuzzProjectDecode: opack.yaml is trusted, but a typo must still give an error, never a panic;
// errors name the file, and a decoded project decodes the same way twice.
func FuzzProjectDecode(f *testing.F) {
	fuzzseed.Add(f, "internal/adopt/testdata/init/opack.yaml")
	for _, s := range []string{
		"apiVersion: opack.dev/v1alpha1\nkind: Project\npackage: a\n",
		"apiVersion: opack.dev/v1alpha1\nkind: Project\npackage: a\ncatalogs:\n- name: c\n  template: t.yaml\nbundle: {dir: b, image: 'x:{{.Version}}'}\n",
		"- a\n", "", "apiVersion: opack.dev/v1\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := Decode(data, "opack.yaml")
		if err != nil {
			var ce *ConfigError
			if errors.As(err, &ce) && len(ce.Errs) == 0 {
				t.Fatalf("ConfigError without errors for %q", data)
			}
			if !strings.Contains(err.Error(), "opack.yaml") {
				t.Fatalf("error %q does not name the file", err)
			}
			return
		}
		if p == nil {
			t.Fatal("Decode returned neither a project nor an error")
		}
		if _, err := Decode(data, "opack.yaml"); err != nil {
			t.Fatalf("second Decode failed: %v", err)
		}
	})
}
