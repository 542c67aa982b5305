package upgrades

import (
	"bytes"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/opack/opack/internal/fbc"
)

// The synthetic corners. Each want names the rule of docs/upgrades.md that gives it:
//   v0-2: an entry replaces the installed CSV when its replaces or skips names it or its skipRange
//         includes its version (resolver.go:244, predicates.go:192-220);
//   v0-3: the candidate nearest the head in sortChannel's replaces order wins (resolver.go:315,
//         :335-356, constraints.go:133-138);
//   v0-4: skipped entries are never candidates (resolver.go:642-644); olm.deprecated is prohibited
//         (variable_types.go:73-79); olm.deprecations changes nothing;
//   v0-6: no candidate, no InstallPlan;
//   v1-1/2: candidates are successors in the channel (replaces, skips, skipRange) or the installed
//         version itself (successors.go:40-96, catalog.go:100-121);
//   v1-3: non-deprecated first, then the highest version (catalog.go:139-146, compare.go:44-75);
//   v1-4: the next reconcile resolves again from the new bundle.

const pkg = "op"

// b is the bundle name of version v.
func b(v string) string { return pkg + ".v" + v }

// channel is a channel's entries.
type channel []fbc.ChannelEntry

// model builds a package "op" whose default channel is the first of names, with a bundle for
// every entry; deprecated bundles are listed in olm.deprecations, prohibited ones carry the
// legacy olm.deprecated property.
func model(t *testing.T, chans map[string]channel, names []string, deprecated, prohibited []string) *fbc.Model {
	t.Helper()
	cfg := &fbc.DeclarativeConfig{Packages: []fbc.Package{{Schema: fbc.SchemaPackage, Name: pkg, DefaultChannel: names[0]}}}
	seen := map[string]bool{}
	for _, cn := range names {
		cfg.Channels = append(cfg.Channels, fbc.Channel{Schema: fbc.SchemaChannel, Name: cn, Package: pkg, Entries: chans[cn]})
		for _, e := range chans[cn] {
			if seen[e.Name] {
				continue
			}
			seen[e.Name] = true
			props := []fbc.Property{{Type: fbc.TypePackage, Value: []byte(`{"packageName":"op","version":"` + strings.TrimPrefix(e.Name, pkg+".v") + `"}`)}}
			for _, p := range prohibited {
				if p == e.Name {
					props = append(props, fbc.Property{Type: "olm.deprecated", Value: []byte(`{}`)})
				}
			}
			cfg.Bundles = append(cfg.Bundles, fbc.Bundle{Schema: fbc.SchemaBundle, Name: e.Name, Package: pkg, Image: "example.com/op:" + e.Name, Properties: props})
		}
	}
	if len(deprecated) > 0 {
		d := fbc.Deprecation{Schema: fbc.SchemaDeprecations, Package: pkg}
		for _, n := range deprecated {
			d.Entries = append(d.Entries, fbc.DeprecationEntry{Reference: fbc.PackageScopedReference{Schema: fbc.SchemaBundle, Name: n}, Message: "no"})
		}
		cfg.Deprecations = []fbc.Deprecation{d}
	}
	m, probs := fbc.Convert(cfg)
	if len(probs) > 0 {
		t.Fatalf("fbc.Convert: %v", probs)
	}
	return m
}

// path is one release's answer in one channel.
type path struct {
	V0       []string
	V0Stop   string
	V1       []string
	Stranded []string
}

func paths(res *Result) map[string]path {
	out := map[string]path{}
	for _, c := range res.Channels {
		for _, r := range c.Releases {
			out[c.Name+"/"+displayRelease(&r)+"@"+r.Version] = path{V0: r.V0Path, V0Stop: r.V0Stop, V1: r.V1Path, Stranded: r.StrandedIn}
		}
	}
	return out
}

func p(v0 []string, stop string, v1 []string, stranded ...string) path {
	if v0 == nil {
		v0 = []string{}
	}
	if v1 == nil {
		v1 = []string{}
	}
	return path{V0: v0, V0Stop: stop, V1: v1, Stranded: stranded}
}

