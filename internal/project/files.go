package project

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/opack/opack/internal/rootfs"
	"sigs.k8s.io/yaml"
)

// readYAML decodes path into v; a missing file leaves v alone.
func readYAML(path string, v any) error {
	data, err := rootfs.ReadFile(filepath.Dir(path), filepath.Base(path)) // a regular file, within the limits
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if err := yaml.Unmarshal(data, v); err != nil {
		return fmt.Errorf("reading %s: %w", path, err)
	}
	return nil
}

// quoteYAML renders s as a double-quoted scalar when plain style could change its meaning.
func quoteYAML(s string) string {
	b, _ := yaml.Marshal(s)
	return strings.TrimSuffix(string(b), "\n")
}

// fileExists reports whether path exists.
func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
