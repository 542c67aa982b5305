package kustomize

import (
	"context"
	"fmt"

	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/kyaml/filesys"
)

// Build runs the kustomization in dir on the real file system and returns the YAML stream.
// Plugins stay disabled and loading is restricted to dir's tree (kustomize's defaults).
func Build(ctx context.Context, dir string) ([]byte, error) {
	return BuildFS(ctx, filesys.MakeFsOnDisk(), dir)
}

// BuildFS is Build on any kustomize file system (an in-memory one in tests). A failed build
// returns a *BuildError naming the file (and line) at fault when kustomize's error says which.
func BuildFS(ctx context.Context, fs filesys.FileSystem, dir string) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	opts := krusty.MakeDefaultOptions()
	// Unspecified honours a kustomization's sortOptions and otherwise uses the legacy order,
	// which is what the kustomize CLI prints.
	opts.Reorder = krusty.ReorderOptionUnspecified
	resMap, err := krusty.MakeKustomizer(opts).Run(fs, dir)
	if err != nil {
		return nil, explain(fs, dir, err)
	}
	out, err := resMap.AsYaml()
	if err != nil {
		return nil, fmt.Errorf("encoding kustomization %s: %w", dir, err)
	}
	return out, nil
}
