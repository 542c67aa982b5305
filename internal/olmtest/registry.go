package olmtest

import (
	"context"
	"errors"
	"io"
	"os"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/operator-framework/operator-registry/alpha/declcfg"
	"github.com/operator-framework/operator-registry/alpha/model"
	"github.com/operator-framework/operator-registry/pkg/api"
)

// served is what a registry answers about one bundle, the fields compared with the catalog.
type served struct {
	CSVName, Package, Channel, BundlePath, Version, SkipRange string
	Properties                                                []string // types; the server passes bundle objects in Object
	Objects                                                   int
	HasCSV                                                    bool
}

// Counts says how much CompareWithFBC compared.
type Counts struct{ Packages, Channels, Bundles int }

// CompareWithFBC queries the registry of pod over gRPC (ListPackages, GetPackage, GetBundleForChannel,
// GetBundle for every bundle of every channel) and reports every difference from the file-based
// catalog in fbcDir, read with operator-registry's declcfg and model (what opm serves from).
func CompareWithFBC(t testing.TB, pod *Pod, fbcDir string) Counts {
	t.Helper()
	ctx := t.Context()
	cfg, err := declcfg.LoadFS(ctx, os.DirFS(fbcDir))
	if err != nil {
		t.Fatalf("loading %s: %v", fbcDir, err)
	}
	m, err := declcfg.ConvertToModel(*cfg)
	if err != nil {
		t.Fatalf("reading %s as opm does: %v", fbcDir, err)
	}
	var want []string
	for name := range m {
		want = append(want, name)
	}
	sort.Strings(want)
	if d := cmp.Diff(want, listPackages(ctx, t, pod.Client)); d != "" {
		t.Errorf("ListPackages (-catalog +served):\n%s", d)
	}
	var n Counts
	for _, name := range want {
		pkg := m[name]
		n.Packages++
		got, err := pod.Client.GetPackage(ctx, &api.GetPackageRequest{Name: name})
		if err != nil {
			t.Errorf("GetPackage(%s): %v", name, err)
			continue
		}
		if got.DefaultChannelName != pkg.DefaultChannel.Name {
			t.Errorf("GetPackage(%s) default channel %q, catalog %q", name, got.DefaultChannelName, pkg.DefaultChannel.Name)
		}
		wantHeads, gotHeads := map[string]string{}, map[string]string{}
		for _, ch := range got.Channels {
			gotHeads[ch.Name] = ch.CsvName
		}
		for _, ch := range pkg.Channels {
			n.Channels++
			head, err := ch.Head()
			if err != nil {
				t.Fatalf("catalog %s: package %s channel %s: %v", fbcDir, name, ch.Name, err)
			}
			wantHeads[ch.Name] = head.Name
			b, err := pod.Client.GetBundleForChannel(ctx, &api.GetBundleInChannelRequest{PkgName: name, ChannelName: ch.Name})
			if err != nil {
				t.Errorf("GetBundleForChannel(%s, %s): %v", name, ch.Name, err)
			} else if b.CsvName != head.Name {
				t.Errorf("GetBundleForChannel(%s, %s) = %s, catalog head %s", name, ch.Name, b.CsvName, head.Name)
			}
			n.Bundles += compareBundles(ctx, t, pod.Client, ch)
		}
		if d := cmp.Diff(wantHeads, gotHeads); d != "" {
			t.Errorf("GetPackage(%s) channel heads (-catalog +served):\n%s", name, d)
		}
	}
	return n
}

func compareBundles(ctx context.Context, t testing.TB, c api.RegistryClient, ch *model.Channel) int {
	t.Helper()
	var names []string
	for name := range ch.Bundles {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		b := ch.Bundles[name]
		want := expectServed(b, ch.Name)
		got, err := c.GetBundle(ctx, &api.GetBundleRequest{PkgName: b.Package.Name, ChannelName: ch.Name, CsvName: name})
		if err != nil {
			t.Errorf("GetBundle(%s, %s, %s): %v", b.Package.Name, ch.Name, name, err)
			continue
		}
		g := served{CSVName: got.CsvName, Package: got.PackageName, Channel: got.ChannelName, BundlePath: got.BundlePath,
			Version: got.Version, SkipRange: got.SkipRange, Properties: servedProps(got), Objects: len(got.Object), HasCSV: got.CsvJson != ""}
		if d := cmp.Diff(want, g); d != "" {
			t.Errorf("GetBundle(%s, %s, %s) (-catalog +served):\n%s", b.Package.Name, ch.Name, name, d)
		}
	}
	return len(names)
}

// expectServed is what the registry API documents for a catalog bundle: bundle objects travel in
// Object, not in Properties; a bundle described by an olm.csv.metadata property (no CSV object) is
// served with a CSV made from it, also its one object.
func expectServed(b *model.Bundle, channel string) served {
	s := served{CSVName: b.Name, Package: b.Package.Name, Channel: channel, BundlePath: b.Image,
		Version: b.Version.String(), SkipRange: b.SkipRange, Objects: len(b.Objects), HasCSV: b.CsvJSON != ""}
	csvMetadata := false
	for _, p := range b.Properties {
		switch p.Type {
		case "olm.bundle.object":
		case "olm.csv.metadata":
			csvMetadata = true
		default:
			s.Properties = append(s.Properties, p.Type)
		}
	}
	sort.Strings(s.Properties)
	if !s.HasCSV && csvMetadata {
		s.HasCSV = true
		if s.Objects == 0 {
			s.Objects = 1
		}
	}
	return s
}

func servedProps(b *api.Bundle) []string {
	var out []string
	for _, p := range b.Properties {
		out = append(out, p.Type)
	}
	sort.Strings(out)
	return out
}

func listPackages(ctx context.Context, t testing.TB, c api.RegistryClient) []string {
	t.Helper()
	stream, err := c.ListPackages(ctx, &api.ListPackageRequest{})
	if err != nil {
		t.Fatalf("ListPackages: %v", err)
	}
	var out []string
	for {
		p, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("ListPackages: %v", err)
		}
		out = append(out, p.Name)
	}
	sort.Strings(out)
	return out
}
