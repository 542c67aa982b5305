package diff

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/opack/opack/internal/fbc"
)

// packagesOf returns the packages cfg holds a blob of (blobs that name no package aside).
func packagesOf(cfg *fbc.DeclarativeConfig) map[string]bool {
	out := cfg.PackageNames()
	delete(out, "")
	return out
}

// onlyPackages keeps the blobs of cfg that belong to one of pkgs.
func onlyPackages(cfg *fbc.DeclarativeConfig, pkgs map[string]bool) *fbc.DeclarativeConfig {
	out := &fbc.DeclarativeConfig{}
	for _, p := range cfg.Packages {
		if pkgs[p.Name] {
			out.Packages = append(out.Packages, p)
		}
	}
	for _, c := range cfg.Channels {
		if pkgs[c.Package] {
			out.Channels = append(out.Channels, c)
		}
	}
	for _, b := range cfg.Bundles {
		if pkgs[b.Package] {
			out.Bundles = append(out.Bundles, b)
		}
	}
	for _, d := range cfg.Deprecations {
		if pkgs[d.Package] {
			out.Deprecations = append(out.Deprecations, d)
		}
	}
	for _, o := range cfg.Others {
		if pkgs[o.Package] {
			out.Others = append(out.Others, o)
		}
	}
	return out
}

func mergeConfigs(a, b *fbc.DeclarativeConfig) *fbc.DeclarativeConfig {
	return &fbc.DeclarativeConfig{
		Packages:     append(slices.Clip(a.Packages), b.Packages...),
		Channels:     append(slices.Clip(a.Channels), b.Channels...),
		Bundles:      append(slices.Clip(a.Bundles), b.Bundles...),
		Deprecations: append(slices.Clip(a.Deprecations), b.Deprecations...),
		Others:       append(slices.Clip(a.Others), b.Others...),
	}
}

// packageSum hashes the blobs of package p in cfg, in no particular order: two sides with the
// same blobs, wherever they are written, have the same sum.
func packageSum(cfg *fbc.DeclarativeConfig, p string) []byte {
	var sums [][]byte
	add := func(v any) {
		data, err := json.Marshal(v)
		if err != nil {
			data = []byte(fmt.Sprint(v))
		}
		s := sha256.Sum256(data)
		sums = append(sums, s[:])
	}
	one := onlyPackages(cfg, map[string]bool{p: true})
	for _, x := range one.Packages {
		add(x)
	}
	for _, x := range one.Channels {
		add(x)
	}
	for _, x := range one.Bundles {
		add(x)
	}
	for _, x := range one.Deprecations {
		add(x)
	}
	for _, x := range one.Others {
		add(x)
	}
	if len(sums) == 0 {
		return nil
	}
	slices.SortFunc(sums, bytes.Compare)
	h := sha256.New()
	for _, s := range sums {
		h.Write(s)
	}
	return h.Sum(nil)
}
