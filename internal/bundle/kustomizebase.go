package bundle

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/operator-framework/api/pkg/operators/v1alpha1"

	"github.com/opack/opack/internal/apitypes"
	"github.com/opack/opack/internal/manifest"
)

// BaseOptions configure GenerateBase (operator-sdk's `generate kustomize manifests`).
type BaseOptions struct {
	Package   string // required
	InputDir  string // where an existing base is read from; OutputDir when empty
	OutputDir string // "config/manifests" when empty

	// Metadata set on the base when non-empty (or non-nil).
	DisplayName  string
	Description  string
	ProviderName string
	ProviderURL  string
	Capabilities string
	Keywords     []string
	Maintainers  []v1alpha1.Maintainer
	Check        bool // write nothing; report whether the files would change

	// Project and APIsDir: for a Go project, owned CRD descriptions are generated from the Go API
	// types below ProjectDir/APIsDir (operator-sdk's default "api"), as operator-sdk does.
	Project    Project
	ProjectDir string // the folder holding PROJECT and go.mod; "." when empty
	APIsDir    string // "" reads no Go code
}

// BaseResult lists what GenerateBase wrote (or would write, with Check).
type BaseResult struct {
	Files     []File // base CSV, then kustomization.yaml when it was missing
	Unchanged []File // files whose content on disk was already what was generated (not written)
	Existed   bool   // the base CSV already existed and was updated in place
	Changed   bool   // a file on disk differs (with Check: would be written)
	Warnings  []string
}

// kustomizationTemplate is operator-sdk's manifests/v2 config/manifests/kustomization.yaml.
const kustomizationTemplate = `# These resources constitute the fully configured set of manifests
# used to generate the 'manifests/' directory in a bundle.
resources:
- bases/%s.clusterserviceversion.yaml
- ../default
- ../samples
- ../scorecard
`

// BaseFile is the path of a package's base CSV below a kustomize manifests folder.
func BaseFile(dir, pkg string) string {
	return filepath.Join(dir, "bases", pkg+".clusterserviceversion.yaml")
}

// GenerateBase writes <OutputDir>/bases/<pkg>.clusterserviceversion.yaml — the existing base with
// the given metadata applied, or operator-sdk's default base — and <OutputDir>/kustomization.yaml
// when it does not exist yet. Files are written atomically.
func GenerateBase(ctx context.Context, o BaseOptions) (*BaseResult, error) {
	o.defaults()
	csv, existed, warnings, err := o.base(ctx)
	if err != nil {
		return nil, err
	}
	res := &BaseResult{Existed: existed, Warnings: warnings}
	data, err := marshalCSV(csv)
	if err != nil {
		return nil, err
	}
	files := []File{{Name: BaseFile(o.OutputDir, o.Package), Data: data, Kind: csv.Kind, Object: csv.Name}}
	kust := filepath.Join(o.OutputDir, "kustomization.yaml")
	if _, err := os.Stat(kust); errors.Is(err, fs.ErrNotExist) {
		files = append(files, File{Name: kust, Data: []byte(fmt.Sprintf(kustomizationTemplate, o.Package))})
	}
	for _, f := range files {
		if old, err := readBeside(o.ProjectDir, f.Name); err == nil && bytes.Equal(old, f.Data) {
			res.Unchanged = append(res.Unchanged, f)
			continue
		}
		res.Changed = true
		res.Files = append(res.Files, f)
	}
	if o.Check {
		return res, nil
	}
	return res, writeFiles(ctx, res.Files)
}

// writeFiles writes each file atomically, creating its folder.
func writeFiles(ctx context.Context, files []File) error {
	for _, f := range files {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Dir(f.Name), 0o755); err != nil {
			return fmt.Errorf("writing %s: %w", f.Name, err)
		}
		if err := manifest.WriteFile(f.Name, f.Data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

func (o *BaseOptions) defaults() {
	if o.OutputDir == "" {
		o.OutputDir = filepath.Join("config", "manifests")
	}
	if o.InputDir == "" {
		o.InputDir = o.OutputDir
	}
	if o.ProjectDir == "" {
		o.ProjectDir = "."
	}
}

// base reads the existing base (or starts from the default one), applies the metadata options
// and, for a Go project, the owned CRD descriptions of its Go API types.
func (o BaseOptions) base(ctx context.Context) (csv *v1alpha1.ClusterServiceVersion, existed bool, warnings []string, err error) {
	if o.Package == "" {
		return nil, false, nil, errors.New("no package name: set --package (or projectName in PROJECT)")
	}
	csv, err = readBaseFile(BaseFile(o.InputDir, o.Package))
	if err != nil {
		return nil, false, nil, err
	}
	existed = csv != nil
	if csv == nil {
		csv = DefaultCSV(o.Package)
	} else if csv.GetName() == o.Package+".vX.Y.Z" {
		csv.SetName(fmt.Sprintf("%s.v%s", o.Package, csv.Spec.Version.String()))
	}
	o.apply(csv)
	if o.APIsDir != "" && o.Project.IsGo() {
		warnings, err = apitypes.Apply(ctx, csv, apitypes.Options{Dir: o.ProjectDir, APIsDir: o.APIsDir, GVKs: o.Project.GVKs})
		if err != nil {
			return nil, false, nil, fmt.Errorf("%w (%s kept as it is)", err, BaseFile(o.OutputDir, o.Package))
		}
	}
	return csv, existed, warnings, nil
}

func (o BaseOptions) apply(csv *v1alpha1.ClusterServiceVersion) {
	set := func(dst *string, v string) {
		if v != "" {
			*dst = v
		}
	}
	set(&csv.Spec.DisplayName, o.DisplayName)
	set(&csv.Spec.Description, o.Description)
	set(&csv.Spec.Provider.Name, o.ProviderName)
	set(&csv.Spec.Provider.URL, o.ProviderURL)
	if o.Capabilities != "" {
		if csv.Annotations == nil {
			csv.Annotations = map[string]string{}
		}
		csv.Annotations["capabilities"] = o.Capabilities
	}
	if o.Keywords != nil {
		csv.Spec.Keywords = o.Keywords
	}
	if o.Maintainers != nil {
		csv.Spec.Maintainers = o.Maintainers
	}
}
