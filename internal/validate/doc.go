// Package validate checks operator bundles the way operator-sdk's `bundle validate` does (format, content,
// operator-framework/api validators and the optional suites), adds what it misses (CRDs validated as the API
// server validates them, a best-practices suite, multiarch through the registry API, package-manifest import
// rules; internal/packagemanifest loads what it validates), and reports every problem as a Finding naming the file and object at fault.
//
// Entry points:
//   - Bundles validates bundle folders, package-manifest folders and bundle images in parallel into one Report;
//     operator-sdk's findings keep its exact messages and order (rules "operator-sdk/..."), opack's own follow.
//     What operator-framework/api and the API server report in Go map order is put in a fixed order, so
//     that the same bundle always gives the same output.
//   - Report (shared by every `opack validate` command) writes text, json (operator-sdk's json-alpha1 shape
//     with file, object and rule, plus crd, version, path, old, new and fix for CRD upgrade findings) or
//     GitHub workflow annotations, and gives the exit code. CheckFormat gives the one error for a bad -o.
//
// The package does no printing and never exits: callers pass writers and map Report.ExitCode to the process.
package validate
