package project_test

import (
	"context"

	"github.com/opack/opack/internal/adopt"
	"github.com/opack/opack/internal/project"
)

func init() {
	project.Init = func(ctx context.Context, dir string, o project.InitOptions) (any, error) {
		return adopt.Init(ctx, dir, adopt.InitOptions{Version: o.Version, OLM: o.OLM, BundleImage: o.BundleImage, CatalogImage: o.CatalogImage})
	}
}
