// Package parallel runs independent pieces of work on every core.
package parallel

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
)

// ForEach runs fn(0..n-1) on GOMAXPROCS goroutines, handing out indexes in order, reporting progress
// (when not nil) from one goroutine at a time, and stops handing out work when ctx is done.
func ForEach(ctx context.Context, n int, progress func(done, total int), fn func(i int)) {
	var (
		next atomic.Int64
		mu   sync.Mutex
		done int
		wg   sync.WaitGroup
	)
	for range min(runtime.GOMAXPROCS(0), n) {
		wg.Go(func() {
			for ctx.Err() == nil {
				i := int(next.Add(1)) - 1
				if i >= n {
					return
				}
				fn(i)
				if progress != nil {
					mu.Lock()
					done++
					progress(done, n)
					mu.Unlock()
				}
			}
		})
	}
	wg.Wait()
}
