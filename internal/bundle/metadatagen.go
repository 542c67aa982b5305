package bundle

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"

	"github.com/opack/opack/internal/rootfs"
)

// generateMetadata renders metadata/annotations.yaml into tree and the Dockerfile into res,
// keeping labels the user added to either. With KeepMetadata an existing annotations.yaml
// leaves both untouched, as operator-sdk's --overwrite=false does.
func generateMetadata(o *Options, disk, tree map[string][]byte, res *Result) error {
	oldAnn, hasAnn := disk[AnnotationsFile]
	if o.KeepMetadata && hasAnn {
		return nil
	}
	var ann map[string]string
	if hasAnn {
		var err error
		if ann, err = parseAnnotations(oldAnn); err != nil {
			return fmt.Errorf("reading %s: %w (fix or delete it)", filepath.Join(o.OutputDir, AnnotationsFile), err)
		}
	}
	oldDockerfile, err := readBeside(o.ProjectDir, o.Dockerfile)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("reading %s: %w", o.Dockerfile, err)
	}
	root, err := copyRoot(o.Dockerfile, o.OutputDir)
	if err != nil {
		return err
	}
	_, scorecard := tree[ScorecardConfig]
	m := metadataInput{
		pkg: o.Package, channels: o.Channels, defaultChannel: o.DefaultChannel, builder: o.Builder,
		layout: o.Layout, scorecard: scorecard, copyRoot: root,
	}
	m.extra = userLabels(ann, oldDockerfile, m.generatedKeys())
	data := renderAnnotations(m)
	tree[AnnotationsFile] = data
	res.Files = append(res.Files, File{Name: AnnotationsFile, Data: data})
	res.Dockerfile = &File{Name: o.Dockerfile, Data: renderDockerfile(m)}
	return nil
}

// copyRoot is the bundle folder as seen from the Dockerfile's folder (the build context).
func copyRoot(dockerfile, outputDir string) (string, error) {
	if !filepath.IsAbs(dockerfile) && !filepath.IsAbs(outputDir) && filepath.Dir(dockerfile) == "." {
		return filepath.ToSlash(filepath.Clean(outputDir)), nil
	}
	d, err := filepath.Abs(filepath.Dir(dockerfile))
	if err != nil {
		return "", err
	}
	out, err := filepath.Abs(outputDir)
	if err != nil {
		return "", err
	}
	rel, err := filepath.Rel(d, out)
	if err != nil {
		return "", fmt.Errorf("placing %s relative to %s: %w", outputDir, dockerfile, err)
	}
	return filepath.ToSlash(rel), nil
}

// readBeside reads a file opack rewrites (bundle.Dockerfile) through internal/rootfs: below the
// project when it lies there, else below its own folder (a path given on the command line). A
// symlink out (to /dev/zero, to a secret) or a FIFO is refused, and the read is within the limits.
func readBeside(projectDir, path string) ([]byte, error) {
	if rel, err := rootfs.Rel(projectDir, path); err == nil {
		return rootfs.ReadFile(projectDir, rel)
	}
	return rootfs.ReadFile(filepath.Dir(path), filepath.Base(path))
}
