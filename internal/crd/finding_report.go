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

// WaiverIDs are the rule ids a waiver may name the rule's findings by: ID first, then the
// aliases of earlier releases — the bare rule and crd/<rule>, and the step ids CRD findings
// were reported under before every command used ID: crd/upgrade (`opack build`, `opack check`)
// and catalog/crd-upgrade (`opack catalog validate`).
func (r Rule) WaiverIDs() []string {
	return []string{r.ID(), string(r), "crd/" + string(r), "crd/upgrade", "catalog/crd-upgrade"}
}
