package config

import (
	"bytes"
	"fmt"
	"path"
	"strings"

	"github.com/google/go-containerregistry/pkg/name"

	"github.com/opack/opack/internal/safetemplate"
)

// imageData is what an image template may use: {{.Version}} (1.2.3) and {{.Package}}.
type imageData struct {
	Version string
	Package string
}

// BundleImage returns the bundle image reference for version: the repository tagged v<version>, or
// the template executed. The result is a valid reference with a tag.
func (p *Project) BundleImage(version string) (string, error) {
	ref, err := expandImage(p.Bundle.Image, version, p.Package, false)
	if err != nil {
		return "", fmt.Errorf("bundle.image: %w", err)
	}
	return ref, nil
}

// CatalogImage returns the image reference of catalog c for version: as written when it has a tag or
// digest, tagged v<version> when it is a bare repository, or the template executed.
func (p *Project) CatalogImage(c Catalog, version string) (string, error) {
	ref, err := expandImage(c.Image, version, p.Package, true)
	if err != nil {
		return "", fmt.Errorf("catalog %s image: %w", c.Name, err)
	}
	return ref, nil
}

// expandImage turns an image setting into a reference. A bundle image (fixedOK false) must end up
// tagged per version: a bare repository, or a template whose result has a tag.
func expandImage(s, version, pkg string, fixedOK bool) (string, error) {
	if s == "" {
		return "", fmt.Errorf("not set")
	}
	if strings.Contains(s, "{{") {
		t, err := safetemplate.Parse("image", s, nil)
		if err != nil {
			return "", fmt.Errorf("parsing template %q: %w", s, err)
		}
		var b bytes.Buffer
		if err := t.Execute(&b, imageData{Version: version, Package: pkg}); err != nil {
			return "", fmt.Errorf("executing template %q (it may use {{.Version}} and {{.Package}}): %w", s, err)
		}
		ref, err := name.ParseReference(b.String(), name.StrictValidation)
		if err != nil {
			return "", fmt.Errorf("template %q gives %q, not an image reference: %w", s, b.String(), err)
		}
		return ref.Name(), nil
	}
	ref, err := name.ParseReference(s, name.StrictValidation)
	if err != nil {
		repo, rerr := name.NewRepository(s, name.StrictValidation)
		if rerr != nil {
			return "", fmt.Errorf("%q is not an image reference: %w", s, err)
		}
		return repo.Tag("v" + version).Name(), nil
	}
	if !fixedOK {
		return "", fmt.Errorf("%q has a tag or digest: give the repository (it is tagged v<version>) or a template such as %s:{{.Version}}", s, ref.Context().Name())
	}
	return ref.Name(), nil
}

// FBCBundleFile expands a catalog's bundleFile for version.
func FBCBundleFile(pattern, version, pkg string) (string, error) {
	t, err := safetemplate.Parse("bundleFile", pattern, nil)
	if err != nil {
		return "", err
	}
	var b bytes.Buffer
	if err := t.Execute(&b, imageData{Version: version, Package: pkg}); err != nil {
		return "", err
	}
	return path.Clean(b.String()), nil
}
