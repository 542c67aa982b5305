package bundle

import (
	"github.com/operator-framework/api/pkg/operators/v1alpha1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// Well-known paths inside a bundle folder.
const (
	ManifestsDir    = "manifests"
	MetadataDir     = "metadata"
	AnnotationsFile = "metadata/annotations.yaml"
	ScorecardConfig = "tests/scorecard/config.yaml"
)

// Bundle is a registry+v1 bundle in memory.
type Bundle struct {
	// Dir is the folder the bundle was loaded from ("" when it was never on disk).
	Dir string
	// CSV is the bundle's ClusterServiceVersion; CSVFile names its file.
	CSV     *v1alpha1.ClusterServiceVersion
	CSVFile string
	// CRDs are the CustomResourceDefinitions (any apiextensions version) in manifests/, in file order.
	CRDs []Object
	// Others are every other object in manifests/, in file order.
	Others []Object
	// Annotations is the annotations map of metadata/annotations.yaml; nil when the bundle
	// has no such file (callers decide whether that is an error).
	Annotations map[string]string
	// Files lists every regular file of the bundle folder as a sorted slash-separated path
	// relative to Dir (manifests, metadata, tests/scorecard and anything else).
	Files []string
}

// Object is one object of a bundle file.
type Object struct {
	// File is the slash-separated path relative to the bundle folder, e.g. "manifests/x_v1_service.yaml".
	File string
	// Index is the object's position in File's stream (0 for single-document files).
	Index int
	// Object is the decoded object.
	Object *unstructured.Unstructured
	// Raw holds the document's bytes as read.
	Raw []byte
}
