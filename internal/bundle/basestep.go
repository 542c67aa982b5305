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
// (o.Base) and written by Generate only once the bundle was.
func regenerateBase(ctx context.Context, o *Options, res *Result) error {
	if o.Base != nil {
		res.Base = o.Base
		return nil
	}
	if o.Input != nil || o.InputDir != "" || !o.Manifests {
		return nil
	}
	br, err := BaseFromGoTypes(ctx, *o)
	if err != nil || br == nil {
		return err
	}
	res.Base, o.Base = br, br
	res.Warnings = append(res.Warnings, br.Warnings...)
	return nil
}

// BaseFromGoTypes runs the kustomize-manifests step in memory for the project of o (ProjectDir,
// Package, KustomizeDir or BaseInputDir and BaseOutputDir, APIsDir), as operator-sdk's Makefile
// runs it for every layout: the base files as `generate kustomize-manifests` would write them
// (for a Go project with API types, their owned CRD descriptions regenerated), nothing written.
// It returns nil when APIsDir is empty (the step is off) or there is no PROJECT file.
func BaseFromGoTypes(ctx context.Context, o Options) (*BaseResult, error) {
	if o.APIsDir == "" {
		return nil, nil
	}
	if err := o.defaults(); err != nil {
		return nil, err
	}
	p, ok, err := ReadProject(o.ProjectDir)
	if err != nil || !ok {
		return nil, err
	}
	apis := o.APIsDir
	if _, err := os.Stat(filepath.Join(o.ProjectDir, apis)); errors.Is(err, fs.ErrNotExist) {
		apis = "" // no Go API types: the base is read and rewritten only
	}
	in, out := o.BaseInputDir, o.BaseOutputDir
	if out == "" {
		out = o.KustomizeDir
	}
	if in == "" {
		in = out
	}
	return GenerateBase(ctx, BaseOptions{
		Package: o.Package, InputDir: in, OutputDir: out,
		Project: p, ProjectDir: o.ProjectDir, APIsDir: apis, Check: true,
	})
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

// data returns the regenerated content of the base file at path, if it was regenerated.
func (b *BaseResult) data(path string) ([]byte, bool) {
	if b == nil {
		return nil, false
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, false
	}
	for _, f := range b.Files {
		if fa, err := filepath.Abs(f.Name); err == nil && fa == abs {
			return f.Data, true
		}
	}
	return nil, false
}
