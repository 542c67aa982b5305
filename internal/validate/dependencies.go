package validate

import (
	"encoding/json"
	"fmt"

	"github.com/blang/semver/v4"
)

// dependenciesFile is metadata/dependencies.yaml (operator-registry's DependenciesFile).
type dependenciesFile struct {
	Dependencies []dependency `json:"dependencies"`
}

type dependency struct {
	Type  string          `json:"type"`
	Value json.RawMessage `json:"value"`
}

// validate applies operator-registry's checks of olm.gvk, olm.package, olm.label and olm.constraint entries.
func (d dependenciesFile) validate() []string {
	var errs []string
	for _, dep := range d.Dependencies {
		switch dep.Type {
		case "olm.gvk":
			var v struct{ Group, Version, Kind string }
			if json.Unmarshal(dep.Value, &v) != nil {
				errs = append(errs, fmt.Sprintf("couldn't parse dependency of type %s", dep.Type))
				continue
			}
			if v.Group == "" {
				errs = append(errs, "API Group is empty")
			}
			if v.Version == "" {
				errs = append(errs, "API Version is empty")
			}
			if v.Kind == "" {
				errs = append(errs, "API Kind is empty")
			}
		case "olm.package":
			var v struct {
				PackageName string `json:"packageName"`
				Version     string `json:"version"`
			}
			if json.Unmarshal(dep.Value, &v) != nil {
				errs = append(errs, fmt.Sprintf("couldn't parse dependency of type %s", dep.Type))
				continue
			}
			if v.PackageName == "" {
				errs = append(errs, "Package name is empty")
			}
			if v.Version == "" {
				errs = append(errs, "Package version is empty")
			} else if _, err := semver.ParseRange(v.Version); err != nil {
				errs = append(errs, "Invalid semver format version")
			}
		case "olm.label":
			var v struct{ Label string }
			if json.Unmarshal(dep.Value, &v) != nil || v.Label == "" {
				errs = append(errs, "Label information is missing")
			}
		case "olm.constraint":
			var v map[string]any
			if json.Unmarshal(dep.Value, &v) != nil {
				errs = append(errs, fmt.Sprintf("couldn't parse dependency of type %s", dep.Type))
			}
		default:
			errs = append(errs, fmt.Sprintf("unsupported dependency type %s", dep.Type))
		}
	}
	return errs
}
