// Command synthgen writes a deterministic synthetic catalog (internal/synth) for `make bench`'s
// whole-process figures:
//
//	go run ./hack/synthgen -bundles 1000 -seed 7 DIR   # DIR/bundles/<pkg>/<version>, DIR/catalog
//	go run ./hack/synthgen -bundles 1000 -cache DIR    # reuses DIR/synth-1000-v<N>-<hash>; prints its path
//	go run ./hack/synthgen -shape skiprange-all -bundles 3000 DIR   # one channel of a costly shape (synth.WriteShape)
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/opack/opack/internal/synth"
)

func main() {
	bundles := flag.Int("bundles", 100, "number of bundles")
	seed := flag.Uint64("seed", 7, "seed (the same seed gives the same bytes)")
	cache := flag.String("cache", "", "keep the catalog in a folder of this cache (reused when complete) and print its path")
	shape := flag.String("shape", "", "write one package of this shape instead ("+synth.ShapeSkipRangeAll+", "+synth.ShapeReplacesChain+")")
	flag.Parse()
	if *shape != "" && flag.NArg() == 1 {
		if err := synth.WriteShape(flag.Arg(0), *shape, *bundles); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		return
	}
	cfg := synth.Config{Seed: *seed, Bundles: *bundles}
	switch {
	case *cache != "" && flag.NArg() == 0:
		res, err := synth.WriteCached(*cache, cfg)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		fmt.Println(filepath.Dir(res.CatalogDir))
	case *cache == "" && flag.NArg() == 1:
		if _, err := synth.Write(flag.Arg(0), cfg); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	default:
		fmt.Fprintln(os.Stderr, "usage: synthgen [-bundles N] [-seed S] DIR | synthgen [-bundles N] [-seed S] -cache DIR")
		os.Exit(2)
	}
}
