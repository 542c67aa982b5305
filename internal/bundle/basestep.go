package bundle

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// regenerateBase runs the kustomize-manifests step before a bundle is generated from the
// kustomization of a Go project with API types: the base CSV is regenerated in memory
// (o.base) and written by Generate only once the bundle was.
func regenerateBase(ctx context.Context, o *Options, res *Result) error {
	if o.APIsDir == "" || o.Input != nil || o.InputDir != "" || !o.Manifests {
		return nil
	}
	p, ok, err := ReadProject(o.ProjectDir)
	if err != nil || !ok || !p.IsGo() {
		return err
	}
	if _, err := os.Stat(filepath.Join(o.ProjectDir, o.APIsDir)); errors.Is(err, fs.ErrNotExist) {
		return nil // no Go API types: nothing to read
	}
	br, err := GenerateBase(ctx, BaseOptions{
		Package: o.Package, InputDir: o.KustomizeDir, OutputDir: o.KustomizeDir,
		Project: p, ProjectDir: o.ProjectDir, APIsDir: o.APIsDir, Check: true,
	})
	if err != nil {
		return err
	}
	res.Base, o.base = br, br
	res.Warnings = append(res.Warnings, br.Warnings...)
	return nil
}

// baseCheck makes a stale base CSV part of a check's difference.
func baseCheck(res *Result) {
	if res.Base == nil || !res.Base.Changed {
		return
	}
	res.Changed = true
	for _, f := range res.Base.Files {
		res.Diff += "would regenerate " + f.Name + " from the Go API types (generate kustomize-manifests)\n"
	}
}
