package adopt

import (
	"os"
	"path/filepath"
)

func writeFile(path, data string) error { return os.WriteFile(path, []byte(data), 0o644) }

func copyFile(src, dst string) error {
	data, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	return os.WriteFile(dst, data, 0o644)
}
