//go:build tools

// Package deps pins the libraries opack is built on so that `go mod tidy` keeps them while
// capabilities are added one at a time.
package deps

import (
	_ "github.com/blang/semver/v4"
	_ "github.com/google/go-cmp/cmp"
	_ "github.com/google/go-containerregistry/pkg/registry"
	_ "github.com/google/go-containerregistry/pkg/v1/remote"
	_ "github.com/operator-framework/api/pkg/operators/v1alpha1"
	_ "github.com/operator-framework/api/pkg/validation"
	_ "github.com/spf13/cobra"
	_ "gopkg.in/yaml.v3"
	_ "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation"
	_ "sigs.k8s.io/kustomize/api/krusty"
	_ "sigs.k8s.io/kustomize/kyaml/filesys"
	_ "sigs.k8s.io/yaml"
)
