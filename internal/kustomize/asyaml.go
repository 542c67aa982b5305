package kustomize

import (
	"bytes"
	"fmt"
	"runtime"
	"sync"

	"sigs.k8s.io/kustomize/api/resmap"
)

// asYAML is resmap's AsYaml — each resource as YAML, "---" between them — with the resources encoded in
// parallel: each goes through four encodings (YAML node, text, map, JSON, YAML again), about a sixth of a
// build's CPU on a repository with large CRDs, and the resources share nothing while being read.
func asYAML(m resmap.ResMap) ([]byte, error) {
	resources := m.Resources()
	outs := make([][]byte, len(resources))
	errs := make([]error, len(resources))
	workers := min(runtime.GOMAXPROCS(0), len(resources))
	var next sync.Mutex
	i := 0
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				next.Lock()
				j := i
				i++
				next.Unlock()
				if j >= len(resources) {
					return
				}
				outs[j], errs[j] = resources[j].AsYAML()
			}
		})
	}
	wg.Wait()
	var buf bytes.Buffer
	for j, out := range outs {
		if errs[j] != nil {
			obj, _ := resources[j].Map()
			return nil, fmt.Errorf("%#v: %w", obj, errs[j])
		}
		if j > 0 {
			buf.WriteString("---\n")
		}
		buf.Write(out)
	}
	return buf.Bytes(), nil
}
