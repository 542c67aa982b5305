package render

import (
	"bytes"
	"context"
	"os"
	"testing"

	"github.com/opack/opack/internal/fbc"
)

// opmTestdata holds the opm v1.73.0 fixtures (testdata/opm/README.md).
const opmTestdata = "../../../testdata/opm"

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func loadDir(t *testing.T, dir string) *fbc.DeclarativeConfig {
	t.Helper()
	cfg, err := fbc.LoadDir(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

func writeString(t *testing.T, cfg *fbc.DeclarativeConfig, format string) string {
	t.Helper()
	var buf bytes.Buffer
	if err := fbc.Write(*cfg, format, &buf); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}