func TestCompute(t *testing.T) {
	e := func(name, replaces, skipRange string, skips ...string) fbc.ChannelEntry {
		return fbc.ChannelEntry{Name: name, Replaces: replaces, SkipRange: skipRange, Skips: skips}
	}
	chain := channel{e(b("1.0.0"), "", ""), e(b("1.1.0"), b("1.0.0"), ""), e(b("1.2.0"), b("1.1.0"), "")}
	for _, tc := range []struct {
		name       string
		chans      map[string]channel
		names      []string
		deprecated []string
		prohibited []string
		req        Request
		want       map[string]path
	}{{
		// v0-2/v1-2: only replaces; each step takes the next entry; v1-4 walks the same chain.
		name: "replaces chain", chans: map[string]channel{"stable": chain}, names: []string{"stable"},
		want: map[string]path{
			"stable/op.v1.2.0@1.2.0": p(nil, StopHead, nil),
			"stable/op.v1.1.0@1.1.0": p([]string{b("1.2.0")}, StopHead, []string{b("1.2.0")}),
			"stable/op.v1.0.0@1.0.0": p([]string{b("1.1.0"), b("1.2.0")}, StopHead, []string{b("1.1.0"), b("1.2.0")}),
		},
	}, {
		// v0-2: skips counts like replaces; v0-3: 1.2.0 (head) is nearer the head than 1.1.0.
		// v1-3: 1.2.0 is the highest successor of 1.0.0.
		name: "skips",
		chans: map[string]channel{"stable": {e(b("1.0.0"), "", ""), e(b("1.1.0"), b("1.0.0"), ""),
			e(b("1.2.0"), b("1.1.0"), "", b("1.0.0"))}},
		names: []string{"stable"},
		req:   Request{From: b("1.0.0")},
		want: map[string]path{
			"stable/op.v1.0.0@1.0.0": p([]string{b("1.2.0")}, StopHead, []string{b("1.2.0")}),
		},
	}, {
		// v0-3: the head's skipRange wins over 1.1.0's replaces; v1-3: the highest successor.
		name: "skipRange on the head",
		chans: map[string]channel{"stable": {e(b("1.0.0"), "", ""), e(b("1.1.0"), b("1.0.0"), ""),
			e(b("1.2.0"), b("1.1.0"), "<1.2.0")}},
		names: []string{"stable"},
		req:   Request{From: "1.0.0"},
		want: map[string]path{
			"stable/op.v1.0.0@1.0.0": p([]string{b("1.2.0")}, StopHead, []string{b("1.2.0")}),
		},
	}, {
		// v0-2: 1.1.0's skipRange on a non-head entry counts; v0-3: 1.1.0 is nearer the head than
		// 1.0.1, so from 1.0.0 OLM v0 jumps to 1.1.0, then 1.2.0; v1 picks 1.1.0 (highest of 1.0.1, 1.1.0).
		name: "skipRange on a non-head entry",
		chans: map[string]channel{"stable": {e(b("1.0.0"), "", ""), e(b("1.0.1"), b("1.0.0"), ""),
			e(b("1.1.0"), b("1.0.1"), "<1.1.0"), e(b("1.2.0"), b("1.1.0"), "")}},
		names: []string{"stable"},
		want: map[string]path{
			"stable/op.v1.2.0@1.2.0": p(nil, StopHead, nil),
			"stable/op.v1.1.0@1.1.0": p([]string{b("1.2.0")}, StopHead, []string{b("1.2.0")}),
			"stable/op.v1.0.1@1.0.1": p([]string{b("1.1.0"), b("1.2.0")}, StopHead, []string{b("1.1.0"), b("1.2.0")}),
			"stable/op.v1.0.0@1.0.0": p([]string{b("1.1.0"), b("1.2.0")}, StopHead, []string{b("1.1.0"), b("1.2.0")}),
		},
	}, {
		// Candidates come from the subscription's channel only (resolver.go:253; catalog.go:100-105):
		// 1.0.0 goes straight to 1.2.0 in stable, through 1.1.0 in fast.
		name: "two channels sharing bundles",
		chans: map[string]channel{
			"stable": {e(b("1.0.0"), "", ""), e(b("1.2.0"), b("1.0.0"), "")},
			"fast":   chain,
		},
		names: []string{"stable", "fast"},
		req:   Request{From: "1.0.0"},
		want: map[string]path{
			"stable/op.v1.0.0@1.0.0": p([]string{b("1.2.0")}, StopHead, []string{b("1.2.0")}),
			"fast/op.v1.0.0@1.0.0":   p([]string{b("1.1.0"), b("1.2.0")}, StopHead, []string{b("1.1.0"), b("1.2.0")}),
		},
	}, {
		// --from a bundle of one channel only lists that channel.
		name: "from a bundle of one channel",
		chans: map[string]channel{
			"stable": {e(b("1.0.0"), "", ""), e(b("1.2.0"), b("1.0.0"), "")},
			"fast":   chain,
		},
		names: []string{"stable", "fast"},
		req:   Request{From: b("1.1.0")},
		want: map[string]path{
			"fast/op.v1.1.0@1.1.0": p([]string{b("1.2.0")}, StopHead, []string{b("1.2.0")}),
		},
	}, {
		// A channel switch: 1.1.0 was installed from stable and the Subscription (ClusterExtension)
		// now names candidate, which does not hold 1.1.0. Both OLMs start from the installed CSV
		// (resolver.go:88-97 finds it by status.installedCSV; successors.go:40-56 take the
		// installed bundle's name and version): candidate's 2.0.0 covers 1.1.0 with its skipRange.
		name: "channel switch to a channel without the installed release",
		chans: map[string]channel{
			"stable":    {e(b("1.0.0"), "", ""), e(b("1.1.0"), b("1.0.0"), "")},
			"candidate": {e(b("2.0.0"), "", "<2.0.0")},
		},
		names: []string{"stable", "candidate"},
		req:   Request{Channel: "candidate", From: b("1.1.0")},
		want: map[string]path{
			"candidate/op.v1.1.0@1.1.0": p([]string{b("2.0.0")}, StopHead, []string{b("2.0.0")}),
		},
	}, {
		// v0-4: olm.deprecations does not change OLM v0 (head skipRange wins, v0-3). v1-3: the
		// deprecated head sorts after 1.1.0 and after the installed 1.1.0 itself: OLM v1 stops at
		// 1.1.0, stranded in v1 only.
		name: "deprecated bundle (olm.deprecations)",
		chans: map[string]channel{"stable": {e(b("1.0.0"), "", ""), e(b("1.1.0"), b("1.0.0"), ""),
			e(b("1.2.0"), b("1.1.0"), "<1.2.0")}},
		names:      []string{"stable"},
		deprecated: []string{b("1.2.0")},
		want: map[string]path{
			"stable/op.v1.2.0@1.2.0": p(nil, StopHead, nil),
			"stable/op.v1.1.0@1.1.0": p([]string{b("1.2.0")}, StopHead, nil, "v1"),
			"stable/op.v1.0.0@1.0.0": p([]string{b("1.2.0")}, StopHead, []string{b("1.1.0")}, "v1"),
		},
	}, {
		// v0-4: 1.1.0 carries olm.deprecated: OLM v0 never installs it, so 1.0.0 has no upgrade
		// (v0-6); OLM v1 ignores the property (v1-2).
		name:       "deprecated bundle (olm.deprecated property)",
		chans:      map[string]channel{"stable": chain},
		names:      []string{"stable"},
		prohibited: []string{b("1.1.0")},
		req:        Request{From: b("1.0.0")},
		want: map[string]path{
			"stable/op.v1.0.0@1.0.0": p(nil, StopNoUpgrade, []string{b("1.1.0"), b("1.2.0")}, "v0"),
		},
	}, {
		// 1.1.0 was removed and 1.2.0 now replaces 1.0.0: a cluster still on 1.1.0 finds no entry
		// replacing, skipping or covering it (v0-6, v1-1: stays) — stranded in both.
		name: "bundle removed from the middle",
		chans: map[string]channel{"stable": {e(b("1.0.0"), "", ""), e(b("1.2.0"), b("1.0.0"), ""),
			e(b("1.3.0"), b("1.2.0"), "")}},
		names: []string{"stable"},
		req:   Request{From: b("1.1.0") + "@1.1.0"},
		want: map[string]path{
			"stable/op.v1.1.0@1.1.0": p(nil, StopNoUpgrade, nil, "v0", "v1"),
		},
	}, {
		// The same cluster, once 1.3.0 has skipRange <1.3.0: both OLMs take it there (v0-2, v1-2).
		name: "removed release covered by a skipRange",
		chans: map[string]channel{"stable": {e(b("1.0.0"), "", ""), e(b("1.2.0"), b("1.0.0"), ""),
			e(b("1.3.0"), b("1.2.0"), "<1.3.0")}},
		names: []string{"stable"},
		req:   Request{From: "1.1.0"},
		want: map[string]path{
			"stable/1.1.0@1.1.0": p([]string{b("1.3.0")}, StopHead, []string{b("1.3.0")}),
		},
	}, {
		// 1.2.0 skips 1.1.0 and 1.3.0 skips 1.2.0: 1.2.0 is not in sortChannel's order (v0-4), so
		// from 1.1.0 OLM v0 has no candidate (stranded in v0); OLM v1 goes 1.2.0 then 1.3.0.
		name: "successor that is itself skipped",
		chans: map[string]channel{"stable": {e(b("1.0.0"), "", ""), e(b("1.1.0"), "", ""),
			e(b("1.2.0"), "", "", b("1.1.0")), e(b("1.3.0"), b("1.0.0"), "", b("1.2.0"))}},
		names: []string{"stable"},
		want: map[string]path{
			"stable/op.v1.3.0@1.3.0": p(nil, StopHead, nil),
			"stable/op.v1.2.0@1.2.0": p([]string{b("1.3.0")}, StopHead, []string{b("1.3.0")}),
			"stable/op.v1.1.0@1.1.0": p(nil, StopNoUpgrade, []string{b("1.2.0"), b("1.3.0")}, "v0"),
			"stable/op.v1.0.0@1.0.0": p([]string{b("1.3.0")}, StopHead, []string{b("1.3.0")}),
		},
	}, {
		// 1.0.0 is in the ranges of 1.1.0 and 1.2.0, not 1.3.0's: v0-3 takes 1.2.0 (nearest the
		// head), then 1.3.0 (replaces 1.2.0); from 1.1.0 1.3.0's range wins at once. v1-3: the
		// highest successor, the same here.
		name: "version in several skipRanges",
		chans: map[string]channel{"stable": {e(b("1.0.0"), "", ""), e(b("1.1.0"), b("1.0.0"), "<1.1.0"),
			e(b("1.2.0"), b("1.1.0"), "<1.2.0"), e(b("1.3.0"), b("1.2.0"), ">=1.1.0 <1.3.0")}},
		names: []string{"stable"},
		want: map[string]path{
			"stable/op.v1.3.0@1.3.0": p(nil, StopHead, nil),
			"stable/op.v1.2.0@1.2.0": p([]string{b("1.3.0")}, StopHead, []string{b("1.3.0")}),
			"stable/op.v1.1.0@1.1.0": p([]string{b("1.3.0")}, StopHead, []string{b("1.3.0")}),
			"stable/op.v1.0.0@1.0.0": p([]string{b("1.2.0"), b("1.3.0")}, StopHead, []string{b("1.2.0"), b("1.3.0")}),
		},
	}, {
		// 1.1.0's skipRange <1.3.0 covers the head 1.2.0: v0-2/v0-3 make OLM v0 "upgrade" the head
		// to 1.1.0, then 1.2.0 replaces 1.1.0 again: a cycle. v1-3 keeps the head (1.1.0 is lower).
		name: "skipRange covering a later release (cycle)",
		chans: map[string]channel{"stable": {e(b("1.0.0"), "", ""), e(b("1.1.0"), b("1.0.0"), "<1.3.0"),
			e(b("1.2.0"), b("1.1.0"), "")}},
		names: []string{"stable"},
		req:   Request{From: b("1.2.0")},
		want: map[string]path{
			"stable/op.v1.2.0@1.2.0": p([]string{b("1.1.0")}, StopCycle, nil),
		},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			m := model(t, tc.chans, tc.names, tc.deprecated, tc.prohibited)
			req := tc.req
			req.Package = pkg
			res, err := Compute(m, req)
			if err != nil {
				t.Fatalf("Compute: %v", err)
			}
			if diff := cmp.Diff(tc.want, paths(res)); diff != "" {
				t.Errorf("paths (-want +got):\n%s", diff)
			}
			sameStranded(t, m, pkg)
		})
	}
}

