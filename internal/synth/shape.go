package synth

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// Shapes of one-channel catalogs whose cost an input's shape decides (the budgets of
// SECURITY.md): every bundle covering every other with skipRange ">=0.0.0" (n²/2 edges, n
// downgrade pairs per bundle), and a replaces chain of n entries (paths of n²/2 releases in all).
const (
	ShapeSkipRangeAll  = "skiprange-all"
	ShapeReplacesChain = "replaces-chain"
)

// WriteShape writes package "p" of n bundles in shape as one catalog.json below dir/p (a
// catalog folder: dir). Each bundle replaces the one before it; with ShapeSkipRangeAll each also
// has skipRange ">=0.0.0".
func WriteShape(dir, shape string, n int) error {
	if shape != ShapeSkipRangeAll && shape != ShapeReplacesChain {
		return fmt.Errorf("unknown shape %q: use %s or %s", shape, ShapeSkipRangeAll, ShapeReplacesChain)
	}
	if err := os.MkdirAll(filepath.Join(dir, "p"), 0o755); err != nil {
		return err
	}
	f, err := os.Create(filepath.Join(dir, "p", "catalog.json"))
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	enc := json.NewEncoder(w)
	entries := make([]obj, n)
	for i := range n {
		e := obj{"name": fmt.Sprintf("p.v0.0.%d", i)}
		if shape == ShapeSkipRangeAll {
			e["skipRange"] = ">=0.0.0"
		}
		if i > 0 {
			e["replaces"] = fmt.Sprintf("p.v0.0.%d", i-1)
		}
		entries[i] = e
	}
	docs := []obj{{"schema": "olm.package", "name": "p", "defaultChannel": "stable"},
		{"schema": "olm.channel", "name": "stable", "package": "p", "entries": entries}}
	for _, d := range docs {
		if err := enc.Encode(d); err != nil {
			return err
		}
	}
	for i := range n {
		b := obj{"schema": "olm.bundle", "name": fmt.Sprintf("p.v0.0.%d", i), "package": "p",
			"image":      fmt.Sprintf("quay.io/example/p@sha256:%064x", i),
			"properties": []obj{{"type": "olm.package", "value": obj{"packageName": "p", "version": fmt.Sprintf("0.0.%d", i)}}}}
		if err := enc.Encode(b); err != nil {
			return err
		}
	}
	if err := w.Flush(); err != nil {
		return err
	}
	return f.Close()
}
