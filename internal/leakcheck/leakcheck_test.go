package leakcheck

import (
	"fmt"
	"strings"
	"sync"
	"testing"
)

// fakeTB records what Check reports instead of failing the real test.
type fakeTB struct {
	testing.TB
	cleanups []func()
	errors   []string
}

func (f *fakeTB) Helper()           {}
func (f *fakeTB) Cleanup(fn func()) { f.cleanups = append(f.cleanups, fn) }
func (f *fakeTB) Errorf(format string, args ...any) {
	f.errors = append(f.errors, fmt.Sprintf(format, args...))
}

func (f *fakeTB) finish() {
	for i := len(f.cleanups) - 1; i >= 0; i-- {
		f.cleanups[i]()
	}
}

func leakyWorker(stop chan struct{}) { <-stop }

func TestCheck(t *testing.T) {
	for _, tc := range []struct {
		name     string
		run      func(stop chan struct{}) // starts goroutines; stop is closed after the check
		ignore   []string
		wantLeak bool
	}{
		{name: "no goroutines", run: func(chan struct{}) {}},
		{name: "goroutines that finish", run: func(chan struct{}) {
			var wg sync.WaitGroup
			for i := 0; i < 8; i++ {
				wg.Add(1)
				go func() { defer wg.Done() }()
			}
			wg.Wait()
		}},
		{name: "goroutine exiting shortly after the test", run: func(chan struct{}) {
			done := make(chan struct{})
			go func() { <-done }()
			close(done)
		}},
		{name: "blocked goroutine is reported", run: func(stop chan struct{}) { go leakyWorker(stop) }, wantLeak: true},
		{name: "ignored goroutine", run: func(stop chan struct{}) { go leakyWorker(stop) }, ignore: []string{"leakcheck.leakyWorker"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			stop := make(chan struct{})
			defer close(stop)
			f := &fakeTB{}
			Check(f, tc.ignore...)
			tc.run(stop)
			f.finish()
			got := strings.Join(f.errors, "\n")
			if tc.wantLeak != (got != "") {
				t.Fatalf("Check reported %q, want a leak: %v", got, tc.wantLeak)
			}
			if tc.wantLeak && !strings.Contains(got, "leakcheck.leakyWorker") {
				t.Errorf("the report does not show the leaked goroutine's stack:\n%s", got)
			}
		})
	}
}
