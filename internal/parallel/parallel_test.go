package parallel

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestForEach(t *testing.T) {
	tests := []struct {
		name string
		n    int
	}{
		{"none", 0},
		{"one", 1},
		{"many", 1000},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := make([]int, tt.n)
			var last atomic.Int64
			ForEach(context.Background(), tt.n, func(done, total int) { last.Store(int64(done)) }, func(i int) { got[i] = i * i })
			want := make([]int, tt.n)
			for i := range want {
				want[i] = i * i
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("results (-want +got):\n%s", diff)
			}
			if int(last.Load()) != tt.n {
				t.Errorf("last progress = %d, want %d", last.Load(), tt.n)
			}
		})
	}
}

func TestForEachStopsWhenCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var ran atomic.Int64
	ForEach(ctx, 100, nil, func(int) { ran.Add(1) })
	if ran.Load() != 0 {
		t.Errorf("ran %d pieces after cancellation, want 0", ran.Load())
	}
}
