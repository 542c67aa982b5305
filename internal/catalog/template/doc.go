// Package template renders opm's catalog templates (olm.template.basic, olm.semver) into a
// file-based catalog and adds bundles to a template in place (template_add*.go).
package template
