package check

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/opack/opack/internal/fbc"
)

// notOPMFormatted lists corpus files that were not written by opm (hand-indented sequences, an
// icon as a literal block): opm does not reproduce them either, so they are checked for a
// stable round trip instead of byte identity.
var notOPMFormatted = map[string]bool{"linstor-operator/catalog.yaml": true}

// TestCorpusFBC validates certified-operators-v4.22 (clean, as with opm) and round-trips
// every file through the loader and the YAML writer byte for byte.
func TestCorpusFBC(t *testing.T) {
	dir := corpusDir(t)
	ctx := context.Background()
	r, err := ValidateDir(ctx, dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !r.Passed() {
		t.Errorf("catalog does not validate clean:\n%s", text(r))
	}
	files, err := filepath.Glob(filepath.Join(dir, "*", "catalog.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no catalog files in %s: %v", dir, err)
	}
	for _, f := range files {
		rel, _ := filepath.Rel(dir, f)
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := fbc.LoadReader(bytes.NewReader(data), rel)
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		if err := fbc.WriteYAML(*cfg, &out); err != nil {
			t.Fatal(err)
		}
		if notOPMFormatted[filepath.ToSlash(rel)] {
			again, err := fbc.LoadReader(bytes.NewReader(out.Bytes()), rel)
			if err != nil {
				t.Fatal(err)
			}
			var out2 bytes.Buffer
			if err := fbc.WriteYAML(*again, &out2); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(out.String(), out2.String()); diff != "" {
				t.Errorf("%s: second round trip differs:\n%s", rel, diff)
			}
			continue
		}
		if !bytes.Equal(data, out.Bytes()) {
			t.Errorf("%s: round trip differs:\n%s", rel, cmp.Diff(string(data), out.String()))
		}
	}
}
