// Command copycontent does what OLM v0's copy-content does in a catalog pod's extract-content init
// container (operator-lifecycle-manager cmd/copy-content): for --catalog.from/--catalog.to and, when
// given, --cache.from/--cache.to, remove the destination and copy the source tree into it with
// github.com/otiai10/copy's defaults (permission bits kept), at the version OLM pins. Tests only.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/otiai10/copy"
)

func main() {
	catalogFrom := flag.String("catalog.from", "", "path to catalog contents to copy")
	catalogTo := flag.String("catalog.to", "", "path to where catalog contents should be copied")
	cacheFrom := flag.String("cache.from", "", "path to cache contents to copy")
	cacheTo := flag.String("cache.to", "", "path to where cache contents should be copied")
	flag.Parse()
	if *catalogFrom == "" || *catalogTo == "" || (*cacheFrom == "") != (*cacheTo == "") {
		fmt.Fprintln(os.Stderr, "copycontent: --catalog.from and --catalog.to are required; --cache.from and --cache.to go together")
		os.Exit(2)
	}
	pairs := [][2]string{{*catalogFrom, *catalogTo}}
	if *cacheFrom != "" {
		pairs = append(pairs, [2]string{*cacheFrom, *cacheTo})
	}
	for _, p := range pairs {
		if err := os.RemoveAll(p[1]); err != nil {
			fmt.Printf("failed to remove %s: %s", p[1], err)
			os.Exit(1)
		}
		if err := copy.Copy(p[0], p[1]); err != nil {
			fmt.Printf("failed to copy %s to %s: %s\n", p[0], p[1], err)
			os.Exit(1)
		}
	}
}
