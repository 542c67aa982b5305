// Command opack generates, validates, packs and publishes OLM bundles and catalogs.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"
)

// stopGrace is how long opack may take to stop cleanly after SIGINT or SIGTERM (its context is
// cancelled at once); then it exits anyway, as a kill would. Every write of opack is atomic or
// journalled, so the project is left as before either way.
const stopGrace = 1500 * time.Millisecond

func main() { os.Exit(runWithSignals(os.Args[1:])) }

// runWithSignals runs opack with args as the process does: SIGINT and SIGTERM stop it.
func runWithSignals(args []string) int {
	ctx, cancel := context.WithCancelCause(context.Background())
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	go stopOnSignal(sigs, cancel)
	code := run(ctx, args, os.Stdin, os.Stdout, os.Stderr)
	signal.Stop(sigs)
	return code
}

// stopOnSignal cancels the command's context on the first SIGINT or SIGTERM and exits after
// stopGrace, or at once on a second signal, with the shell's code for the signal (128+n).
func stopOnSignal(sigs <-chan os.Signal, cancel context.CancelCauseFunc) {
	sig := <-sigs
	cancel(fmt.Errorf("stopped by %v", sig))
	select {
	case <-sigs:
	case <-time.After(stopGrace):
	}
	fmt.Fprintf(os.Stderr, "opack: stopped by %v\n", sig)
	code := 130
	if s, ok := sig.(syscall.Signal); ok {
		code = 128 + int(s)
	}
	os.Exit(code)
}
