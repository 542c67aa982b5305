package bundle

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/opack/opack/internal/rootfs"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/yaml"
)

// Project is what bundle generation reads from a kubebuilder/operator-sdk PROJECT file.
type Project struct {
	Name   string // projectName
	Layout string // the layout plugin chain joined by ",", e.g. "go.kubebuilder.io/v4"
	// GVKs are the project's resources, groups qualified with the domain as kubebuilder does.
	GVKs []schema.GroupVersionKind
}

// IsGo reports whether the layout is a Go one (operator-sdk's PluginChainToOperatorType: the first
// plugin key starting with go, helm or ansible decides).
func (p Project) IsGo() bool {
	for _, key := range strings.Split(p.Layout, ",") {
		switch {
		case strings.HasPrefix(key, "go"):
			return true
		case strings.HasPrefix(key, "helm"), strings.HasPrefix(key, "ansible"):
			return false
		}
	}
	return false
}

// ReadProject reads dir/PROJECT; ok is false when there is none.
func ReadProject(dir string) (p Project, ok bool, err error) {
	file := filepath.Join(dir, "PROJECT")
	data, err := rootfs.ReadFile(dir, "PROJECT")
	if errors.Is(err, fs.ErrNotExist) {
		return Project{}, false, nil
	}
	if err != nil {
		return Project{}, false, fmt.Errorf("reading %s: %w", file, err)
	}
	var doc struct {
		ProjectName string      `json:"projectName"`
		Layout      interface{} `json:"layout"`
		Version     string      `json:"version"`
		Domain      string      `json:"domain"`
		Resources   []struct {
			Group   string `json:"group"`
			Domain  string `json:"domain"`
			Version string `json:"version"`
			Kind    string `json:"kind"`
		} `json:"resources"`
	}
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return Project{}, false, fmt.Errorf("reading %s: %w", file, err)
	}
	p.Name = doc.ProjectName
	for _, r := range doc.Resources {
		domain := r.Domain
		if doc.Version != "3" && domain == "" {
			domain = doc.Domain // before PROJECT version 3, resources share the project's domain
		}
		group := r.Group
		switch {
		case domain == "":
		case group == "":
			group = domain
		default:
			group += "." + domain
		}
		p.GVKs = append(p.GVKs, schema.GroupVersionKind{Group: group, Version: r.Version, Kind: r.Kind})
	}
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
