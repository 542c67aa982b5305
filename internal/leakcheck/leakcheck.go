package leakcheck

import (
	"bytes"
	"runtime"
	"sort"
	"strings"
	"testing"
	"time"
)

// polls bounds how long Check waits for goroutines to exit after the test: the sleeps between
// polls double from 1ms to 100ms, about 1.5s in all.
const polls = 20

// ignored are goroutines of the runtime, the testing package and libraries that start one
// process-wide goroutine on first use; they are not leaks of the code under test.
var ignored = []string{
	"created by testing.(*T).Run",
	"created by testing.(*F).Fuzz",
	"created by testing.runTests",
	"created by testing.(*M).",
	"testing.tRunner.func",
	"os/signal.signal_recv",
	"os/signal.loop",
	"runtime.ensureSigM",
	"k8s.io/klog/v2.(*flushDaemon).run",
	"created by runtime.gc",
}

// Check registers a cleanup on t that fails t with the stacks of goroutines started during the
// test that are still running when it ends. A goroutine whose stack contains one of the ignore
// strings (a function name, "created by pkg.F") is not reported.
func Check(t testing.TB, ignore ...string) {
	t.Helper()
	before := snapshot()
	t.Cleanup(func() {
		t.Helper()
		var leaked []string
		for i := 0; i < polls; i++ {
			leaked = added(before, snapshot(), ignore)
			if len(leaked) == 0 {
				return
			}
			time.Sleep(min(time.Millisecond<<i, 100*time.Millisecond))
		}
		t.Errorf("leakcheck: %d goroutine(s) still running after the test:\n\n%s", len(leaked), strings.Join(leaked, "\n\n"))
	})
}

// snapshot returns the stacks of all goroutines keyed by their "goroutine N" header.
func snapshot() map[string]string {
	buf := make([]byte, 1<<16)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	out := map[string]string{}
	for _, g := range bytes.Split(buf, []byte("\n\n")) {
		s := string(bytes.TrimSpace(g))
		if s == "" {
			continue
		}
		id, _, _ := strings.Cut(s, " [") // "goroutine 7 [chan receive]:"
		out[id] = s
	}
	return out
}

// added returns the sorted stacks of goroutines in after but not in before, minus ignored ones.
func added(before, after map[string]string, ignore []string) []string {
	var out []string
	for id, stack := range after {
		if _, ok := before[id]; ok || isIgnored(stack, ignore) || isCurrent(stack) {
			continue
		}
		out = append(out, stack)
	}
	sort.Strings(out)
	return out
}

func isIgnored(stack string, extra []string) bool {
	for _, lists := range [][]string{ignored, extra} {
		for _, s := range lists {
			if strings.Contains(stack, s) {
				return true
			}
		}
	}
	return false
}

// isCurrent reports whether stack is the goroutine taking the snapshot.
func isCurrent(stack string) bool {
	return strings.Contains(stack, "leakcheck.snapshot(")
}
