//go:build unix

package project

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestLockProject(t *testing.T) {
	for _, tc := range []struct {
		name       string
		held, want bool // exclusive?
		wantWait   bool
	}{
		{name: "check beside a check", held: false, want: false},
		{name: "build beside a check", held: false, want: true, wantWait: true},
		{name: "check beside a build", held: true, want: false, wantWait: true},
		{name: "build beside a build", held: true, want: true, wantWait: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			release, err := tryLock(dir, tc.held)
			if err != nil {
				t.Fatal(err)
			}
			var logs []string
			logf := func(f string, a ...any) { logs = append(logs, fmt.Sprintf(f, a...)) }
			ctx, cancel := context.WithTimeout(context.Background(), 3*lockPollInterval)
			defer cancel()
			unlock, err := lockProject(ctx, dir, tc.want, logf)
			if !tc.wantWait {
				if err != nil {
					t.Fatalf("lockProject: %v", err)
				}
				unlock()
				release()
				return
			}
			if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "waiting for another opack build or check in "+dir) {
				t.Fatalf("lockProject while held = %v; want a deadline error naming %s", err, dir)
			}
			if len(logs) != 1 || !strings.Contains(logs[0], "waiting for another opack build") {
				t.Errorf("logs %q; want one waiting message", logs)
			}
			// Released while waiting: the waiter gets the lock.
			go func() { time.Sleep(2 * lockPollInterval); release() }()
			unlock, err = lockProject(context.Background(), dir, tc.want, logf)
			if err != nil {
				t.Fatalf("lockProject after release: %v", err)
			}
			unlock()
		})
	}
}

// TestBuildWaitsForABuildInProgress: a build started while another holds the project waits, and
// writes nothing, until its context ends.
func TestBuildWaitsForABuildInProgress(t *testing.T) {
	dir := sampleProject(t)
	p := load(t, dir)
	release, err := tryLock(p.Dir, true)
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	before := snapshot(t, dir)
	var log strings.Builder
	ctx, cancel := context.WithTimeout(context.Background(), 3*lockPollInterval)
	defer cancel()
	_, err = Build(ctx, p, BuildLog(&log))
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Build while another build holds the project = %v; want it to wait until the deadline", err)
	}
	if !strings.Contains(log.String(), "waiting for another opack build or check in "+p.Dir) {
		t.Errorf("log %q does not say what it waits for", log.String())
	}
	if diff := cmp.Diff(before, snapshot(t, dir)); diff != "" {
		t.Errorf("the waiting build changed the project (-before +after):\n%s", diff)
	}
}

// TestBuildFileReadsTheProjectUnderTheLock: a build that waited for another one builds what that one
// left in opack.yaml, not what the file held when it started waiting.
func TestBuildFileReadsTheProjectUnderTheLock(t *testing.T) {
	dir := sampleProject(t)
	p := load(t, dir)
	release, err := tryLock(p.Dir, true) // build A in progress
	if err != nil {
		t.Fatal(err)
	}
	type result struct {
		version string
		err     error
	}
	done := make(chan result, 1)
	var log strings.Builder
	waiting := make(chan struct{})
	go func() { // build B
		res, err := BuildFile(context.Background(), p.File, BuildLog(writerFunc(func(b []byte) {
			if strings.Contains(string(b), "waiting for another opack build") {
				close(waiting)
			}
			log.Write(b)
		})))
		r := result{err: err}
		if res != nil {
			r.version = res.Version
		}
		done <- r
	}()
	<-waiting
	data, err := os.ReadFile(p.File) // build A ends having saved --version 0.0.2 in opack.yaml
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), "0.0.1") {
		t.Fatalf("fixture changed: opack.yaml does not hold version 0.0.1:\n%s", data)
	}
	if err := os.WriteFile(p.File, []byte(strings.Replace(string(data), "0.0.1", "0.0.2", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	release()
	r := <-done
	if r.err != nil {
		t.Fatalf("build B: %v\n%s", r.err, log.String())
	}
	if diff := cmp.Diff("0.0.2", r.version); diff != "" {
		t.Errorf("version built by the build that waited (-want +got):\n%s", diff)
	}
}

type writerFunc func([]byte)

func (f writerFunc) Write(b []byte) (int, error) { f(b); return len(b), nil }
