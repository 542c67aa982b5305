package main

import (
	"fmt"

	"github.com/opack/opack/internal/image"
	"github.com/opack/opack/internal/manifest"
	"github.com/spf13/cobra"
	"k8s.io/apimachinery/pkg/api/resource"
)

// DefaultMaxTotalSize bounds the bytes one command reads through internal/manifest (4 GiB).
const DefaultMaxTotalSize int64 = 4 << 30

// limitFlags are the global --max-* flags that raise the limits opack applies to untrusted input
// (see SECURITY.md). Sizes take Kubernetes quantities: 64Mi, 2Gi, 1000000.
type limitFlags struct {
	fileSize, docSize, imageSize, totalSize string
	files, aliasNodes, layers               int
}

func (l *limitFlags) addFlags(cmd *cobra.Command) {
	f := cmd.PersistentFlags()
	f.StringVar(&l.fileSize, "max-file-size", quantity(manifest.DefaultMaxFileSize), "largest file or stream read")
	f.StringVar(&l.docSize, "max-doc-size", quantity(manifest.DefaultMaxDocSize), "largest document of a YAML or JSON stream")
	f.StringVar(&l.totalSize, "max-total-size", quantity(DefaultMaxTotalSize), "most bytes of files and streams read by one command")
	f.IntVar(&l.files, "max-files", manifest.DefaultMaxFiles, "most files below one bundle, CRD or kustomize folder")
	f.IntVar(&l.aliasNodes, "max-alias-nodes", manifest.DefaultMaxAliasNode, "most nodes a YAML document may expand to through aliases")
	f.StringVar(&l.imageSize, "max-image-size", quantity(image.DefaultMaxUnpackSize), "largest size of an image unpacked (bytes read and bytes written)")
	f.IntVar(&l.layers, "max-layers", image.DefaultMaxLayers, "most layers of an image unpacked")
}

// apply validates the flags and sets the process-wide limits.
func (l *limitFlags) apply() error {
	fileSize, err := parseSize("--max-file-size", l.fileSize)
	if err != nil {
		return err
	}
	docSize, err := parseSize("--max-doc-size", l.docSize)
	if err != nil {
		return err
	}
	imageSize, err := parseSize("--max-image-size", l.imageSize)
	if err != nil {
		return err
	}
	totalSize, err := parseSize("--max-total-size", l.totalSize)
	if err != nil {
		return err
	}
	if l.files <= 0 || l.aliasNodes <= 0 || l.layers <= 0 {
		return fmt.Errorf("--max-files, --max-alias-nodes and --max-layers must be positive")
	}
	manifest.SetDefaultLimits(manifest.Limits{MaxFileSize: fileSize, MaxDocSize: docSize, MaxFiles: l.files, MaxAliasNodes: l.aliasNodes, MaxTotalSize: totalSize})
	image.SetDefaultMaxUnpackSize(imageSize)
	image.SetDefaultMaxLayers(l.layers)
	return nil
}

func parseSize(flag, v string) (int64, error) {
	q, err := resource.ParseQuantity(v)
	if err != nil || q.Sign() <= 0 {
		return 0, fmt.Errorf("%s %q: want a positive size such as 64Mi, 2Gi or 1000000", flag, v)
	}
	return q.Value(), nil
}

func quantity(n int64) string { return resource.NewQuantity(n, resource.BinarySI).String() }
