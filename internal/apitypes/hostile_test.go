package apitypes

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/operator-framework/api/pkg/operators/v1alpha1"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

const hostileGroup = `// +groupName=example.com
package v1
`

// diamond is n levels of types each holding the next one twice: 2^n paths.
func diamond(n int) string {
	var b strings.Builder
	b.WriteString("package v1\n\ntype WidgetSpec struct {\n\tTop L0 `json:\"top\"`\n}\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "type L%d struct {\n\t// +operator-sdk:csv:customresourcedefinitions:type=spec\n\tA L%d `json:\"a\"`\n\tB L%d `json:\"b\"`\n}\n", i, i+1, i+1)
	}
	fmt.Fprintf(&b, "type L%d struct{ X string `json:\"x\"` }\n", n)
	return b.String()
}

const widget = "package v1\n\ntype Widget struct {\n\tSpec   WidgetSpec   `json:\"spec\"`\n\tStatus WidgetStatus `json:\"status\"`\n}\n\ntype WidgetStatus struct{}\n"

// TestHostileGoTypes reads Go API types a pull request could plant: types that refer to
// themselves or nest exponentially end in bounded time, a cgo file is not read, a go.mod
// replace or vendor/ pointing outside is never followed (nothing outside the API packages is
// read), and a Go file that is a symlink out of the project or a FIFO is refused.
func TestHostileGoTypes(t *testing.T) {
	recursive := "package v1\n\ntype Node struct {\n\t// +operator-sdk:csv:customresourcedefinitions:type=spec\n\tName string `json:\"name\"`\n\tNext *Node `json:\"next,omitempty\"`\n\tKids []Pair `json:\"kids,omitempty\"`\n}\n\ntype Pair struct {\n\tLeft *Node `json:\"left\"`\n}\n\ntype WidgetSpec struct {\n\tRoot Node `json:\"root\"`\n}\n"
	tests := []struct {
		name      string
		files     map[string]string // below the project; ../outside/... beside it
		links     map[string]string
		wantErr   string
		wantPaths []string
	}{
		{name: "type holding itself", files: map[string]string{"api/v1/types.go": recursive},
			wantPaths: []string{"root.name"}},
		{name: "40-level diamond", files: map[string]string{"api/v1/types.go": diamond(40)},
			wantErr: "more than 200000 fields"},
		{name: "cgo file including a file outside", files: map[string]string{"api/v1/types.go": recursive,
			"api/v1/cgo.go":       "package v1\n\n/*\n#include \"../../../outside/secret.h\"\n#include \"/dev/zero\"\n*/\nimport \"C\"\n",
			"../outside/secret.h": "SECRET-CANARY\n"},
			wantPaths: []string{"root.name"}},
		{name: "replace outside the project", files: map[string]string{"api/v1/types.go": recursive,
			"go.mod": "module example.com/op\n\ngo 1.22\n\nrequire example.com/dep v0.0.0\n\nreplace example.com/dep => ../outside/dep\n"},
			wantPaths: []string{"root.name"}},
		{name: "vendor symlink out", files: map[string]string{"api/v1/types.go": recursive, "vendor/modules.txt": "# example.com/dep v0.0.0\n"},
			links:     map[string]string{"vendor/example.com": "../../outside"},
			wantPaths: []string{"root.name"}},
		{name: "Go file that is a symlink out", files: map[string]string{"api/v1/types.go": recursive, "../outside/secret.go": "package v1\n// SECRET-CANARY\n"},
			links:   map[string]string{"api/v1/zz_secret.go": "../../../outside/secret.go"},
			wantErr: "the symlink api/v1/zz_secret.go points to ../../../outside/secret.go, outside the project"},
		{name: "Go file that is /dev/zero", files: map[string]string{"api/v1/types.go": recursive},
			links:   map[string]string{"api/v1/zero.go": "/dev/zero"},
			wantErr: "api/v1/zero.go"},
		{name: "api folder is a symlink out", files: map[string]string{"../outside/v1/types.go": recursive},
			links:   map[string]string{"api": "../outside"},
			wantErr: "the symlink api points to ../outside"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			base := t.TempDir()
			dir := filepath.Join(base, "project")
			files := map[string]string{"go.mod": "module example.com/op\n\ngo 1.22\n", "api/v1/groupversion_info.go": hostileGroup, "api/v1/widget.go": widget}
			if _, ok := tc.links["api"]; ok {
				delete(files, "api/v1/groupversion_info.go")
				delete(files, "api/v1/widget.go")
			}
			for n, d := range tc.files {
				files[n] = d
			}
			for n, d := range files {
				p := filepath.Join(dir, filepath.FromSlash(n))
				os.MkdirAll(filepath.Dir(p), 0o755)
				if err := os.WriteFile(p, []byte(d), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			for l, target := range tc.links {
				os.MkdirAll(filepath.Dir(filepath.Join(dir, l)), 0o755)
				if err := os.Symlink(target, filepath.Join(dir, filepath.FromSlash(l))); err != nil {
					t.Fatal(err)
				}
			}
			csv := &v1alpha1.ClusterServiceVersion{}
			csv.Spec.CustomResourceDefinitions.Owned = []v1alpha1.CRDDescription{{Name: "widgets.example.com", Version: "v1", Kind: "Widget"}}
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			start := time.Now()
			_, err := Apply(ctx, csv, Options{Dir: dir, APIsDir: "api", GVKs: []schema.GroupVersionKind{{Group: "example.com", Version: "v1", Kind: "Widget"}}})
			if d := time.Since(start); d > time.Minute {
				t.Errorf("Apply took %v", d)
			}
			if err != nil && strings.Contains(err.Error(), "SECRET-CANARY") {
				t.Fatalf("an outside file's content in the error: %v", err)
			}
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("Apply: %v, want an error containing %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, d := range csv.Spec.CustomResourceDefinitions.Owned[0].SpecDescriptors {
				got = append(got, d.Path)
			}
			if diff := cmp.Diff(tc.wantPaths, got); diff != "" {
				t.Errorf("spec descriptors (-want +got):\n%s", diff)
			}
		})
	}
}
