package olmtest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"testing"

	"github.com/operator-framework/operator-registry/alpha/declcfg"
)

// ConfigsLabel is the label catalogd reads to find the file-based catalog in a ClusterCatalog image.
const ConfigsLabel = "operators.operatorframework.io.index.configs.v1"

// CatalogdAll reads img as OLM v1's catalogd does: the folder named by the configs label, every FBC
// object under it, written as catalogd's all.json (one JSON object after another). It fails as
// catalogd does when the label is missing or names no folder.
func CatalogdAll(img *Image) ([]byte, error) {
	dir, ok := img.Config.Labels[ConfigsLabel]
	if !ok {
		return nil, fmt.Errorf("catalog image is missing the required label %q", ConfigsLabel)
	}
	root := filepath.Join(img.Root, filepath.FromSlash(dir))
	if fi, err := os.Stat(root); err != nil || !fi.IsDir() {
		return nil, fmt.Errorf("label %s=%s names no folder in the image", ConfigsLabel, dir)
	}
	return allJSON(root)
}

// FBCAll returns the objects of the catalog in dir as CatalogdAll does, for comparison.
func FBCAll(t testing.TB, dir string) []byte {
	t.Helper()
	b, err := allJSON(dir)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// allJSON walks the metas of the FBC in dir and writes them compacted, sorted (the walk is
// concurrent, and catalogd's order is not part of its API).
func allJSON(dir string) ([]byte, error) {
	var (
		mu    sync.Mutex
		blobs []string
	)
	err := declcfg.WalkMetasFS(context.Background(), os.DirFS(dir), func(path string, meta *declcfg.Meta, err error) error {
		if err != nil {
			return err
		}
		var buf bytes.Buffer
		if err := json.Compact(&buf, meta.Blob); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		mu.Lock()
		defer mu.Unlock()
		blobs = append(blobs, buf.String())
		return nil
	})
	if err != nil {
		return nil, err
	}
	sort.Strings(blobs)
	var out bytes.Buffer
	for _, b := range blobs {
		out.WriteString(b)
		out.WriteByte('\n')
	}
	return out.Bytes(), nil
}
