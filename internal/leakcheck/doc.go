// Package leakcheck fails a test that leaves goroutines running: Check snapshots the goroutines
// when a test starts and, when it ends, waits briefly for the goroutines it started to exit and
// reports the stacks of those that did not. It has no dependencies beyond the standard library.
//
//	func TestParallelValidators(t *testing.T) {
//		leakcheck.Check(t)
//		...
//	}
//
// Goroutines of other tests running in parallel would count as new: use Check in tests that do
// not call t.Parallel (their subtests may).
package leakcheck
