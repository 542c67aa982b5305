package project

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/opack/opack/internal/rootfs"

	"github.com/opack/opack/internal/manifest"
	"github.com/opack/opack/internal/project/config"
	"github.com/opack/opack/internal/tmpdir"
)

// OwnedFile lists the files of the folders opack build replaces as a whole (bundle, deploy
// manifests, rendered catalogs) as it wrote them. A later build deletes a file of those folders
// only when it is listed here: anything else is refused unless BuildPrune is given.
const OwnedFile = "opack.owned"

const ownedHeader = `# Written by opack build: the files it owns in the folders it replaces as a whole.
# opack deletes a file there only if it is listed here (or with --prune). Commit this file.
`

// BuildPrune lets build delete files of its output folders that it did not write (--prune).
func BuildPrune(on bool) BuildOption { return func(o *buildOptions) { o.prune = on } }

// ownedFiles returns the files of the project's OwnedFile (empty when there is none).
func (r *run) ownedFiles() (map[string]bool, error) { return readOwned(r.p.Dir) }

// readOwned returns the files listed in the OwnedFile of the project in dir.
func readOwned(dir string) (map[string]bool, error) {
	data, err := rootfs.ReadFile(dir, OwnedFile)
	if errors.Is(err, fs.ErrNotExist) {
		return map[string]bool{}, nil
	}
	if err != nil {
		return nil, err
	}
	out := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		if l := strings.TrimSpace(sc.Text()); l != "" && !strings.HasPrefix(l, "#") {
			out[l] = true
		}
	}
	return out, sc.Err()
}

// recordOwned stages OwnedFile, listing every file of the folders this build replaces, and adds
// it to the outputs.
func (r *run) recordOwned() error {
	var files []string
	for _, o := range r.outputs {
		if !o.dir || !o.diff {
			continue
		}
		names, err := manifest.Files(o.staged)
		if err != nil {
			return stepErr(StepWrite, o.rel, err, "")
		}
		for _, n := range names {
			files = append(files, path.Join(o.rel, filepath.ToSlash(n)))
		}
	}
	sort.Strings(files)
	var b strings.Builder
	b.WriteString(ownedHeader)
	for _, f := range files {
		b.WriteString(f + "\n")
	}
	staged := r.staged("owned", OwnedFile)
	if err := writeStaged(staged, []byte(b.String())); err != nil {
		return stepErr(StepWrite, OwnedFile, err, "")
	}
	// A project without the record yet (freshly adopted) is not out of date for lacking it.
	r.addOutput(OwnedFile, staged, false, fileExists(r.path(OwnedFile)))
	return nil
}

// checkRemovals refuses, before anything is written, to delete files of an output folder that
// opack did not write (not in OwnedFile), unless BuildPrune; with it they are reported.
func (r *run) checkRemovals() error {
	owned, err := r.ownedFiles()
	if err != nil {
		return stepErr(StepWrite, OwnedFile, err, "")
	}
	var foreign []string
	for _, o := range r.sortedOutputs() {
		if !o.dir {
			continue
		}
		gone, err := r.removedFiles(o)
		if err != nil {
			return stepErr(StepWrite, o.rel, err, "")
		}
		if !o.diff && len(gone) > 0 && isOCILayout(r.path(o.rel)) {
			continue // an image layout opack wrote: its old blobs are its own
		}
		for _, g := range gone {
			if !owned[g] {
				foreign = append(foreign, g)
			}
		}
	}
	if len(foreign) == 0 {
		return nil
	}
	if r.o.prune {
		for _, f := range foreign {
			r.res.Warnings = append(r.res.Warnings, "pruned "+f+" (not written by opack; --prune)")
		}
		return nil
	}
	fix := "move them out of the folders opack replaces (or add them to its inputs), or pass --prune to opack build to delete them"
	if r.p.Bundle.Dir != "" && allUnder(foreign, path.Join(r.p.Bundle.Dir, "manifests")) {
		fix = "the kustomize build of " + r.p.KustomizeDir + " no longer gives them, and operator-sdk generate bundle never deletes a manifest, so an old one stays in every later bundle: " +
			"if they are such leftovers, pass --prune to opack build to delete them; if the bundle needs them, add them to " + r.p.KustomizeDir
	}
	return &StepError{Step: StepWrite, File: foreign[0], failed: true,
		Err: fmt.Errorf("%d file(s) opack did not write would be deleted: %s", len(foreign), strings.Join(foreign, ", ")), Fix: fix}
}

// removedFiles lists the files of output folder o in the project that the build would not keep.
func (r *run) removedFiles(o output) ([]string, error) {
	dst := r.path(o.rel)
	if _, err := os.Stat(dst); errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	old, err := manifest.Files(dst)
	if err != nil {
		return nil, err
	}
	cur, err := manifest.Files(o.staged)
	if err != nil {
		return nil, err
	}
	keep := map[string]bool{}
	for _, f := range cur {
		keep[f] = true
	}
	var out []string
	for _, f := range old {
		if !keep[f] {
			out = append(out, path.Join(o.rel, filepath.ToSlash(f)))
		}
	}
	return out, nil
}

// isOCILayout reports whether dir is an OCI image layout.
func isOCILayout(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, "oci-layout"))
	return err == nil
}

// ForeignFiles lists (at most 100, sorted) the files below the folder rel of the project in dir that
// its OwnedFile does not list: what a build replacing that folder would refuse to delete.
func ForeignFiles(dir, rel string) []string {
	owned, err := readOwned(dir)
	if err != nil {
		owned = map[string]bool{}
	}
	var out []string
	filepath.WalkDir(filepath.Join(dir, filepath.FromSlash(rel)), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil // a folder that does not exist is free
		}
		r, rerr := filepath.Rel(dir, p)
		if rerr == nil && !owned[filepath.ToSlash(r)] {
			out = append(out, filepath.ToSlash(r))
		}
		if len(out) >= 100 {
			return filepath.SkipAll
		}
		return nil
	})
	sort.Strings(out)
	return out
}

// allUnder reports whether every file lies below the folder dir.
func allUnder(files []string, dir string) bool {
	for _, f := range files {
		if !strings.HasPrefix(f, dir+"/") {
			return false
		}
	}
	return true
}

// PrunedByFirstBuild lists the files of the project's bundle folder that its first build would
// delete and opack did not write (build refuses them without --prune): committed files the
// bundle generated from the kustomize input no longer holds. opack init names them.
func PrunedByFirstBuild(ctx context.Context, p *config.Project) ([]string, error) {
	stage, err := tmpdir.Make("init")
	if err != nil {
		return nil, err
	}
	defer tmpdir.Remove(stage)
	r := &run{p: p, o: newBuildOptions(nil), check: true, res: &BuildResult{}, stage: stage, version: p.Version}
	if r.version == "" {
		r.version = "0.0.1" // the file names of a bundle do not depend on its version
	}
	if err := r.generate(ctx); err != nil {
		return nil, err
	}
	owned, err := r.ownedFiles()
	if err != nil {
		return nil, err
	}
	var out []string
	for _, o := range r.outputs {
		if !o.dir {
			continue
		}
		gone, err := r.removedFiles(o)
		if err != nil {
			return nil, err
		}
		for _, g := range gone {
			if !owned[g] {
				out = append(out, g)
			}
		}
	}
	return out, nil
}
