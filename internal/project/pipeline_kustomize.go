package project

import (
	"context"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/opack/opack/internal/project/config"
	"github.com/opack/opack/internal/rootfs"

	"sigs.k8s.io/kustomize/api/konfig"
	"sigs.k8s.io/kustomize/api/types"
	"sigs.k8s.io/yaml"

	"github.com/opack/opack/internal/bundle"
	"github.com/opack/opack/internal/kustomize"
)

// kustomizeWithImages builds the kustomization with the images entries of opack.yaml applied as
// `kustomize edit set image` applies them (the Makefile's `cd config/manager && kustomize edit set
// image controller=$IMG`): in every kustomization the build reaches that lists the image, else in
// the kustomization that is built. The edited kustomizations (and the base files the
// kustomize-manifests step regenerated) are read in place of those on disk; config/ is never
// edited, and the build reads the project as it is at any depth (config/manifests/x naming
// ../../default).
func (r *run) kustomizeWithImages(ctx context.Context, base *bundle.BaseResult) ([]byte, error) {
	dir, err := filepath.Abs(r.path(r.p.KustomizeDir))
	if err != nil {
		return nil, err
	}
	root, err := filepath.Abs(r.p.Dir)
	if err != nil {
		return nil, err
	}
	files := map[string][]byte{}
	if base != nil {
		for _, f := range base.Files {
			abs, err := filepath.Abs(f.Name)
			if err != nil {
				return nil, err
			}
			files[abs] = f.Data
		}
	}
	declared := map[int]bool{} // the images entries of opack.yaml applied
	kusts, err := reachableKustomizations(root, dir, files, false)
	if err != nil {
		return nil, err
	}
	read := func(k string) ([]byte, error) {
		if data, ok := files[k]; ok {
			return data, nil
		}
		return rootfs.ReadFile(root, mustRel(root, k))
	}
	for _, k := range kusts {
		data, err := read(k)
		if err != nil {
			return nil, err
		}
		edited, err := r.setImages(data, filepath.ToSlash(mustRel(root, filepath.Dir(k))), declared)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", k, err)
		}
		if string(edited) != string(data) {
			files[k] = edited
		}
	}
	// an entry no kustomization lists is added where `kustomize edit set image` adds it: in its
	// folder's kustomization, else in the one that is built
	for i, im := range r.p.Images {
		if declared[i] {
			continue
		}
		k := ""
		if len(kusts) > 0 {
			k = kusts[0]
		}
		if im.Dir != "" {
			k = ""
			for _, c := range kusts {
				if filepath.ToSlash(mustRel(root, filepath.Dir(c))) == path.Clean(im.Dir) {
					k = c
				}
			}
			if k == "" {
				r.res.Warnings = append(r.res.Warnings, fmt.Sprintf("images[%d] (%s in %s): the kustomize build of %s does not read %s, so the image is not set", i, im.Name, im.Dir, r.p.KustomizeDir, im.Dir))
				continue
			}
		}
		if k == "" {
			return nil, fmt.Errorf("no kustomization in %s", dir)
		}
		data, err := read(k)
		if err != nil {
			return nil, err
		}
		img := types.Image{Name: im.Name, NewName: im.NewName, NewTag: strings.ReplaceAll(im.NewTag, "{{.Version}}", r.version), Digest: im.Digest}
		if files[k], err = addImages(data, []types.Image{img}); err != nil {
			return nil, fmt.Errorf("%s: %w", k, err)
		}
	}
	return kustomize.Build(ctx, dir, kustomize.WithRoot(root), kustomize.WithFiles(files), kustomize.WithAllowRemote(r.o.allowRemote),
		kustomize.WithNotices(func(n string) { r.notice(n) }), kustomize.WithCache(r.o.cache))
}

// notice adds kustomize's deprecation notices to the warnings, each once.
func (r *run) notice(notices ...string) {
	for _, n := range notices {
		if !slices.Contains(r.res.Warnings, n) {
			r.res.Warnings = append(r.res.Warnings, n)
		}
	}
}

func mustRel(root, p string) string {
	rel, err := filepath.Rel(root, p)
	if err != nil {
		return p
	}
	return rel
}

