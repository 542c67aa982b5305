package render

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/operator-framework/api/pkg/operators/v1alpha1"

	"github.com/opack/opack/internal/fbc"
)

// Migration levels of `opm render --migrate-level`, in the order they apply.
const (
	migrateNone                      = "none"
	migrateBundleObjectToCSVMetadata = "bundle-object-to-csv-metadata"
)

// migrationLevels lists the migrations in order; a level runs every migration up to it.
var migrationLevels = []string{migrateNone, migrateBundleObjectToCSVMetadata}

// MigrationLevels returns the known migration levels, in order.
func MigrationLevels() []string { return append([]string(nil), migrationLevels...) }

// migrationStages returns how many migrations level runs; "" is none, "all" is every one.
func migrationStages(level string) (int, error) {
	switch level {
	case "", migrateNone:
		return 0, nil
	case "all":
		return len(migrationLevels) - 1, nil
	}
	for i, l := range migrationLevels {
		if l == level {
			return i, nil
		}
	}
	return 0, fmt.Errorf("unknown migration level %q (known: %s)", level, strings.Join(migrationLevels, ", "))
}

// migrate applies the first stages migrations to cfg.
func migrate(cfg *fbc.DeclarativeConfig, stages int) error {
	migrations := []func(*fbc.DeclarativeConfig) error{convertObjectsToCSVMetadata}
	for i := 0; i < stages && i < len(migrations); i++ {
		if err := migrations[i](cfg); err != nil {
			return err
		}
	}
	return nil
}

// convertObjectsToCSVMetadata replaces the olm.bundle.object properties of every bundle that
// has an image and a CSV by one olm.csv.metadata property; bundles that already have one are
// left alone.
func convertObjectsToCSVMetadata(cfg *fbc.DeclarativeConfig) error {
bundles:
	for bi, b := range cfg.Bundles {
		if b.Image == "" || b.CsvJSON == "" {
			continue
		}
		var csv v1alpha1.ClusterServiceVersion
		if err := json.Unmarshal([]byte(b.CsvJSON), &csv); err != nil {
			return fmt.Errorf("decoding the ClusterServiceVersion of bundle %q: %w", b.Name, err)
		}
		props := make([]fbc.Property, 0, len(b.Properties))
		for _, p := range b.Properties {
			switch p.Type {
			case fbc.TypeBundleObject:
			case fbc.TypeCSVMetadata:
				continue bundles
			default:
				props = append(props, p)
			}
		}
		cfg.Bundles[bi].Properties = append(props, newCSVMetadataProperty(&csv))
	}
	return nil
}

// newCSVMetadataProperty returns the olm.csv.metadata property of csv, as opm builds it.
func newCSVMetadataProperty(csv *v1alpha1.ClusterServiceVersion) fbc.Property {
	return fbc.MustBuildProperty(fbc.TypeCSVMetadata, fbc.CSVMetadata{
		Annotations:               csv.GetAnnotations(),
		APIServiceDefinitions:     csv.Spec.APIServiceDefinitions,
		CustomResourceDefinitions: csv.Spec.CustomResourceDefinitions,
		Description:               csv.Spec.Description,
		DisplayName:               csv.Spec.DisplayName,
		InstallModes:              csv.Spec.InstallModes,
		Keywords:                  csv.Spec.Keywords,
		Labels:                    csv.GetLabels(),
		Links:                     csv.Spec.Links,
		Maintainers:               csv.Spec.Maintainers,
		Maturity:                  csv.Spec.Maturity,
		MinKubeVersion:            csv.Spec.MinKubeVersion,
		NativeAPIs:                csv.Spec.NativeAPIs,
		Provider:                  csv.Spec.Provider,
	})
}

// normalizeRendered does what opm render does to every rendered config: olm.bundle.object and
// olm.csv.metadata properties moved to the end (stable), related images sorted by image.
func normalizeRendered(cfg *fbc.DeclarativeConfig) {
	for bi := range cfg.Bundles {
		b := &cfg.Bundles[bi]
		var others, objs []fbc.Property
		for _, p := range b.Properties {
			if p.Type == fbc.TypeBundleObject || p.Type == fbc.TypeCSVMetadata {
				objs = append(objs, p)
			} else {
				others = append(others, p)
			}
		}
		if len(b.Properties) > 0 {
			b.Properties = append(others, objs...)
		}
		sort.SliceStable(b.RelatedImages, func(i, j int) bool {
			return b.RelatedImages[i].Image < b.RelatedImages[j].Image
		})
	}
}
