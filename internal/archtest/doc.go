// Package archtest holds tests that keep opack's house in shape: arrows point down only
// (cmd → project → {bundle, catalog, image, emit, validate} → {crd, manifest}), and nothing
// below cmd/ uses cobra, exits the process or prints to stdout.
package archtest
