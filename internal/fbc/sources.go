package fbc

import (
	"fmt"
	"strings"
)

// Sources records which file each package, channel and bundle blob was loaded from, for
// messages that name the file to fix.
type Sources struct {
	packages map[string]string
	channels map[[2]string]string
	bundles  map[[2]string]string
}

// WithSources makes the loader record the file of every blob in s.
func WithSources(s *Sources) LoadOption { return func(o *loadOptions) { o.sources = s } }

func (s *Sources) add(file string, cfg *DeclarativeConfig) {
	if s.packages == nil {
		s.packages, s.channels, s.bundles = map[string]string{}, map[[2]string]string{}, map[[2]string]string{}
	}
	for _, p := range cfg.Packages {
		if _, ok := s.packages[p.Name]; !ok {
			s.packages[p.Name] = file
		}
	}
	for _, c := range cfg.Channels {
		if k := [2]string{c.Package, c.Name}; s.channels[k] == "" {
			s.channels[k] = file
		}
	}
	for _, b := range cfg.Bundles {
		if k := [2]string{b.Package, b.Name}; s.bundles[k] == "" {
			s.bundles[k] = file
		}
	}
}

// File returns the file of the most specific blob named (bundle, else channel, else package),
// or "" when unknown.
func (s *Sources) File(pkg, channel, bundle string) string {
	if s == nil || s.packages == nil {
		return ""
	}
	if f := s.bundles[[2]string{pkg, bundle}]; bundle != "" && f != "" {
		return f
	}
	if f := s.channels[[2]string{pkg, channel}]; channel != "" && f != "" {
		return f
	}
	return s.packages[pkg]
}

// PackageOf reads the package out of a finding's object (`package "p" ...`).
func PackageOf(object string) string {
	if !strings.HasPrefix(object, "package ") {
		return ""
	}
	var pkg string
	if _, err := fmt.Sscanf(object, "package %q", &pkg); err != nil {
		return ""
	}
	return pkg
}
