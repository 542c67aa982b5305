// Package benchutil helps benchmarks report what `make bench` prints: peak memory (the
// process's resident high-water mark, reset before the measured loop) and the location of
// the shared corpus.
package benchutil

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"
)

// ResetPeak resets the process's peak resident set size (Linux: /proc/self/clear_refs).
// It reports false where the kernel does not allow it.
func ResetPeak() bool {
	runtime.GC()
	return os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) == nil
}

// PeakRSS returns the process's peak resident set size in bytes (VmHWM), or 0 where unknown.
func PeakRSS() int64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := sc.Bytes()
		if !bytes.HasPrefix(line, []byte("VmHWM:")) {
			continue
		}
		f := bytes.Fields(line[len("VmHWM:"):])
		if len(f) == 0 {
			return 0
		}
		kb, err := strconv.ParseInt(string(f[0]), 10, 64)
		if err != nil {
			return 0
		}
		return kb << 10
	}
	return 0
}

// Measure resets the peak before the benchmark's loop and reports "peak-MB" after it.
// Call it right before the loop: defer benchutil.Measure(b)().
func Measure(b *testing.B) func() {
	b.Helper()
	ok := ResetPeak()
	b.ResetTimer()
	return func() {
		b.StopTimer()
		if ok {
			b.ReportMetric(float64(PeakRSS())/(1<<20), "peak-MB")
		}
	}
}

// CorpusDir returns ../shared/corpus/<sub> relative to the module root, or skips tb with a
// message when it is not there.
func CorpusDir(tb testing.TB, sub ...string) string {
	tb.Helper()
	root, err := moduleRoot()
	if err != nil {
		tb.Skipf("corpus not found: %v", err)
	}
	dir := filepath.Join(append([]string{root, "..", "shared", "corpus"}, sub...)...)
	if _, err := os.Stat(dir); err != nil {
		tb.Skipf("corpus %s not there (%v); it comes with ../shared beside the repository", dir, err)
	}
	return dir
}

func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", os.ErrNotExist
		}
		dir = parent
	}
}
