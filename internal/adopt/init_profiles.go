package adopt

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/opack/opack/internal/makefile"
)

// profiles are the bundles a Makefile builds by running its bundle target once per value of a
// variable (`for p in $(PROFILES); do $(MAKE) bundle PROFILE=$$p; done`).
type profiles struct {
	Var    string
	Values []string
	// Note says how the values were found when the loop's own could not be read.
	Note string
}

// findProfiles finds a recipe that runs the bundle target with a variable set on make's command
// line, once per word of a loop. When the loop's words cannot be read, the values are the
// folders beside the one make bundle builds from whose name the variable gives (PROFILE ?= rhdh
// → config/manifests/$(PROFILE): every folder of config/manifests for which make bundle
// PROFILE=<folder> builds that folder), and a note says so.
func findProfiles(f *makefile.File, rec *recipe, dir string, extra []makefile.Option) *profiles {
	targets := f.Targets()
	sort.Strings(targets)
	for _, t := range targets {
		cmds, _ := f.Commands(t)
		byVar := map[string]*profiles{}
		var order []string
		for _, c := range cmds {
			if !c.Tool("make") || c.IndexOf(rec.Target) < 0 {
				continue
			}
			for _, a := range c.Args[1:] {
				name, val, ok := strings.Cut(a.Text, "=")
				if !ok || strings.ContainsAny(name, "…-") || name == "" {
					continue
				}
				pr := byVar[name]
				if pr == nil {
					pr = &profiles{Var: name}
					byVar[name] = pr
					order = append(order, name)
				}
				if a.Unread != "" {
					pr.Note = fmt.Sprintf("%s: %s: the values of %s are not read: %s", c.At.Pos, firstLine(c.At.Text), name, a.Unread)
					continue
				}
				pr.Values = append(pr.Values, val)
			}
		}
		for _, name := range order {
			pr := byVar[name]
			if pr.Note != "" {
				// A variable that changes neither the package nor the folders make bundle builds
				// (make bundle IMG=$(CI_IMAGE)) names no profiles, whatever its values.
				if !apart(dir, &profiles{Var: name, Values: []string{"opack-probe-a", "opack-probe-b"}}, extra) {
					continue
				}
				pr.Values = folderProfiles(dir, rec, name, extra)
				if len(pr.Values) == 0 {
					return &profiles{Var: name, Note: pr.Note + "; no folder beside " + rec.BuildDir + " is built by make " + rec.Target + " " + name + "=<folder> either: one bundle is written, make " + rec.Target + "'s"}
				}
				pr.Note += fmt.Sprintf("; one bundle per folder beside %s that make %s %s=<folder> builds from: %s", rec.BuildDir, rec.Target, name, strings.Join(pr.Values, ", "))
			}
			pr.Values = dedupe(pr.Values)
			if (len(pr.Values) > 1 || pr.Note != "") && apart(dir, pr, extra) {
				return pr
			}
		}
	}
	return nil
}

// folderProfiles are the folders beside the kustomize folder of rec that make builds from when
// variable is the folder's name.
func folderProfiles(dir string, rec *recipe, variable string, extra []makefile.Option) []string {
	if rec.BuildDir == "" {
		return nil
	}
	parent := path.Dir(rec.BuildDir)
	entries, err := os.ReadDir(filepath.Join(dir, filepath.FromSlash(parent)))
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		f, err := makefile.Read(filepath.Join(dir, "Makefile"), append(extra, makefile.Override(variable, e.Name()))...)
		if err != nil {
			continue
		}
		r, err := readRecipe(f)
		if err == nil && r != nil && r.BuildDir == path.Join(parent, e.Name()) {
			out = append(out, e.Name())
		}
	}
	return out
}

func dedupe(vs []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, v := range vs {
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	return out
}

// apart reports whether the values build bundles apart (another package, kustomize folder or
// bundle folder each): a loop that rebuilds the same bundle (make bundle VERSION=x) is no profile.
func apart(dir string, pr *profiles, extra []makefile.Option) bool {
	seen := map[string]bool{}
	for _, v := range pr.Values {
		f, err := makefile.Read(filepath.Join(dir, "Makefile"), append(extra, makefile.Override(pr.Var, v))...)
		if err != nil {
			return false
		}
		r, err := readRecipe(f)
		if err != nil || r == nil {
			return false
		}
		key := r.Package + "\x00" + r.BuildDir + "\x00" + r.OutputDir
		if seen[key] {
			return false
		}
		seen[key] = true
	}
	return true
}