func TestComputeErrors(t *testing.T) {
	m := model(t, map[string]channel{"stable": {{Name: b("1.0.0")}}}, []string{"stable"}, nil, nil)
	for _, tc := range []struct {
		name string
		req  Request
		want string
	}{
		{"unknown package", Request{Package: "nope"}, `package "nope" is not in the catalog`},
		{"unknown channel", Request{Package: pkg, Channel: "fast"}, `channel "fast" is not in package "op" (channels: stable)`},
		{"bad from", Request{Package: pkg, From: "x.y"}, `reading --from "x.y": not a bundle of package "op", a version or NAME@VERSION`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Compute(m, tc.req)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Compute error = %v, want it to contain %q", err, tc.want)
			}
		})
	}
}

// TestFromAnotherChannel checks the flags of a release given with --from and --channel that
// is a bundle of another channel (a channel switch), and that without --channel such a release
// is only listed in its own channels.
func TestFromAnotherChannel(t *testing.T) {
	m := model(t, map[string]channel{
		"stable":    {{Name: b("1.0.0")}, {Name: b("1.1.0"), Replaces: b("1.0.0")}},
		"candidate": {{Name: b("2.0.0"), SkipRange: "<2.0.0"}},
	}, []string{"stable", "candidate"}, []string{b("1.1.0")}, nil)
	type flags struct {
		Channel                    string
		NotInCatalog, NotInChannel bool
		Deprecated                 bool
	}
	for _, tc := range []struct {
		name string
		req  Request
		want []flags
	}{
		{"with --channel", Request{Package: pkg, Channel: "candidate", From: b("1.1.0")},
			[]flags{{Channel: "candidate", NotInChannel: true, Deprecated: true}}},
		{"by version with --channel", Request{Package: pkg, Channel: "candidate", From: "1.1.0"},
			[]flags{{Channel: "candidate", NotInChannel: true, Deprecated: true}}},
		{"without --channel", Request{Package: pkg, From: b("1.1.0")},
			[]flags{{Channel: "stable", Deprecated: true}}},
		{"removed release with --channel", Request{Package: pkg, Channel: "candidate", From: b("0.9.0") + "@0.9.0"},
			[]flags{{Channel: "candidate", NotInCatalog: true}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := Compute(m, tc.req)
			if err != nil {
				t.Fatalf("Compute: %v", err)
			}
			var got []flags
			for _, c := range res.Channels {
				for _, r := range c.Releases {
					got = append(got, flags{Channel: c.Name, NotInCatalog: r.NotInCatalog, NotInChannel: r.NotInChannel, Deprecated: r.Deprecated})
				}
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("releases (-want +got):\n%s", diff)
			}
		})
	}
}

