//go:build race

package main

// raceEnabled: the race detector multiplies memory use, so peak-memory assertions are skipped.
const raceEnabled = true
