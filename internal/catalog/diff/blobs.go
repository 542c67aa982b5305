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

// onlyPackages keeps the blobs of cfg that belong to one of pkgs, in new slices of the size they need
// (a catalog of 100,000 bundles is copied several times a diff).
func onlyPackages(cfg *fbc.DeclarativeConfig, pkgs map[string]bool) *fbc.DeclarativeConfig {
	return &fbc.DeclarativeConfig{
		Packages:     keep(cfg.Packages, func(p *fbc.Package) bool { return pkgs[p.Name] }),
		Channels:     keep(cfg.Channels, func(c *fbc.Channel) bool { return pkgs[c.Package] }),
		Bundles:      keep(cfg.Bundles, func(b *fbc.Bundle) bool { return pkgs[b.Package] }),
		Deprecations: keep(cfg.Deprecations, func(d *fbc.Deprecation) bool { return pkgs[d.Package] }),
		Others:       keep(cfg.Others, func(o *fbc.Meta) bool { return pkgs[o.Package] }),
	}
}

// keep returns the elements of list that ok accepts, as a new slice (nil for none).
func keep[T any](list []T, ok func(*T) bool) []T {
	n := 0
	for i := range list {
		if ok(&list[i]) {
			n++
		}
	}
	if n == 0 {
		return nil
	}
	out := make([]T, 0, n)
	for i := range list {
		if ok(&list[i]) {
			out = append(out, list[i])
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
