// Package synth writes deterministic synthetic operator bundles and the matching file-based
// catalog, for benchmarks and scale tests: N bundles of realistic size (a CSV with a Deployment
// and RBAC, 1–20 CRDs with deep schemas, several versions per package linked by replaces,
// skips and olm.skipRange). The same Config always gives the same bytes.
package synth
