package kustomize

import (
	"fmt"
	"strings"

	"sigs.k8s.io/kustomize/api/konfig"
	"sigs.k8s.io/kustomize/api/types"
)

// RemoteError is a kustomization entry that would make kustomize fetch over the network (a URL)
// or run git (a repository reference): refused unless remote resources are allowed, and a git
// repository always (opack never runs another program).
type RemoteError struct {
	File, Field, Entry string
	Git                bool
}

func (e *RemoteError) Error() string {
	if e.Git {
		return fmt.Sprintf("%s: %s entry %q is a git repository; kustomize would run git to clone it and opack never runs other programs: vendor it into the project", display(e.File), e.Field, e.Entry)
	}
	return fmt.Sprintf("%s: %s entry %q is remote; opack builds offline: vendor it into the project or pass --allow-remote", display(e.File), e.Field, e.Entry)
}

// remoteEntries returns the URLs the kustomization k (read from file p) loads, refusing
// git repositories always and URLs unless allowRemote.
func remoteEntries(p string, k *types.Kustomization, allowRemote bool) ([]string, error) {
	var urls []string
	for _, e := range entries(k) {
		git, remote := classify(e.value)
		if git || (remote && !allowRemote) {
			return nil, &RemoteError{File: p, Field: e.field, Entry: e.value, Git: git}
		}
		if remote {
			urls = append(urls, e.value)
		}
	}
	return urls, nil
}

type entry struct{ field, value string }

// entries lists every path a kustomization may load (resources, bases, components, patches,
// generator sources, configurations, plugins' config files...).
func entries(k *types.Kustomization) []entry {
	var out []entry
	add := func(field string, vs ...string) {
		for _, v := range vs {
			if v != "" {
				out = append(out, entry{field, v})
			}
		}
	}
	add("resources", k.Resources...)
	add("bases", k.Bases...)
	add("components", k.Components...)
	add("crds", k.Crds...)
	add("configurations", k.Configurations...)
	add("generators", k.Generators...)
	add("transformers", k.Transformers...)
	add("validators", k.Validators...)
	for _, p := range k.PatchesStrategicMerge {
		if !strings.Contains(string(p), "\n") {
			add("patchesStrategicMerge", string(p))
		}
	}
	for _, p := range k.Patches {
		add("patches", p.Path)
	}
	for _, p := range k.PatchesJson6902 {
		add("patchesJson6902", p.Path)
	}
	for _, r := range k.Replacements {
		add("replacements", r.Path)
	}
	for _, g := range k.ConfigMapGenerator {
		add("configMapGenerator", sources(g.GeneratorArgs)...)
	}
	for _, g := range k.SecretGenerator {
		add("secretGenerator", sources(g.GeneratorArgs)...)
	}
	if k.OpenAPI != nil {
		add("openapi", k.OpenAPI["path"])
	}
	return out
}

func sources(g types.GeneratorArgs) []string {
	var out []string
	for _, f := range append(append([]string{}, g.FileSources...), g.EnvSources...) {
		if _, path, ok := strings.Cut(f, "="); ok {
			f = path
		}
		out = append(out, f)
	}
	return append(out, g.EnvSource)
}

// classify tells the references kustomize fetches (remote: a URL) or clones (git: what its repo
// spec parser accepts — a scheme, git::, user@host: or github.com).
func classify(v string) (git, remote bool) {
	l := strings.ToLower(v)
	scheme, rest, hasScheme := strings.Cut(l, "://")
	if hasScheme && !strings.ContainsAny(scheme, "/.") {
		repo := scheme != "http" && scheme != "https" || strings.Contains(rest, "//") || strings.Contains(rest, "?ref=") ||
			strings.Contains(rest, "?version=") || strings.HasSuffix(strings.SplitN(rest, "?", 2)[0], ".git")
		return repo, true
	}
	if strings.HasPrefix(l, "git::") || strings.HasPrefix(l, "github.com/") || strings.HasPrefix(l, "github.com:") {
		return true, true
	}
	if at := strings.Index(l, "@"); at > 0 && strings.Contains(l[at:], ":") && !strings.Contains(l[:at], "/") {
		return true, true
	}
	return false, false
}

func isKustomizationName(base string) bool {
	for _, n := range konfig.RecognizedKustomizationFileNames() {
		if base == n {
			return true
		}
	}
	return false
}
