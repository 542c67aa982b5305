package project

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/opack/opack/internal/project/config"

	"sigs.k8s.io/kustomize/api/konfig"
	"sigs.k8s.io/kustomize/api/types"
	"sigs.k8s.io/kustomize/kyaml/filesys"
	"sigs.k8s.io/yaml"

	"github.com/opack/opack/internal/bundle"
	"github.com/opack/opack/internal/kustomize"
	"github.com/opack/opack/internal/manifest"
)

// kustomizeWithImages builds the kustomization with the images entries of opack.yaml applied as
// `kustomize edit set image` applies them (the Makefile's `cd config/manager && kustomize edit set
// image controller=$IMG`): in every kustomization of the input that lists the image, else in the
// kustomization that is built. The input is copied into memory; config/ is never edited.
func (r *run) kustomizeWithImages(ctx context.Context, base *bundle.BaseResult) ([]byte, error) {
	dir, err := filepath.Abs(r.path(r.p.KustomizeDir))
	if err != nil {
		return nil, err
	}
	// The input tree: config/ for the usual layout (config/manifests refers to ../default and others).
	root := dir
	if filepath.Base(filepath.Dir(dir)) == "config" {
		root = filepath.Dir(dir)
	}
	fs := filesys.MakeFsInMemory()
	// A file of the tree may be a symlink to a file elsewhere in the project (volsync's
	// config/openshift/mover_scc.yaml -> ../../cmd/openshift/mover_scc.yaml), as kustomize and opack
	// generate bundle read it; never one leaving the project.
	files, err := manifest.Files(root, manifest.WithLinkRoot(r.p.Dir))
	if err != nil {
		return nil, err
	}
	// The base files the kustomize-manifests step regenerated are read in place of those on disk.
	generated := map[string][]byte{}
	if base != nil {
		for _, f := range base.Files {
			abs, err := filepath.Abs(f.Name)
			if err != nil {
				return nil, err
			}
			generated[abs] = f.Data
		}
	}
	declared := map[string]bool{}
	var kustomizations []string
	for _, f := range files {
		p := filepath.Join(root, filepath.FromSlash(f))
		data, ok := generated[p]
		delete(generated, p)
		if !ok {
			if data, err = manifest.ReadBytes(p); err != nil { // listed by manifest.Files: regular, inside root
				return nil, err
			}
		}
		if isKustomization(p) {
			kustomizations = append(kustomizations, p)
			if data, err = r.setImages(data, declared); err != nil {
				return nil, fmt.Errorf("%s: %w", p, err)
			}
		}
		if err := fs.WriteFile(p, data); err != nil {
			return nil, err
		}
	}
	for p, data := range generated { // a base or kustomization.yaml not on disk yet
		if err := fs.WriteFile(p, data); err != nil {
			return nil, err
		}
	}
	var rest []types.Image
	for _, im := range r.p.Images {
		if !declared[im.Name] {
			rest = append(rest, types.Image{Name: im.Name, NewName: im.NewName, NewTag: im.NewTag, Digest: im.Digest})
		}
	}
	if len(rest) > 0 {
		if err := addImages(fs, dir, rest); err != nil {
			return nil, err
		}
	}
	return kustomize.BuildFS(ctx, fs, dir, kustomize.WithRoot(r.p.Dir), kustomize.WithAllowRemote(r.o.allowRemote))
}

func isKustomization(p string) bool {
	for _, n := range konfig.RecognizedKustomizationFileNames() {
		if filepath.Base(p) == n {
			return true
		}
	}
	return false
}

// setImages updates the images entries of a kustomization that name an image of opack.yaml.
func (r *run) setImages(data []byte, declared map[string]bool) ([]byte, error) {
	if !strings.Contains(string(data), "images") {
		return data, nil
	}
	var k types.Kustomization
	if err := yaml.Unmarshal(data, &k); err != nil {
		return nil, err
	}
	changed := false
	for i := range k.Images {
		for _, im := range r.p.Images {
			if k.Images[i].Name != im.Name {
				continue
			}
			declared[im.Name], changed = true, true
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

// addImages appends images entries to the kustomization in dir.
func addImages(fs filesys.FileSystem, dir string, images []types.Image) error {
	for _, n := range konfig.RecognizedKustomizationFileNames() {
		p := filepath.Join(dir, n)
		if !fs.Exists(p) {
			continue
		}
		data, err := fs.ReadFile(p)
		if err != nil {
			return err
		}
		var k types.Kustomization
		if err := yaml.Unmarshal(data, &k); err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
		k.Images = append(k.Images, images...)
		if data, err = yaml.Marshal(k); err != nil {
			return err
		}
		return fs.WriteFile(p, data)
	}
	return fmt.Errorf("no kustomization in %s", dir)
}
