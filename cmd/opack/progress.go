package main

import (
	"fmt"
	"io"
	"time"

	"github.com/opack/opack/internal/escape"
)

// rateProgress returns a progress function that writes "what: done/total, R/s, ETA D" over itself on w
// (the rate and the time left from the pace so far), at most every interval but always the last
// call, and clears the line when done reaches total. now is the clock (time.Now outside tests).
func rateProgress(w io.Writer, what string, interval time.Duration, now func() time.Time) func(done, total int) {
	w = escape.RawWriter(w) // opack's own \r and erase sequence
	start := now()
	var last time.Time
	return func(done, total int) {
		t := now()
		if done == total {
			fmt.Fprint(w, "\r\033[K")
			return
		}
		if !last.IsZero() && t.Sub(last) < interval {
			return
		}
		last = t
		fmt.Fprintf(w, "\r\033[K%s", progressLine(what, done, total, t.Sub(start)))
	}
}

// progressLine formats "what: done/total, R/s, ETA D" for done of total finished in elapsed; the rate
// and the ETA are left out until something is done.
func progressLine(what string, done, total int, elapsed time.Duration) string {
	line := fmt.Sprintf("%s: %d/%d", what, done, total)
	if done == 0 || elapsed <= 0 {
		return line
	}
	rate := float64(done) / elapsed.Seconds()
	eta := time.Duration(float64(total-done) / rate * float64(time.Second)).Round(time.Second)
	return fmt.Sprintf("%s, %.1f/s, ETA %s", line, rate, eta)
}
