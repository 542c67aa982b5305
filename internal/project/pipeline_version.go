package project

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/opack/opack/internal/manifest"
	"github.com/opack/opack/internal/project/config"
	"github.com/opack/opack/internal/rootfs"

	"gopkg.in/yaml.v3"

	"github.com/opack/opack/internal/finding"
)

// saveVersion stages opack.yaml with the version being built when --version overrides a literal
// version in it, so the next plain build or check works on the same release instead of
// regenerating the previous one. Projects taking the version from versionFrom are left alone.
func (r *run) saveVersion() error {
	p := r.p
	if r.o.version == "" || p.Version == "" || p.Version == r.version {
		return nil
	}
	data, err := rootfs.ReadFile(filepath.Dir(p.File), filepath.Base(p.File), manifest.WithMaxFileSize(config.MaxFileSize))
	if err != nil {
		return stepErr(StepConfig, p.File, fmt.Errorf("reading it to save the version: %w", err), "")
	}
	out, err := setVersion(data, topValue(p.Root(), "version"), r.version)
	if err != nil {
		return stepErr(StepConfig, p.File, fmt.Errorf("saving version %s: %w", r.version, err), "set version: "+r.version+" by hand")
	}
	staged := r.staged("config", filepath.Base(p.File))
	if err := writeStaged(staged, out); err != nil {
		return stepErr(StepConfig, p.File, err, "")
	}
	r.addOutput(filepath.Base(p.File), staged, false, true)
	return nil
}

// topValue returns the value node of a top-level key of a decoded document (nil when absent).
func topValue(root *yaml.Node, key string) *yaml.Node {
	if root == nil || root.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		if root.Content[i].Value == key {
			return root.Content[i+1]
		}
	}
	return nil
}

// setVersion replaces the scalar n (a one-line plain or quoted scalar) in data with v, keeping
// its quoting and everything else in the file byte for byte.
func setVersion(data []byte, n *yaml.Node, v string) ([]byte, error) {
	if n == nil || n.Kind != yaml.ScalarNode || n.Line < 1 || n.Column < 1 {
		return nil, fmt.Errorf("no one-line version scalar to replace")
	}
	lines := bytes.SplitAfter(data, []byte("\n"))
	if n.Line > len(lines) {
		return nil, fmt.Errorf("line %d is past the end of the file", n.Line)
	}
	line := string(lines[n.Line-1])
	start := n.Column - 1 // yaml.v3 columns count runes; the line before the value is ASCII in practice
	if start >= len(line) {
		return nil, fmt.Errorf("line %d has no value at column %d", n.Line, n.Column)
	}
	rest := line[start:]
	var end int
	switch n.Style {
	case yaml.DoubleQuotedStyle, yaml.SingleQuotedStyle:
		q := rest[:1]
		i := strings.Index(rest[1:], q)
		if i < 0 {
			return nil, fmt.Errorf("line %d: the quoted version does not end on its line", n.Line)
		}
		end = i + 2
		v = q + v + q
	case 0:
		end = len(strings.TrimRight(rest, "\r\n"))
		if i := strings.Index(rest, " #"); i >= 0 && i < end {
			end = i
		}
		end = len(strings.TrimRight(rest[:end], " \t"))
	default:
		return nil, fmt.Errorf("line %d: the version is not a one-line scalar", n.Line)
	}
	if strings.TrimPrefix(strings.Trim(rest[:end], `"'`), "v") != strings.TrimPrefix(n.Value, "v") {
		return nil, fmt.Errorf("line %d: %q is not where the version was read", n.Line, rest[:end])
	}
	lines[n.Line-1] = []byte(line[:start] + v + rest[end:])
	return bytes.Join(lines, nil), nil
}

// publishedRelease records that this build regenerated a release already in catalog c, unchanged:
// the catalog keeps it as it is (under its own image reference).
func (r *run) publishedRelease(c config.Catalog, bundle, old string) {
	r.res.Warnings = append(r.res.Warnings, fmt.Sprintf("%s: version %s (%s) is already published there as %s, and this build regenerates the same bundle (createdAt and builder aside): the catalog keeps it as it is; build the next release with --version",
		c.Source(), r.version, bundle, old))
}

// RuleReleasedVersionChanged is the rule of check's finding for a version already in a catalog
// template that this build would give another digest.
const RuleReleasedVersionChanged = "build/released-version-changed"

// rebuiltRelease decides about a bundle version already in catalog c's template under another
// image (old) than this build's (ref). A released version must not change, so the build fails
// unless BuildAllowRebuild says the version was never published; check records a finding and
// goes on, so its diff still shows what changed.
func (r *run) rebuiltRelease(c config.Catalog, bundle, old, ref, difference string) error {
	if r.o.allowRebuild {
		r.res.Warnings = append(r.res.Warnings, fmt.Sprintf("%s: bundle %s was %s and is replaced by %s (--allow-rebuild)", c.Source(), bundle, old, ref))
		return nil
	}
	err := fmt.Errorf("version %s (%s) is already in %s as %s, and this build gives %s, which differs (%s): the bundle's content changed without a new version",
		r.version, bundle, c.Source(), old, ref, difference)
	fix := "build a new version (set version in " + r.p.File + " or pass --version), or pass --allow-rebuild if " + bundle + " was never published"
	if r.check {
		r.refusals = append(r.refusals, finding.Finding{Severity: finding.SeverityError, File: c.Source(), Object: "bundle " + bundle,
			Rule: RuleReleasedVersionChanged, Message: err.Error() + "; fix: " + fix})
		return nil
	}
	return &StepError{Step: StepCatalogTemplate, File: c.Source(), Err: err, Fix: fix, failed: true}
}
