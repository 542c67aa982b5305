// Command synthgen writes a deterministic synthetic catalog (internal/synth) for `make bench`'s
// whole-process figures:
//
//	go run ./hack/synthgen -bundles 1000 -seed 7 DIR   # DIR/bundles/<pkg>/<version>, DIR/catalog
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/opack/opack/internal/synth"
)

func main() {
	bundles := flag.Int("bundles", 100, "number of bundles")
	seed := flag.Uint64("seed", 7, "seed (the same seed gives the same bytes)")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: synthgen [-bundles N] [-seed S] DIR")
		os.Exit(2)
	}
	if _, err := synth.Write(flag.Arg(0), synth.Config{Seed: *seed, Bundles: *bundles}); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
