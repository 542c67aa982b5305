package crd

import "github.com/opack/opack/internal/finding"

// FindingSeverity maps the policy severity of a CRD upgrade finding to the severity it is
// reported with (off and info both report as info).
func (s Severity) FindingSeverity() finding.Severity {
	switch s {
	case SeverityError:
		return finding.SeverityError
	case SeverityWarning:
		return finding.SeverityWarning
	}
	return finding.SeverityInfo
}

// ID is the rule's id in reports: "crd-upgrade/<rule>".
func (r Rule) ID() string { return "crd-upgrade/" + string(r) }
