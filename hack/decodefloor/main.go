// Command decodefloor is the decode floor of `make bench`'s whole-process figures: it reads every
// YAML and JSON file below the given folders and decodes each document once into generic maps
// with go.yaml.in/yaml/v2 (the fastest of the decoders BenchmarkDecodeFloor measures, and the
// parser sigs.k8s.io/yaml uses) on all cores, doing nothing else.
//
//	go run ./hack/decodefloor DIR...
package main

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"

	yamlv2 "go.yaml.in/yaml/v2"

	"github.com/opack/opack/internal/manifest"
)

func main() {
	var files []string
	for _, root := range os.Args[1:] {
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			switch strings.ToLower(filepath.Ext(p)) {
			case ".yaml", ".yml", ".json":
				files = append(files, p)
			}
			return nil
		})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
	}
	next := make(chan string)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for p := range next {
				decode(p)
			}
		}()
	}
	for _, f := range files {
		next <- f
	}
	close(next)
	wg.Wait()
}

func decode(path string) {
	data, err := os.ReadFile(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return
	}
	docs, err := manifest.Split(data, path)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return
	}
	for _, d := range docs {
		var v interface{}
		_ = yamlv2.Unmarshal(d, &v)
	}
}
