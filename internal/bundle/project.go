package bundle

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"sigs.k8s.io/yaml"
)

// Project is what bundle generation reads from a kubebuilder/operator-sdk PROJECT file.
type Project struct {
	Name   string // projectName
	Layout string // the layout plugin chain joined by ",", e.g. "go.kubebuilder.io/v4"
}

// ReadProject reads dir/PROJECT; ok is false when there is none.
func ReadProject(dir string) (p Project, ok bool, err error) {
	file := filepath.Join(dir, "PROJECT")
	data, err := os.ReadFile(file)
	if errors.Is(err, fs.ErrNotExist) {
		return Project{}, false, nil
	}
	if err != nil {
		return Project{}, false, fmt.Errorf("reading %s: %w", file, err)
	}
	var doc struct {
		ProjectName string      `json:"projectName"`
		Layout      interface{} `json:"layout"`
	}
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return Project{}, false, fmt.Errorf("reading %s: %w", file, err)
	}
	p.Name = doc.ProjectName
	switch l := doc.Layout.(type) {
	case string:
		p.Layout = l
	case []interface{}:
		var parts []string
		for _, e := range l {
			parts = append(parts, fmt.Sprint(e))
		}
		p.Layout = strings.Join(parts, ",")
	}
	return p, true, nil
}
