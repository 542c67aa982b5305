package project

import (
	"context"

	"github.com/opack/opack/internal/emit"
)

// InitOptions are the flags of opack init the tests of this package set.
type InitOptions struct {
	Version      string
	OLM          emit.Target
	BundleImage  string
	CatalogImage string
}

// Init writes the opack.yaml of the project in dir as opack init does. Adoption lives in
// internal/adopt, which imports this package: init_test.go (package project_test) sets Init.
var Init func(ctx context.Context, dir string, opts InitOptions) (any, error)

var e2eInit = InitOptions{
	Version:      "0.0.1",
	BundleImage:  "quay.io/example/memcached-operator-bundle",
	CatalogImage: "quay.io/example/memcached-operator-catalog:latest",
}
