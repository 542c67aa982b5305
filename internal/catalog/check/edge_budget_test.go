package check

import (
	"testing"
	"time"
)

func TestEdgeBudget(t *testing.T) {
	tests := []struct {
		name      string
		held      []int64 // acquired, in order, and not released
		next      int64
		wantBlock bool
	}{
		{name: "nothing in flight: a heavy edge runs", next: 50},
		{name: "fits beside the edges in flight", held: []int64{4, 4}, next: 2},
		{name: "over the budget: waits", held: []int64{4, 4}, next: 3, wantBlock: true},
		{name: "a heavy edge waits for the others", held: []int64{1}, next: 50, wantBlock: true},
		{name: "weightless edges never wait", held: []int64{50}, next: 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := newEdgeBudget(10)
			for _, w := range tc.held {
				b.acquire(w)
			}
			got := make(chan struct{})
			go func() { b.acquire(tc.next); close(got) }()
			if !tc.wantBlock {
				<-got // must not block (a deadlock fails the test by its timeout)
			} else {
				select {
				case <-got:
					t.Fatalf("acquire(%d) did not wait", tc.next)
				case <-time.After(100 * time.Millisecond): // still waiting: as wanted
				}
			}
			for _, w := range tc.held {
				b.release(w)
			}
			<-got // released: it proceeds
		})
	}
}
