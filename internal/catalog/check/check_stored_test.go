package check

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/opack/opack/internal/fbc"
	"github.com/opack/opack/internal/finding"
)

// crdAt describes one bundle's CRD "c" for storedDrops: the versions it lists, the first being
// the storage version.
func crdAt(listed ...string) map[string]crdVersions {
	v := crdVersions{listed: map[string]bool{}, stored: []string{listed[0]}}
	for _, l := range listed {
		v.listed[l] = true
	}
	return map[string]crdVersions{"c": v}
}

func TestStoredDrops(t *testing.T) {
	for _, tc := range []struct {
		name     string
		edges    [][2]string
		versions map[string]map[string]crdVersions
		want     []string // "from -> to version: path"
	}{
		{
			name:     "drop after an earlier drop is reported once, at the first",
			edges:    [][2]string{{"a", "b"}, {"b", "c"}, {"c", "d"}},
			versions: map[string]map[string]crdVersions{"a": crdAt("v1"), "b": crdAt("v2", "v1"), "c": crdAt("v2"), "d": crdAt("v2")},
			want:     []string{"b -> c v1: a -> b -> c"},
		},
		{
			name:     "a served version never stored may go",
			edges:    [][2]string{{"a", "b"}},
			versions: map[string]map[string]crdVersions{"a": crdAt("v2", "v1"), "b": crdAt("v2")},
		},
		{
			name:  "a skip edge into a release that keeps the version",
			edges: [][2]string{{"a", "b"}, {"b", "c"}, {"a", "c"}},
			versions: map[string]map[string]crdVersions{
				"a": crdAt("v1"), "b": crdAt("v2", "v1"), "c": crdAt("v2", "v1"),
			},
		},
		{
			name:  "a skip edge that drops a still-stored version",
			edges: [][2]string{{"a", "b"}, {"b", "c"}, {"c", "d"}, {"a", "d"}},
			versions: map[string]map[string]crdVersions{
				"a": crdAt("v1"), "b": crdAt("v2", "v1"), "c": crdAt("v2", "v1"), "d": crdAt("v2"),
			},
			want: []string{"a -> d v1: a -> d", "c -> d v1: a -> b -> c -> d"},
		},
		{
			name:  "a release without the CRD passes the stored versions on",
			edges: [][2]string{{"a", "b"}, {"b", "c"}},
			versions: map[string]map[string]crdVersions{
				"a": crdAt("v1"), "b": {}, "c": crdAt("v2"),
			},
			want: []string{"b -> c v1: a -> b -> c"},
		},
		{
			name:  "a cycle ends",
			edges: [][2]string{{"a", "b"}, {"b", "a"}, {"b", "c"}},
			versions: map[string]map[string]crdVersions{
				"a": crdAt("v1"), "b": crdAt("v2", "v1"), "c": crdAt("v2"),
			},
			want: []string{"b -> a v2: b -> a", "b -> c v1: a -> b -> c"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, d := range storedDrops(tc.edges, tc.versions) {
				got = append(got, fmt.Sprintf("%s -> %s %s: %s", d.from, d.to, d.version, strings.Join(d.path, " -> ")))
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("drops (-want +got):\n%s", diff)
			}
		})
	}
}

