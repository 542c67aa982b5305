// Package validate checks operator bundles the way operator-sdk's `bundle validate` does (format, content,
// operator-framework/api validators and the optional suites), adds what it misses (CRDs validated as the API
// server validates them, a best-practices suite, package-manifest import rules), and reports every problem as a
// Finding. A Report collects findings from any validator and writes them as text, operator-sdk's json-alpha1
// shape or GitHub workflow annotations.
//
// The package does no printing and never exits: callers pass writers and map Report.ExitCode to the process.
package validate