// KustomizationDirs are the folders (relative to root, slash-separated) of the kustomizations a build
// of kustomizeDir (relative to root) reads, its own first: where a `kustomize edit set image` changes
// what the build gives. A tree that names a local resource it lacks is an error: what it reads is
// not known.
func KustomizationDirs(root, kustomizeDir string) ([]string, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	kusts, err := reachableKustomizations(abs, filepath.Join(abs, filepath.FromSlash(kustomizeDir)), nil, true)
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, len(kusts))
	for _, k := range kusts {
		out = append(out, filepath.ToSlash(mustRel(abs, filepath.Dir(k))))
	}
	return out, nil
}

// reachableKustomizations are the kustomization files of dir and of every local folder its
// resources, bases and components name, transitively, dir's first (paths absolute; a folder
// outside root or a URL is left to the build, which refuses or fetches it). strict makes a local
// resource that does not exist an error; else it is left to the build too.
func reachableKustomizations(root, dir string, files map[string][]byte, strict bool) ([]string, error) {
	var out []string
	seen := map[string]bool{}
	queue := []string{dir}
	for len(queue) > 0 && len(seen) < 1000 {
		d := queue[0]
		queue = queue[1:]
		if seen[d] {
			continue
		}
		seen[d] = true
		rel, err := filepath.Rel(root, d)
		if err != nil || !filepath.IsLocal(rel) && rel != "." {
			continue
		}
		k := ""
		var data []byte
		for _, n := range konfig.RecognizedKustomizationFileNames() {
			p := filepath.Join(d, n)
			if b, ok := files[p]; ok {
				k, data = p, b
				break
			}
			if b, err := rootfs.ReadFile(root, filepath.Join(rel, n)); err == nil {
				k, data = p, b
				break
			}
		}
		if k == "" {
			continue
		}
		out = append(out, k)
		var kust types.Kustomization
		if err := yaml.Unmarshal(data, &kust); err != nil {
			return nil, fmt.Errorf("%s: %w", k, err)
		}
		for _, res := range append(append(append([]string{}, kust.Resources...), kust.Bases...), kust.Components...) {
			if strings.Contains(res, "://") || strings.HasPrefix(res, "github.com/") {
				continue
			}
			next := filepath.Join(d, filepath.FromSlash(res))
			st, err := os.Stat(next)
			switch {
			case err == nil && st.IsDir():
				queue = append(queue, next)
			case err != nil && strict:
				return nil, fmt.Errorf("%s: resource %s: %w", k, res, err)
			}
		}
	}
	return out, nil
}

func isKustomization(p string) bool {
	for _, n := range konfig.RecognizedKustomizationFileNames() {
		if filepath.Base(p) == n {
			return true
		}
	}
	return false
}

// setImages updates the images entries of the kustomization in folder dir (relative to the
// project) that name an image of opack.yaml applying there, recording which applied.
func (r *run) setImages(data []byte, dir string, declared map[int]bool) ([]byte, error) {
	if !strings.Contains(string(data), "images") {
		return data, nil
	}
	var k types.Kustomization
	if err := yaml.Unmarshal(data, &k); err != nil {
		return nil, err
	}
	changed := false
	for i := range k.Images {
		for j, im := range r.p.Images {
			if k.Images[i].Name != im.Name || (im.Dir != "" && path.Clean(im.Dir) != dir) {
				continue
			}
			declared[j], changed = true, true
			im.NewTag = strings.ReplaceAll(im.NewTag, "{{.Version}}", r.version)
			k.Images[i] = mergeImage(k.Images[i], im)
		}
	}
	if !changed {
		return data, nil
	}
	return yaml.Marshal(k)
}

// mergeImage applies an images entry of opack.yaml as `kustomize edit set image` does.
func mergeImage(cur types.Image, im config.ImageAlias) types.Image {
	if im.NewName != "" {
		cur.NewName = im.NewName
	}
	if im.Digest != "" {
		cur.Digest, cur.NewTag = im.Digest, ""
	} else if im.NewTag != "" {
		cur.NewTag, cur.Digest = im.NewTag, ""
	}
	return cur
}

// addImages appends images entries to a kustomization.
func addImages(data []byte, images []types.Image) ([]byte, error) {
	var k types.Kustomization
	if err := yaml.Unmarshal(data, &k); err != nil {
		return nil, err
	}
	k.Images = append(k.Images, images...)
	return yaml.Marshal(k)
}
