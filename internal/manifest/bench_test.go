package manifest

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	yamlv2 "go.yaml.in/yaml/v2"
	yamlv3 "gopkg.in/yaml.v3"
	sigsyaml "sigs.k8s.io/yaml"

	"github.com/opack/opack/internal/benchutil"
)

// corpusFiles reads every YAML and JSON file below ../shared/corpus/<sub> (skipping when absent).
func corpusFiles(b *testing.B, sub string) (files [][]byte, names []string, size int64) {
	b.Helper()
	root := benchutil.CorpusDir(b, sub)
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		switch strings.ToLower(filepath.Ext(p)) {
		case ".yaml", ".yml", ".json":
		default:
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		files, names, size = append(files, data), append(names, p), size+int64(len(data))
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	return files, names, size
}

// parallel runs f over every item on all cores (GOMAXPROCS workers), as the pipeline does.
func parallel(n int, f func(i int) error) error {
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		first error
		next  = make(chan int)
	)
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				if err := f(i); err != nil {
					mu.Lock()
					if first == nil {
						first = err
					}
					mu.Unlock()
				}
			}
		}()
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
	return first
}

// floorDecoders decode one document into a generic map: the libraries the floor is measured with
// and this package's own decoder (what opack pays per document).
var floorDecoders = []struct {
	name   string
	decode func(doc []byte) error
}{
	{"sigs.k8s.io-yaml", func(d []byte) error { var m map[string]interface{}; return sigsyaml.Unmarshal(d, &m) }},
	{"yaml.v2", func(d []byte) error { var m interface{}; return yamlv2.Unmarshal(d, &m) }},
	{"yaml.v3", func(d []byte) error { var m map[string]interface{}; return yamlv3.Unmarshal(d, &m) }},
	{"manifest", func(d []byte) error { _, err := decodeObject(d, makeOptions(nil)); return err }},
}

// BenchmarkDecodeFloor measures the decode floor of the performance targets: every YAML/JSON file of a
// corpus, split into documents beforehand, decoded into maps on all cores with each decoder. MB/s is
// over the corpus's bytes. certified-operators is the 605-bundle corpus; fbc is certified-operators-v4.22.
func BenchmarkDecodeFloor(b *testing.B) {
	for _, sub := range []string{"certified-operators", "fbc"} {
		b.Run("corpus="+sub, func(b *testing.B) {
			files, names, size := corpusFiles(b, sub)
			var docs [][]byte
			for i, f := range files {
				raws, err := Split(f, names[i])
				if err != nil {
					b.Fatal(err)
				}
				docs = append(docs, raws...)
			}
			for _, dec := range floorDecoders {
				b.Run("decoder="+dec.name, func(b *testing.B) {
					b.SetBytes(size)
					b.ReportAllocs()
					defer benchutil.Measure(b)()
					for b.Loop() {
						_ = parallel(len(docs), func(i int) error { return dec.decode(docs[i]) })
					}
				})
			}
		})
	}
}

// BenchmarkReadFile reads (and splits and decodes) every file of the certified-operators corpus with
// ReadFile on all cores: the whole cost of this package per corpus.
func BenchmarkReadFile(b *testing.B) {
	_, names, size := corpusFiles(b, "certified-operators")
	b.SetBytes(size)
	b.ReportAllocs()
	defer benchutil.Measure(b)()
	for b.Loop() {
		if err := parallel(len(names), func(i int) error { _, err := ReadFile(names[i]); return err }); err != nil {
			b.Fatal(err)
		}
	}
}
