package check

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/opack/opack/internal/fbc"
)

// crdBundle is a bundle of pkg at version whose only object is the CRD in file.
func crdBundle(t *testing.T, pkg, version, file string) fbc.Bundle {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	bs := []fbc.Bundle{{Schema: fbc.SchemaBundle, Package: pkg, Name: pkg + ".v" + version, Image: "example.com/" + pkg + ":v" + version,
		Properties: []fbc.Property{fbc.NewPackageProperty(pkg, version), fbc.NewBundleObjectProperty(data)}}}
	if err := fbc.ReadBundleObjects(bs); err != nil {
		t.Fatal(err)
	}
	return bs[0]
}

// TestCRDEchoesFolded: dell-csm-operator-certified 1.6.1 -> 1.7.0 removes vaultAddress and vaultRole from
// the container struct its CRD copies into seven places (internal/crd/testdata/real-pairs/reference-name-default):
// each removal is one finding naming the first path and "and 6 more places", with all seven in Paths;
// --per-edge keeps one finding per path.
func TestCRDEchoesFolded(t *testing.T) {
	const pkg = "dell-csm-operator-certified"
	pair := filepath.Join("..", "..", "crd", "testdata", "real-pairs", "reference-name-default")
	cfg := catalogOf(pkg, []fbc.Bundle{crdBundle(t, pkg, "1.6.1", filepath.Join(pair, "old.json")), crdBundle(t, pkg, "1.7.0", filepath.Join(pair, "new.json"))},
		fbc.ChannelEntry{Name: pkg + ".v1.6.1"}, fbc.ChannelEntry{Name: pkg + ".v1.7.0", Replaces: pkg + ".v1.6.1"})
	places := []string{"^.spec.driver.common.", "^.spec.driver.controller.", "^.spec.driver.initContainers[*].", "^.spec.driver.node.",
		"^.spec.driver.sideCars[*].", "^.spec.modules[*].components[*].", "^.spec.modules[*].initContainer[*]."}
	type vault struct {
		Path  string // the path the message names
		Paths []string
	}
	vaultFindings := func(perEdge bool) []vault {
		var out []vault
		for _, f := range Validate(context.Background(), cfg, WithChecks(CheckCRD), WithPerEdge(perEdge)).Findings {
			if f.Rule != "crd-upgrade/field-removed" || !strings.Contains(f.Message, ".vault") {
				continue
			}
			_, after, _ := strings.Cut(f.Message, " v1 ")
			path, _, _ := strings.Cut(after, ": ")
			out = append(out, vault{path, f.Paths})
		}
		return out
	}
	var folded, perEdge []vault
	for _, field := range []string{"vaultAddress", "vaultRole"} {
		v := vault{Path: places[0] + field + " and 6 more places"}
		for _, p := range places {
			v.Paths = append(v.Paths, p+field)
			perEdge = append(perEdge, vault{p + field, []string{p + field}})
		}
		folded = append(folded, v)
	}
	if diff := cmp.Diff(folded, vaultFindings(false)); diff != "" {
		t.Errorf("folded findings (-want +got):\n%s", diff)
	}
	got := vaultFindings(true)
	slices.SortFunc(got, func(a, b vault) int { return strings.Compare(a.Path, b.Path) })
	slices.SortFunc(perEdge, func(a, b vault) int { return strings.Compare(a.Path, b.Path) })
	if diff := cmp.Diff(perEdge, got); diff != "" {
		t.Errorf("--per-edge findings (-want +got):\n%s", diff)
	}
}
