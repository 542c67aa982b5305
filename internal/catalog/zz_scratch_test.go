package catalog

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"

	yaml3 "gopkg.in/yaml.v3"
	"sigs.k8s.io/yaml"
)

func TestScratchYAMLSpeed(t *testing.T) {
	files, _ := filepath.Glob("/work/shared/corpus/fbc/certified-operators-v4.22/*/catalog.yaml")
	var datas [][]byte
	for _, f := range files {
		b, _ := os.ReadFile(f)
		datas = append(datas, b)
	}
	start := time.Now()
	n := 0
	for _, b := range datas {
		for _, d := range bytes.Split(b, []byte("\n---\n")) {
			j, err := yaml.YAMLToJSON(d)
			if err != nil {
				t.Fatal(err)
			}
			n += len(j)
		}
	}
	t.Logf("sigs YAMLToJSON: %v (%d bytes json)", time.Since(start), n)
	start = time.Now()
	for _, b := range datas {
		dec := yaml3.NewDecoder(bytes.NewReader(b))
		for {
			var nd yaml3.Node
			if err := dec.Decode(&nd); err != nil {
				break
			}
		}
	}
	t.Logf("yaml.v3 node: %v", time.Since(start))
}
