package project

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/opack/opack/internal/rootfs"
	"github.com/opack/opack/internal/safetemplate"

	"github.com/opack/opack/internal/emit"
	"github.com/opack/opack/internal/manifest"
	"github.com/opack/opack/internal/txn"
)

// output is one thing the build writes into the project: a folder (replaced as a whole) or a file.
type output struct {
	rel    string // slash path relative to the project folder
	staged string // its staged version
	dir    bool
	diff   bool // compared by Check (images are not: they are derived from the other outputs)
}

func (r *run) addOutput(rel, staged string, dir, diff bool) {
	r.outputs = append(r.outputs, output{rel: path.Clean(filepath.ToSlash(rel)), staged: staged, dir: dir, diff: diff})
}

// emitManifests renders the deploy manifests pointing at the catalog image by digest.
func (r *run) emitManifests(ctx context.Context) error {
	p := r.p
	var ref string
	for _, c := range r.res.Catalogs {
		if c.Name == p.Deploy.Catalog {
			ref = c.Digest
		}
	}
	files, warnings, err := DeployFiles(ctx, p, EmitVersion(r.version), EmitCatalogImage(ref), EmitGit(r.o.git), EmitBundleDir(r.bundleDir))
	if errors.Is(err, emit.ErrNotInstallable) {
		return &StepError{Step: StepEmit, File: p.Bundle.Dir, failed: true, Err: errors.New(strings.ReplaceAll(err.Error(), r.bundleDir, p.Bundle.Dir)),
			Fix: "make the bundle installable by OLM v1, or set deploy.olm to v0 (or both, which only warns) in " + p.File}
	}
	if err != nil && p.Deploy.Templates != "" && errors.As(err, new(*safetemplate.BudgetError)) {
		return stepErr(StepEmit, p.Deploy.Templates, err, "make the templates of deploy.templates ("+p.Deploy.Templates+") finite and small, or remove deploy.templates to use opack's own")
	}
	if err != nil {
		return stepErr(StepEmit, p.File, err, "fix the deploy section of "+p.File)
	}
	for _, w := range warnings {
		r.res.Warnings = append(r.res.Warnings, strings.ReplaceAll(w, r.bundleDir, p.Bundle.Dir))
	}
	byDir := map[string]map[string][]byte{}
	for _, f := range files {
		top, rest, _ := strings.Cut(f.Path, "/")
		if byDir[top] == nil {
			byDir[top] = map[string][]byte{}
		}
		byDir[top][rest] = f.Data
	}
	for top, tree := range byDir {
		dir := r.staged("deploy", top)
		if err := writeTree(dir, tree); err != nil {
			return stepErr(StepEmit, p.Outputs.Deploy, err, "")
		}
		r.addOutput(path.Join(p.Outputs.Deploy, top), dir, true, true)
	}
	return nil
}

// sortedOutputs returns the outputs ordered by path.
func (r *run) sortedOutputs() []output {
	out := append([]output(nil), r.outputs...)
	sort.Slice(out, func(i, j int) bool { return out[i].rel < out[j].rel })
	return out
}

// diff records, for Check, the outputs that differ from the project and their unified diff.
func (r *run) diff() error {
	var b strings.Builder
	for _, o := range r.sortedOutputs() {
		r.res.Outputs = append(r.res.Outputs, o.rel)
		if !o.diff {
			continue
		}
		d, err := r.diffOutput(o)
		if err != nil {
			return stepErr(StepWrite, o.rel, err, "")
		}
		if d != "" {
			r.res.Written = append(r.res.Written, o.rel)
			b.WriteString(d)
		}
	}
	r.res.Diff = b.String()
	return nil
}

func (r *run) diffOutput(o output) (string, error) {
	if !o.dir {
		old, errOld := rootfs.ReadFile(r.p.Dir, o.rel)
		if errOld != nil && !errors.Is(errOld, fs.ErrNotExist) {
			return "", errOld
		}
		cur, err := os.ReadFile(o.staged)
		if err != nil {
			return "", err
		}
		return r.fileDiff(o.rel, old, errOld == nil, cur, true), nil
	}
	old, err := readTree(r.path(o.rel))
	if err != nil {
		return "", err
	}
	cur, err := readTree(o.staged)
	if err != nil {
		return "", err
	}
	names := map[string]bool{}
	for n := range old {
		names[n] = true
	}
	for n := range cur {
		names[n] = true
	}
	keys := make([]string, 0, len(names))
	for n := range names {
		keys = append(keys, n)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, n := range keys {
		a, inOld := old[n]
		c, inNew := cur[n]
		b.WriteString(r.fileDiff(path.Join(o.rel, n), a, inOld, c, inNew))
	}
	return b.String(), nil
}

// fileDiff is manifest.UnifiedDiff, recording the file in DiffFiles when it differs.
func (r *run) fileDiff(name string, old []byte, inOld bool, cur []byte, inNew bool) string {
	d := manifest.UnifiedDiff(name, old, inOld, cur, inNew)
	if d != "" {
		r.res.DiffFiles = append(r.res.DiffFiles, name)
	}
	return d
}

// write commits every changed output into the project as one transaction (internal/txn): all
// of them or, after a failure or a kill, none until the next build finishes the commit.
// Unchanged outputs are not touched.
func (r *run) write() error {
	var changes []txn.Change
	for _, o := range r.sortedOutputs() {
		r.res.Outputs = append(r.res.Outputs, o.rel)
		same, err := r.unchanged(o)
		if err != nil {
			return stepErr(StepWrite, o.rel, err, "")
		}
		if !same {
			changes = append(changes, txn.Change{Rel: o.rel, Staged: o.staged})
		}
	}
	if len(changes) == 0 {
		return nil
	}
	if err := r.tx.Commit(changes); err != nil {
		return stepErr(StepWrite, r.p.File, err, "run opack build again: it finishes or rolls back the interrupted write")
	}
	for _, c := range changes {
		r.res.Written = append(r.res.Written, c.Rel)
	}
	return nil
}

// unchanged reports whether the project already holds the staged output, byte for byte.
func (r *run) unchanged(o output) (bool, error) {
	if !o.dir {
		old, err := rootfs.ReadFile(r.p.Dir, o.rel)
		if errors.Is(err, fs.ErrNotExist) {
			return false, nil
		}
		if err != nil {
			return false, err
		}
		cur, err := os.ReadFile(o.staged)
		return err == nil && bytes.Equal(old, cur), err
	}
	if _, err := os.Stat(r.path(o.rel)); errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	oldFiles, err := manifest.Files(r.path(o.rel))
	if err != nil {
		return false, err
	}
	curFiles, err := manifest.Files(o.staged)
	if err != nil {
		return false, err
	}
	if strings.Join(oldFiles, "\n") != strings.Join(curFiles, "\n") {
		return false, nil
	}
	for _, f := range curFiles {
		same, err := sameFile(filepath.Join(r.path(o.rel), f), filepath.Join(o.staged, f))
		if err != nil || !same {
			return false, err
		}
	}
	return true, nil
}

// sameFile compares two files by size, then content.
func sameFile(a, b string) (bool, error) {
	sa, err := os.Stat(a)
	if err != nil {
		return false, err
	}
	sb, err := os.Stat(b)
	if err != nil {
		return false, err
	}
	if sa.Size() != sb.Size() {
		return false, nil
	}
	if os.SameFile(sa, sb) {
		return true, nil
	}
	da, err := os.ReadFile(a)
	if err != nil {
		return false, err
	}
	db, err := os.ReadFile(b)
	if err != nil {
		return false, err
	}
	return bytes.Equal(da, db), nil
}
