package bundle

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/operator-framework/api/pkg/operators/v1alpha1"

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
}

// BaseResult lists what GenerateBase wrote (or would write, with Check).
type BaseResult struct {
	Files   []File // base CSV, then kustomization.yaml when it was missing
	Existed bool   // the base CSV already existed and was updated in place
	Changed bool   // Check: a file on disk differs
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
	if o.Package == "" {
		return nil, errors.New("no package name: set --package (or projectName in PROJECT)")
	}
	if o.OutputDir == "" {
		o.OutputDir = filepath.Join("config", "manifests")
	}
	if o.InputDir == "" {
		o.InputDir = o.OutputDir
	}
	csv, err := readBaseFile(BaseFile(o.InputDir, o.Package))
	if err != nil {
		return nil, err
	}
	res := &BaseResult{Existed: csv != nil}
	if csv == nil {
		csv = DefaultCSV(o.Package)
	}
	o.apply(csv)
	data, err := marshalCSV(csv)
	if err != nil {
		return nil, err
	}
	res.Files = append(res.Files, File{Name: BaseFile(o.OutputDir, o.Package), Data: data, Kind: csv.Kind, Object: csv.Name})
	kust := filepath.Join(o.OutputDir, "kustomization.yaml")
	if _, err := os.Stat(kust); errors.Is(err, fs.ErrNotExist) {
		res.Files = append(res.Files, File{Name: kust, Data: []byte(fmt.Sprintf(kustomizationTemplate, o.Package))})
	}
	for _, f := range res.Files {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if o.Check {
			old, err := os.ReadFile(f.Name)
			res.Changed = res.Changed || err != nil || string(old) != string(f.Data)
			continue
		}
		if err := os.MkdirAll(filepath.Dir(f.Name), 0o755); err != nil {
			return nil, fmt.Errorf("writing %s: %w", f.Name, err)
		}
		if err := manifest.WriteFile(f.Name, f.Data, 0o644); err != nil {
			return nil, err
		}
	}
	return res, nil
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
