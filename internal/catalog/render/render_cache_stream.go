package render

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"sort"

	"github.com/opack/opack/internal/fbc"
)

// RenderTo renders every reference and writes the catalog to w in format ("json" or "yaml"):
// byte for byte what Write writes for what Render returns. Bundle folders are not decoded into
// the model: each becomes its blob (the bytes the output holds for it), which for a cached
// bundle is read from the cache only when its turn to be written comes. What is held for every
// bundle at once is where it sorts (package and name), plus the blobs rendered in this call.
// Nothing is written before every reference rendered, so a failing reference writes nothing.
func (r *Renderer) RenderTo(ctx context.Context, w io.Writer, format string, refs ...string) error {
	if format != "json" && format != "yaml" {
		return fmt.Errorf("unknown output format %q: use one of json, yaml", format)
	}
	perRef := make([][]*blobItem, len(refs))
	err := r.forEachRef(ctx, refs, func(ctx context.Context, i int, ref string) error {
		var items []*blobItem
		cfg, err := r.renderOne(ctx, ref, func(dir string) error {
			it, err := r.bundleDirBlob(dir, format)
			if err == nil {
				items = append(items, it)
			}
			return err
		})
		if err != nil {
			return err
		}
		more, err := blobItems(cfg, format)
		perRef[i] = append(items, more...)
		return err
	})
	if err != nil {
		return err
	}
	var items []*blobItem
	for _, its := range perRef {
		items = append(items, its...)
	}
	sortBlobItems(items)
	return r.writeBlobItems(ctx, w, items)
}

// Ranks of the blob kinds inside a package, in the order Write writes them.
const (
	rankPackage = iota
	rankChannel
	rankBundle
	rankOther
	rankDeprecation
)

// blobItem is one blob of the output: its bytes, or the cache entry holding them.
type blobItem struct {
	pkg  string // "" only for blobs of other schemas without a package (written last)
	rank int
	name string // sorts blobs of one rank: channel and bundle name, schema of other blobs
	data []byte
	// entry holds the bytes when data is nil; if it no longer checks out, redo renders the
	// bundle again.
	entry *cacheEntry
	redo  func() (*blobItem, error)
}

// sortBlobItems puts items in the order writeBlobs writes a config holding them all, the
// items given in the order Render concatenates them (stable: equal keys keep that order).
func sortBlobItems(items []*blobItem) {
	sort.SliceStable(items, func(i, j int) bool {
		a, b := items[i], items[j]
		if (a.pkg == "") != (b.pkg == "") {
			return b.pkg == ""
		}
		if a.pkg != b.pkg {
			return a.pkg < b.pkg
		}
		if a.rank != b.rank {
			return a.rank < b.rank
		}
		return a.name < b.name
	})
}

// blobItems encodes each blob of cfg alone, as Write would, leaving out those Write drops
// (packages, channels, bundles and deprecations without a package).
func blobItems(cfg *fbc.DeclarativeConfig, format string) ([]*blobItem, error) {
	var items []*blobItem
	add := func(pkg string, rank int, name string, one *fbc.DeclarativeConfig) error {
		if pkg == "" && rank != rankOther {
			return nil
		}
		data, err := encodeBlob(one, format)
		if err != nil {
			return fmt.Errorf("encoding a blob of package %q: %w", pkg, err)
		}
		if pkg == "" || rank == rankPackage || rank == rankDeprecation {
			name = "" // written in the order given
		}
		items = append(items, &blobItem{pkg: pkg, rank: rank, name: name, data: data})
		return nil
	}
	var err error
	for _, p := range cfg.Packages {
		err = firstErr(err, add(p.Name, rankPackage, "", &fbc.DeclarativeConfig{Packages: []fbc.Package{p}}))
	}
	for _, c := range cfg.Channels {
		err = firstErr(err, add(c.Package, rankChannel, c.Name, &fbc.DeclarativeConfig{Channels: []fbc.Channel{c}}))
	}
	for _, b := range cfg.Bundles {
		err = firstErr(err, add(b.Package, rankBundle, b.Name, &fbc.DeclarativeConfig{Bundles: []fbc.Bundle{b}}))
	}
	for _, o := range cfg.Others {
		err = firstErr(err, add(o.Package, rankOther, o.Schema, &fbc.DeclarativeConfig{Others: []fbc.Meta{o}}))
	}
	for _, d := range cfg.Deprecations {
		err = firstErr(err, add(d.Package, rankDeprecation, "", &fbc.DeclarativeConfig{Deprecations: []fbc.Deprecation{d}}))
	}
	return items, err
}

func firstErr(err, next error) error {
	if err != nil {
		return err
	}
	return next
}