func TestUnresolvableChannel(t *testing.T) {
	// Two entries nothing replaces: sortChannel fails (resolver.go:669), OLM v0 resolves nothing.
	m := model(t, map[string]channel{"stable": {{Name: b("1.0.0")}, {Name: b("1.1.0"), SkipRange: "<1.1.0"}}}, []string{"stable"}, nil, nil)
	res, err := Compute(m, Request{Package: pkg, From: "1.0.0"})
	if err != nil {
		t.Fatalf("Compute: %v", err)
	}
	got := res.Channels[0]
	if !strings.Contains(got.V0Error, "2 replacement chains") || got.Releases[0].V0Stop != StopUnresolvable {
		t.Errorf("V0Error = %q, V0Stop = %q; want sortChannel's error and %q", got.V0Error, got.Releases[0].V0Stop, StopUnresolvable)
	}
}

func TestWriteText(t *testing.T) {
	// 1.2.0 skips 1.1.0, 1.3.0 skips 1.2.0 and replaces 1.0.0 (the "successor that is itself
	// skipped" corner of TestCompute); 1.3.0 is deprecated, so OLM v1 stays at 1.2.0.
	m := model(t, map[string]channel{"stable": {{Name: b("1.0.0")}, {Name: b("1.1.0")},
		{Name: b("1.2.0"), Skips: []string{b("1.1.0")}}, {Name: b("1.3.0"), Replaces: b("1.0.0"), Skips: []string{b("1.2.0")}}}},
		[]string{"stable"}, []string{b("1.3.0")}, nil)
	res, err := Compute(m, Request{Package: pkg})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := WriteText(&buf, []*Result{res}); err != nil {
		t.Fatal(err)
	}
	want := `package op (default channel stable)

channel stable (head op.v1.3.0)
  1.3.0  op.v1.3.0 [deprecated]  (head)
  1.2.0  op.v1.2.0
    v0: 1.2.0 → 1.3.0 (head)
    v1: stays at 1.2.0: successor op.v1.3.0 is deprecated (sorted after the installed bundle)
  1.1.0  op.v1.1.0
    v0: stays at 1.1.0: op.v1.2.0 upgrades it but is skipped by op.v1.3.0 (a skipped entry is never installed)
    v1: 1.1.0 → 1.2.0 (stops: successor op.v1.3.0 is deprecated (sorted after the installed bundle))
  1.0.0  op.v1.0.0
    v0: 1.0.0 → 1.3.0 (head)
    v1: stays at 1.0.0: successor op.v1.3.0 is deprecated (sorted after the installed bundle)
  stranded, never brought to the head 1.3.0: 1.2.0 (v1), 1.1.0 (v0, v1), 1.0.0 (v1)
`
	if diff := cmp.Diff(want, buf.String()); diff != "" {
		t.Errorf("WriteText (-want +got):\n%s", diff)
	}
}

