package packagemanifest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	sigsyaml "sigs.k8s.io/yaml"

	"github.com/opack/opack/internal/manifest"

	"github.com/opack/opack/internal/finding"
)

// Converted describes one bundle folder written by Convert.
type Converted struct {
	Dir      string   // the bundle folder written (OUT/<version folder>)
	CSV      string   // the CSV's name
	Channels []string // channels the bundle is in (from the replaces chains of the package's channels)
}

// Convert writes every version folder of the package-manifest folder dir as a bundle folder
// OUT/<version>/{manifests/, metadata/annotations.yaml}, replacing outDir as a whole (atomically). The files
// are copied byte for byte; the annotations name the package, the channels whose replaces chain reaches the
// bundle (the default channel when none does) and the default channel. A package operator-registry would
// refuse to import (see ImportFindings) is not converted: the report holds the reasons.
func Convert(ctx context.Context, dir, outDir string) ([]Converted, *finding.Report, error) {
	dir, outDir = filepath.Clean(dir), filepath.Clean(outDir)
	if err := checkSeparate(dir, outDir); err != nil {
		return nil, nil, err
	}
	pkgFile := FindPackageFile(dir)
	if pkgFile == "" {
		return nil, nil, fmt.Errorf("%s holds no package manifest (<package>.package.yaml)", dir)
	}
	pd, fs := LoadPackageDir(dir, pkgFile, nil)
	report := &finding.Report{}
	report.Add(fs...)
	if pd != nil {
		report.Add(pd.ImportFindings()...)
	}
	if !report.Passed() {
		return nil, report, nil
	}
	var out []Converted
	err := manifest.ReplaceDir(outDir, func(tmp string) error {
		for _, lb := range pd.Versions {
			if err := ctx.Err(); err != nil {
				return err
			}
			c, err := pd.writeBundle(lb, tmp)
			if err != nil {
				return err
			}
			c.Dir = filepath.Join(outDir, filepath.Base(lb.dir))
			out = append(out, c)
		}
		return nil
	})
	if err != nil {
		return nil, report, fmt.Errorf("writing %s: %w", outDir, err)
	}
	return out, report, nil
}

// checkSeparate refuses an output folder that is, holds or lies inside the input folder.
func checkSeparate(dir, outDir string) error {
	absIn, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	absOut, err := filepath.Abs(outDir)
	if err != nil {
		return err
	}
	if manifest.Within(absIn, absOut) || manifest.Within(absOut, absIn) {
		return fmt.Errorf("--output-dir %s overlaps the package folder %s: choose a separate folder (it is replaced as a whole)", outDir, dir)
	}
	return nil
}

// writeBundle writes one version folder as a bundle folder below root.
func (pd *Package) writeBundle(lb *Bundle, root string) (Converted, error) {
	csv := lb.Manifests.CSV.GetName()
	channels := pd.channelsOf(csv)
	if len(channels) == 0 {
		switch {
		case pd.pkg.DefaultChannelName != "":
			channels = []string{pd.pkg.DefaultChannelName}
		case len(pd.pkg.Channels) > 0:
			channels = []string{pd.pkg.Channels[0].Name}
		}
	}
	bdir := filepath.Join(root, filepath.Base(lb.dir))
	mdir := filepath.Join(bdir, "manifests")
	if err := os.MkdirAll(mdir, 0o755); err != nil {
		return Converted{}, err
	}
	entries, err := os.ReadDir(lb.dir)
	if err != nil {
		return Converted{}, err
	}
	for _, e := range entries {
		if e.IsDir() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		raw, err := manifest.ReadBytes(filepath.Join(lb.dir, e.Name()))
		if err != nil {
			return Converted{}, err
		}
		if err := os.WriteFile(filepath.Join(mdir, e.Name()), raw, 0o644); err != nil {
			return Converted{}, err
		}
	}
	annotations := map[string]string{
		AnnotationMediaType: MediaTypeRegistryV1,
		AnnotationManifests: "manifests/",
		AnnotationMetadata:  "metadata/",
		AnnotationPackage:   pd.pkg.PackageName,
		AnnotationChannels:  strings.Join(channels, ","),
	}
	if pd.pkg.DefaultChannelName != "" {
		annotations[AnnotationDefaultChannel] = pd.pkg.DefaultChannelName
	}
	data, err := sigsyaml.Marshal(map[string]any{"annotations": annotations})
	if err != nil {
		return Converted{}, err
	}
	if err := os.MkdirAll(filepath.Join(bdir, "metadata"), 0o755); err != nil {
		return Converted{}, err
	}
	if err := os.WriteFile(filepath.Join(bdir, "metadata", "annotations.yaml"), data, 0o644); err != nil {
		return Converted{}, err
	}
	return Converted{CSV: csv, Channels: channels}, nil
}
