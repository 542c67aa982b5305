package check

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/opack/opack/internal/catalog/internal/catalogtest"

	"github.com/opack/opack/internal/finding"

	"github.com/opack/opack/internal/fbc"
)

const opmTestdata = "../../../testdata/opm"

// expectedMessages turns opm's error text into the messages opack must report: the leaves of
// a model-validation tree, or the whole text otherwise.
func expectedMessages(text string) []string {
	text = strings.TrimSuffix(text, "\n")
	if !strings.HasPrefix(text, "invalid index:") {
		return []string{text}
	}
	var out []string
	for _, line := range strings.Split(text, "\n") {
		i := strings.Index(line, "── ")
		if i < 0 {
			continue
		}
		msg := line[i+len("── "):]
		if strings.HasPrefix(msg, "invalid package ") || strings.HasPrefix(msg, "invalid channel ") || strings.HasPrefix(msg, "invalid bundle ") {
			continue
		}
		out = append(out, msg)
	}
	return out
}

// TestValidateCases runs opm's 41 TestConvertToModel cases: same pass/fail and opm's message.
func TestValidateCases(t *testing.T) {
	root := filepath.Join(opmTestdata, "validate-cases")
	cases, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) != 41 {
		t.Fatalf("want 41 cases, found %d", len(cases))
	}
	for _, c := range cases {
		t.Run(c.Name(), func(t *testing.T) {
			want, err := os.ReadFile(filepath.Join(root, c.Name(), "expected_error.txt"))
			if err != nil {
				t.Fatal(err)
			}
			r, err := ValidateDir(context.Background(), filepath.Join(root, c.Name(), "catalog"), nil, WithChecks(CheckOPM))
			if err != nil {
				t.Fatal(err)
			}
			if strings.TrimSpace(string(want)) == "OK" {
				if !r.Passed() {
					t.Fatalf("want pass, got:\n%s", text(r))
				}
				return
			}
			if r.Passed() {
				t.Fatalf("want failure %q, passed", want)
			}
			for _, msg := range expectedMessages(string(want)) {
				if !hasMessage(r, msg) {
					t.Errorf("missing message %q in:\n%s", msg, text(r))
				}
			}
		})
	}
}

func hasMessage(r *finding.Report, msg string) bool {
	for _, f := range r.Findings {
		if f.Message == msg {
			return true
		}
	}
	return false
}

func text(r *finding.Report) string {
	var b strings.Builder
	_ = r.WriteText(&b)
	return b.String()
}

// TestValidateInMemoryCases covers the three TestConvertToModel cases whose on-disk form cannot
// express the problem (in_memory_error.txt): opm's message on the Go structs.
func TestValidateInMemoryCases(t *testing.T) {
	pkg := fbc.Package{Schema: fbc.SchemaPackage, Name: "foo", DefaultChannel: "alpha"}
	ch := fbc.Channel{Schema: fbc.SchemaChannel, Name: "alpha", Package: "foo", Entries: []fbc.ChannelEntry{{Name: "foo.v0.1.0"}}}
	bundle := func(mod func(*fbc.Bundle)) fbc.Bundle {
		b := fbc.Bundle{Schema: fbc.SchemaBundle, Name: "foo.v0.1.0", Package: "foo", Image: "foo-bundle:v0.1.0",
			Properties: []fbc.Property{fbc.NewPackageProperty("foo", "0.1.0")}}
		mod(&b)
		return b
	}
	tests := []struct {
		name string
		cfg  fbc.DeclarativeConfig
		want string
	}{
		{"Error_PackageNoName", fbc.DeclarativeConfig{Packages: []fbc.Package{{Schema: fbc.SchemaPackage}}},
			"config contains package with no name"},
		{"Error_BundleMissingPackageName", fbc.DeclarativeConfig{Packages: []fbc.Package{pkg}, Channels: []fbc.Channel{ch},
			Bundles: []fbc.Bundle{bundle(func(b *fbc.Bundle) { b.Package = "" })}},
			`package name must be set for bundle "foo.v0.1.0"`},
		{"Error_BundleInvalidProperties", fbc.DeclarativeConfig{Packages: []fbc.Package{pkg}, Channels: []fbc.Channel{ch},
			Bundles: []fbc.Bundle{bundle(func(b *fbc.Bundle) {
				b.Properties = append(b.Properties, fbc.NewGVKProperty("g", "v1", "K"), fbc.Property{Type: "olm.foo", Value: json.RawMessage("{")})
			})}},
			`parse properties for bundle "foo.v0.1.0": parse property[2] of type "olm.foo": unexpected end of JSON input`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			want := strings.TrimSpace(catalogtest.ReadFile(t, filepath.Join(opmTestdata, "validate-cases", tc.name, "in_memory_error.txt")))
			if want != tc.want {
				t.Fatalf("golden says %q, test expects %q", want, tc.want)
			}
			r := Validate(context.Background(), &tc.cfg, WithChecks(CheckOPM))
			if !hasMessage(r, want) {
				t.Errorf("missing %q in:\n%s", want, text(r))
			}
		})
	}
}
