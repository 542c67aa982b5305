// Package archtest holds tests that keep opack's house in shape: every package's dependencies,
// transitively, are those ARCHITECTURE.md's layers table allows (TestLayers, as
// go-containerregistry's internal/depcheck), and nothing below cmd/ uses cobra, exits the
// process or prints to stdout.
package archtest
