//go:build race

package crd

// raceEnabled: the race detector multiplies memory use, so peak-memory assertions are skipped.
const raceEnabled = true
