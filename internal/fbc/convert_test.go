package fbc

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestConvertDuplicatePackage: a package declared three times (three catalogs copied into one
// folder, as netobserv/netobserv-catalog's auto-generated/catalog holds) is one problem, opm's first;
// its channels and bundles declared again are not more problems. A bundle declared twice in a
// package declared once still is.
func TestConvertDuplicatePackage(t *testing.T) {
	catalog := func(versions ...string) string {
		out := "---\ndefaultChannel: stable\nname: demo\nschema: olm.package\n---\nentries:\n"
		for _, v := range versions {
			out += "- name: demo.v" + v + "\n"
		}
		out += "name: stable\npackage: demo\nschema: olm.channel\n"
		for _, v := range versions {
			out += "---\nimage: example.com/demo-bundle:v" + v + "\nname: demo.v" + v + "\npackage: demo\nproperties:\n- type: olm.package\n  value:\n    packageName: demo\n    version: " + v + "\nschema: olm.bundle\n"
		}
		return out
	}
	bundle := "---\nimage: example.com/demo-bundle:v1.0.0\nname: demo.v1.0.0\npackage: demo\nproperties:\n- type: olm.package\n  value:\n    packageName: demo\n    version: 1.0.0\nschema: olm.bundle\n"
	tests := []struct {
		name   string
		stream string
		want   []string
	}{
		{"three copies", catalog("1.0.0", "1.1.0") + catalog("1.0.0") + catalog("1.0.0", "1.2.0"), []string{`duplicate package "demo"`}},
		{"a bundle twice", catalog("1.0.0") + bundle, []string{`package "demo" has duplicate bundle "demo.v1.0.0"`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg, err := ParseStream([]byte(tc.stream))
			if err != nil {
				t.Fatal(err)
			}
			_, probs := Convert(cfg)
			var got []string
			for _, p := range probs {
				got = append(got, p.Msg)
				if p.Msg == `duplicate package "demo"` && p.Fix == "" {
					t.Errorf("%s: no fix", p.Msg)
				}
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
		})
	}
}
