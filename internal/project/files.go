package project

import (
	"os"
	"strings"

	"sigs.k8s.io/yaml"
)

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
