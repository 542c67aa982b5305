package image

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseSource(t *testing.T) {
	dir := t.TempDir()
	folder := filepath.Join(dir, "bundle")
	layout := filepath.Join(dir, "layout")
	for _, d := range []string{folder, layout} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(layout, "oci-layout"), []byte(`{"imageLayoutVersion":"1.0.0"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "catalog.yaml")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "nope")
	tests := []struct {
		arg     string
		want    Source
		wantErr string
	}{
		{arg: folder, want: Source{Kind: SourcePath, Arg: folder, Path: folder}},
		{arg: file, want: Source{Kind: SourcePath, Arg: file, Path: file}},
		{arg: layout, want: Source{Kind: SourceLayout, Arg: layout, Path: layout, Ref: "oci:" + layout}},
		{arg: "oci:" + layout + ":v1", want: Source{Kind: SourceLayout, Arg: "oci:" + layout + ":v1", Path: layout, Ref: "oci:" + layout + ":v1"}},
		{arg: "quay.io/example/catalog:latest", want: Source{Kind: SourceRegistry, Arg: "quay.io/example/catalog:latest", Ref: "quay.io/example/catalog:latest"}},
		{arg: "quay.io/example/catalog", want: Source{Kind: SourceRegistry, Arg: "quay.io/example/catalog", Ref: "quay.io/example/catalog"}},
		{arg: "localhost:5000/x@sha256:" + strings.Repeat("a", 64), want: Source{Kind: SourceRegistry, Arg: "localhost:5000/x@sha256:" + strings.Repeat("a", 64), Ref: "localhost:5000/x@sha256:" + strings.Repeat("a", 64)}},
		{arg: "example/bundle:v1", want: Source{Kind: SourceRegistry, Arg: "example/bundle:v1", Ref: "example/bundle:v1"}},
		{arg: "nope", wantErr: "nope: no such file or folder, and not an image reference"},
		{arg: "mc/bundle", wantErr: "mc/bundle: no such file or folder, and not an image reference"},
		{arg: missing, wantErr: missing + ": no such file or folder, and not an image reference"},
		{arg: "./a:v1", wantErr: "./a:v1: no such file or folder, and not an image reference"},
		{arg: "bundles/", wantErr: "bundles/: no such file or folder, and not an image reference"},
		{arg: layout + ":v1", wantErr: layout + ":v1: no such file or folder; " + layout + " is an OCI image layout: write oci:" + layout + ":v1"},
		{arg: "oci:" + missing, wantErr: "oci:" + missing + ": no such OCI image layout folder " + missing},
		{arg: "", wantErr: "empty argument"},
	}
	for _, tt := range tests {
		t.Run(tt.arg, func(t *testing.T) {
			got, err := ParseSource(tt.arg)
			if tt.wantErr != "" {
				if err == nil || !strings.HasPrefix(err.Error(), tt.wantErr) {
					t.Fatalf("ParseSource(%q) error = %v, want prefix %q", tt.arg, err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("ParseSource(%q) (-want +got):\n%s", tt.arg, diff)
			}
		})
	}
}
