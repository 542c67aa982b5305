package project

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

func writeFile(path, data string) error { return os.WriteFile(path, []byte(data), 0o644) }

// sample copies the go/v4 memcached-operator sample project into a temporary folder.
func sample(t *testing.T) string {
	t.Helper()
	src := filepath.Join("..", "..", "testdata", "project", "memcached-operator")
	dst := t.TempDir()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}