func TestWriteMermaid(t *testing.T) {
	m := model(t, map[string]channel{"stable": {{Name: b("1.0.0")}, {Name: b("1.1.0"), Replaces: b("1.0.0")}, {Name: b("1.2.0"), Replaces: b("1.1.0"), SkipRange: "<1.2.0"}}}, []string{"stable"}, nil, nil)
	res, err := Compute(m, Request{Package: pkg, From: "1.0.0"})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := WriteMermaid(&buf, m, []*Result{res}); err != nil {
		t.Fatal(err)
	}
	want := `graph LR
  %% thick green: the upgrades OLM v0 performs; dashed blue: OLM v1's where they differ; red: stranded releases
  ` + strandedClass + `
  %% package "op"
  subgraph c0["op / stable"]
    c0_n0["op.v1.2.0<br>1.2.0<br>(head)"]
    c0_n1["op.v1.1.0<br>1.1.0"]
    c0_n2["op.v1.0.0<br>1.0.0"]
    c0_n2 -- replaces --> c0_n1
    c0_n2 -- skipRange --> c0_n0
    c0_n1 -- replaces,skipRange --> c0_n0
  end
linkStyle 1 ` + v0LinkStyle + `
`
	if diff := cmp.Diff(want, buf.String()); diff != "" {
		t.Errorf("WriteMermaid (-want +got):\n%s", diff)
	}
}