// bundleDirBlob is the blob of a bundle folder: the cache entry of this format and migration
// level when there is one (only its header is read now), else rendered.
func (r *Renderer) bundleDirBlob(dir, format string) (*blobItem, error) {
	key := r.dirKey(dir)
	if key != "" {
		if e, err := r.cache.header(viewKey(key, format, r.stages)); err == nil {
			redo := func() (*blobItem, error) { return r.renderBundleBlob(dir, format, key, false) }
			return &blobItem{pkg: e.pkg, rank: rankBundle, name: e.name, entry: e, redo: redo}, nil
		}
	}
	return r.renderBundleBlob(dir, format, key, true)
}

// renderBundleBlob renders the blob of a bundle folder, from the bundle stored in the cache
// when fromCache allows it (another format or migration level of it was rendered before), and
// stores what it rendered.
func (r *Renderer) renderBundleBlob(dir, format, key string, fromCache bool) (*blobItem, error) {
	vkey := viewKey(key, format, r.stages)
	var (
		b   *fbc.Bundle
		out []byte // the JSON blob without migrations, when stored now
	)
	if key != "" && fromCache && vkey != key {
		b, _ = r.cache.getBundle(key)
	}
	if b == nil {
		r.rendered.Add(1)
		var err error
		if b, err = r.parseBundleDir(dir); err != nil {
			return nil, err
		}
		normalizeBundle(b)
		if key = r.stableKey(dir, key); key != "" {
			if out, err = r.cache.putBundle(key, b); err != nil {
				fmt.Fprintf(r.warnings(), "warning: %v\n", err)
			}
		}
	}
	data := out
	if data == nil || vkey != key {
		cfg := &fbc.DeclarativeConfig{Bundles: []fbc.Bundle{*b}}
		if err := migrate(cfg, r.stages); err != nil {
			return nil, fmt.Errorf("migrate: %v", err)
		}
		var err error
		if data, err = encodeBlob(cfg, format); err != nil {
			return nil, fmt.Errorf("encoding bundle %q: %w", b.Name, err)
		}
		if key != "" && vkey != key {
			if err := r.cache.write(vkey, b.Package, b.Name, data, nil); err != nil {
				fmt.Fprintf(r.warnings(), "warning: %v\n", err)
			}
		}
	}
	return &blobItem{pkg: b.Package, rank: rankBundle, name: b.Name, data: data}, nil
}

// writeBlobItems writes the items in order. Cached blobs are read and checked a few items
// ahead, in parallel, so that reading overlaps writing while few are held at once.
//
// Only cancellation stops the writing, not ctx's deadline: the deadline bounds rendering (the
// registry timeout), and a slow reader of the output must not get it cut short — what is left
// is local reads.
func (r *Renderer) writeBlobItems(ctx context.Context, w io.Writer, items []*blobItem) error {
	parent := ctx
	ctx, cancel := context.WithCancel(context.WithoutCancel(parent))
	defer cancel()
	defer context.AfterFunc(parent, func() {
		if errors.Is(parent.Err(), context.Canceled) {
			cancel()
		}
	})()
	type fetched struct {
		data []byte
		err  error
	}
	results := make([]chan fetched, len(items))
	for i, it := range items {
		if it.entry != nil {
			results[i] = make(chan fetched, 1)
		}
	}
	window := make(chan struct{}, 2*r.workers+2)
	go func() {
		for i, it := range items {
			if it.entry == nil {
				continue
			}
			select {
			case window <- struct{}{}:
			case <-ctx.Done():
				return
			}
			go func() {
				data, err := r.cachedBlob(it)
				results[i] <- fetched{data, err}
			}()
		}
	}()
	bw := bufio.NewWriterSize(w, 256<<10)
	for i, it := range items {
		data := it.data
		if it.entry != nil {
			var f fetched
			select {
			case f = <-results[i]:
			case <-ctx.Done():
				return ctx.Err()
			}
			<-window
			if f.err != nil {
				return f.err
			}
			data = f.data
		}
		if _, err := bw.Write(data); err != nil {
			return fmt.Errorf("writing the rendered catalog: %w", err)
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("writing the rendered catalog: %w", err)
	}
	return nil
}

// cachedBlob reads the blob of a cached item; an entry that does not check out any more (it
// changed or was damaged since its header was read) is a miss: the bundle is rendered again.
func (r *Renderer) cachedBlob(it *blobItem) ([]byte, error) {
	data, err := it.entry.output()
	if err == nil {
		return data, nil
	}
	fresh, err := it.redo()
	if err != nil {
		return nil, fmt.Errorf("rendering bundle %q again (its cache entry was damaged): %w", it.name, err)
	}
	if fresh.pkg != it.pkg || fresh.name != it.name {
		return nil, fmt.Errorf("bundle %q of package %q changed while it was rendered: it is now %q of %q", it.name, it.pkg, fresh.name, fresh.pkg)
	}
	return fresh.data, nil
}
