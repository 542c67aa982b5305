//go:build race

package load

// raceEnabled: the race detector multiplies memory use, so peak-memory assertions are skipped.
const raceEnabled = true