// TestStoredVersionKokuChain: the real koku-metrics-operator chain (testdata/koku/README.md) is an
// error exactly once, at the removal, naming the releases; with skipRange edges into the releases
// after the removal, every edge that drops the version is named in that one finding.
func TestStoredVersionKokuChain(t *testing.T) {
	const pkg = "koku-metrics-operator"
	versions := []string{"0.9.2", "0.9.3", "0.9.4", "0.9.5", "0.9.6"}
	var bundles []fbc.Bundle
	for _, v := range versions {
		bundles = append(bundles, bundleFromDir(t, pkg, filepath.Join("testdata", "koku", pkg+".v"+v)))
	}
	chain := func(skipRange map[string]string) []fbc.ChannelEntry {
		var es []fbc.ChannelEntry
		for i, v := range versions {
			e := fbc.ChannelEntry{Name: pkg + ".v" + v, SkipRange: skipRange[v]}
			if i > 0 {
				e.Replaces = pkg + ".v" + versions[i-1]
			}
			es = append(es, e)
		}
		return es
	}
	for _, tc := range []struct {
		name      string
		skipRange map[string]string
		perEdge   bool
		want      []string
	}{
		{
			name: "replaces chain",
			want: []string{`package "koku-metrics-operator" edge koku-metrics-operator.v0.9.4 -> koku-metrics-operator.v0.9.5: ` +
				`upgrade koku-metrics-operator.v0.9.4 -> koku-metrics-operator.v0.9.5 (replaces in channel "stable"): ` +
				`kokumetricsconfigs.koku-metrics-cfg.openshift.io version v1alpha1: koku-metrics-operator.v0.9.5 removes it from spec.versions, ` +
				`but a cluster upgraded along koku-metrics-operator.v0.9.2 -> koku-metrics-operator.v0.9.3 -> koku-metrics-operator.v0.9.4 -> koku-metrics-operator.v0.9.5 can still have it in status.storedVersions`},
		},
		{
			name:      "skipRange into the removal",
			skipRange: map[string]string{"0.9.5": ">=0.9.2 <0.9.5"},
			want: []string{`package "koku-metrics-operator": 3 upgrade edges make the same change (koku-metrics-operator.v0.9.2 -> koku-metrics-operator.v0.9.5, ` +
				`koku-metrics-operator.v0.9.3 -> koku-metrics-operator.v0.9.5, koku-metrics-operator.v0.9.4 -> koku-metrics-operator.v0.9.5): ` +
				`kokumetricsconfigs.koku-metrics-cfg.openshift.io version v1alpha1: koku-metrics-operator.v0.9.5 removes it from spec.versions, ` +
				`but a cluster upgraded along koku-metrics-operator.v0.9.2 -> koku-metrics-operator.v0.9.5; or along koku-metrics-operator.v0.9.2 -> koku-metrics-operator.v0.9.3 -> koku-metrics-operator.v0.9.5; ` +
				`or along koku-metrics-operator.v0.9.2 -> koku-metrics-operator.v0.9.3 -> koku-metrics-operator.v0.9.4 -> koku-metrics-operator.v0.9.5 can still have it`},
		},
		{
			name:      "skipRange into the removal, per edge",
			skipRange: map[string]string{"0.9.5": ">=0.9.2 <0.9.5"},
			perEdge:   true,
			want: []string{
				`edge koku-metrics-operator.v0.9.2 -> koku-metrics-operator.v0.9.5: upgrade koku-metrics-operator.v0.9.2 -> koku-metrics-operator.v0.9.5 (skipRange in channel "stable")`,
				`edge koku-metrics-operator.v0.9.3 -> koku-metrics-operator.v0.9.5: upgrade koku-metrics-operator.v0.9.3 -> koku-metrics-operator.v0.9.5 (skipRange in channel "stable")`,
				`edge koku-metrics-operator.v0.9.4 -> koku-metrics-operator.v0.9.5: upgrade koku-metrics-operator.v0.9.4 -> koku-metrics-operator.v0.9.5 (replaces in channel "stable", skipRange in channel "stable")`,
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := catalogOf(pkg, bundles, chain(tc.skipRange)...)
			r := Validate(context.Background(), cfg, WithChecks(CheckOPM, CheckCRD), WithPerEdge(tc.perEdge))
			var errs []finding.Finding
			for _, f := range errorsOf(r, "") {
				if strings.Contains(f.Message, "[stored-version-removed]") {
					errs = append(errs, f)
				}
			}
			if len(errs) != len(tc.want) || len(errorsOf(r, "")) != len(errs) {
				t.Fatalf("want %d stored-version error(s) and no other error, got:\n%s", len(tc.want), findingsText(r.Findings))
			}
			for i, want := range tc.want {
				if got := errs[i].Object + ": " + errs[i].Message; !strings.Contains(got, want) {
					t.Errorf("finding %d:\n got %s\nwant it to contain %s", i, got, want)
				}
			}
		})
	}
}
