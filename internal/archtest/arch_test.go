package archtest

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const module = "github.com/opack/opack/"

// forbidden maps a package prefix to third-party imports it must not have; imports between opack's
// own packages are checked against ARCHITECTURE.md by TestLayers.
var forbidden = map[string][]string{
	"internal/": {"github.com/spf13/cobra", "github.com/google/go-containerregistry/pkg/v1/daemon", module + "cmd/",
		module + "internal/olmtest", module + "internal/olmharness"},
}

// testOnly lists the test-only packages that may import another test-only package.
var testOnly = map[string]string{"internal/olmharness": module + "internal/olmtest"}

func TestImportsPointDown(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}} {{join .Imports \" \"}}", module+"internal/...").Output()
	if err != nil {
		t.Skipf("go list unavailable: %v", err)
	}
	var got []string
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		pkg := strings.TrimPrefix(f[0], module)
		for prefix, bans := range forbidden {
			if !strings.HasPrefix(pkg, prefix) {
				continue
			}
			for _, imp := range f[1:] {
				for _, ban := range bans {
					if strings.HasPrefix(imp, ban) && !strings.HasPrefix(imp, module+pkg) && !strings.HasPrefix(imp, module+"internal/version") && testOnly[pkg] != imp {
						got = append(got, pkg+" imports "+imp)
					}
				}
			}
		}
	}
	sort.Strings(got)
	if diff := cmp.Diff([]string(nil), got); diff != "" {
		t.Errorf("imports that point the wrong way (-want +got):\n%s", diff)
	}
}

var noCLI = regexp.MustCompile(`\bos\.Exit\(|\bfmt\.Print(f|ln)?\(|\bos\.Stdout\b|\blog\.Fatal`)

func TestNoProcessControlBelowCmd(t *testing.T) {
	var got []string
	root := filepath.Join("..")
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(data), "\n") {
			if noCLI.MatchString(line) && !strings.Contains(line, "//archtest:allow") {
				got = append(got, filepath.ToSlash(path)+":"+strconv.Itoa(i+1)+": "+strings.TrimSpace(line))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string(nil), got); diff != "" {
		t.Errorf("below cmd/, return results and errors instead (-want +got):\n%s", diff)
	}
}

// TestBinaryLinksNoTestHarness: the OLM test harness (internal/olmtest, with opm's gRPC client and
// server emulation) is for tests only and never reaches the opack binary.
func TestBinaryLinksNoTestHarness(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", module+"cmd/opack").Output()
	if err != nil {
		t.Skipf("go list unavailable: %v", err)
	}
	for _, pkg := range strings.Fields(string(out)) {
		if pkg == module+"internal/olmtest" {
			t.Errorf("the opack binary links %s", pkg)
		}
	}
}