// sameStranded checks that Stranded names the releases Compute reports as stranded, stopping
// where Compute's paths stop.
func sameStranded(t *testing.T, m *fbc.Model, pn string) {
	t.Helper()
	res, err := Compute(m, Request{Package: pn})
	if err != nil {
		t.Fatalf("Compute(%s): %v", pn, err)
	}
	var want []StrandedChannel
	for _, c := range res.Channels {
		sc := StrandedChannel{Channel: c.Name, Head: c.Head}
		for _, r := range c.Releases {
			if len(r.StrandedIn) == 0 {
				continue
			}
			sr := StrandedRelease{Name: r.Name, Version: r.Version}
			for _, olm := range r.StrandedIn {
				path := r.V0Path
				if olm == "v1" {
					path = r.V1Path
				}
				stop := r.Name
				if len(path) > 0 {
					stop = path[len(path)-1]
				}
				if olm == "v1" {
					sr.V1Stop = stop
				} else {
					sr.V0Stop = stop
				}
			}
			sc.Releases = append(sc.Releases, sr)
		}
		if len(sc.Releases) > 0 {
			want = append(want, sc)
		}
	}
	if diff := cmp.Diff(want, Stranded(m, pn)); diff != "" {
		t.Errorf("Stranded(%s) (-from Compute +got):\n%s", pn, diff)
	}
}

// TestWriteJSON pins the JSON shape docs/upgrades.md documents.
func TestWriteJSON(t *testing.T) {
	m := model(t, map[string]channel{"stable": {{Name: b("1.0.0")}, {Name: b("1.2.0"), Replaces: b("1.0.0")}}}, []string{"stable"}, nil, nil)
	res, err := Compute(m, Request{Package: pkg, From: b("1.1.0") + "@1.1.0"})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := WriteJSON(&buf, []*Result{res}); err != nil {
		t.Fatal(err)
	}
	want := `{
  "packages": [
    {
      "package": "op",
      "defaultChannel": "stable",
      "channels": [
        {
          "name": "stable",
          "head": "op.v1.2.0",
          "releases": [
            {
              "name": "op.v1.1.0",
              "version": "1.1.0",
              "notInCatalog": true,
              "v0Path": [],
              "v0Stop": "no-upgrade",
              "v1Path": [],
              "strandedIn": [
                "v0",
                "v1"
              ]
            }
          ],
          "stranded": [
            "op.v1.1.0"
          ]
        }
      ]
    }
  ]
}
`
	if diff := cmp.Diff(want, buf.String()); diff != "" {
		t.Errorf("WriteJSON (-want +got):\n%s", diff)
	}
}
