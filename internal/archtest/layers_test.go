package archtest

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// layers reads the allow-list of ARCHITECTURE.md: package → the opack packages it may import.
func layers(t *testing.T) map[string][]string {
	t.Helper()
	data, err := os.ReadFile("../../ARCHITECTURE.md")
	if err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(string(data), "<!-- layers:begin -->")
	if table, _, ok = strings.Cut(table, "<!-- layers:end -->"); !ok {
		t.Fatal("ARCHITECTURE.md: no layers table between <!-- layers:begin --> and <!-- layers:end -->")
	}
	allow := map[string][]string{}
	for _, line := range strings.Split(table, "\n") {
		cells := strings.Split(line, "|")
		if len(cells) != 5 || strings.HasPrefix(strings.TrimSpace(cells[1]), "---") || strings.TrimSpace(cells[1]) == "Package" {
			continue
		}
		pkg := strings.TrimSpace(cells[1])
		if _, dup := allow[pkg]; dup {
			t.Errorf("ARCHITECTURE.md: %s has two rows", pkg)
		}
		allow[pkg] = nil
		for _, dep := range strings.Split(cells[3], ",") {
			if dep = strings.TrimSpace(dep); dep != "" {
				allow[pkg] = append(allow[pkg], dep)
			}
		}
	}
	return allow
}

// closure returns every package pkg may use, directly or through the packages it may use.
func closure(allow map[string][]string, pkg string) map[string]bool {
	seen := map[string]bool{}
	var walk func(string)
	walk = func(p string) {
		for _, d := range allow[p] {
			if !seen[d] {
				seen[d] = true
				walk(d)
			}
		}
	}
	walk(pkg)
	return seen
}

// TestLayers checks every opack package's transitive opack dependencies against ARCHITECTURE.md
// (as go-containerregistry's internal/depcheck does), and that every package has a row there.
func TestLayers(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}} {{join .Deps " "}}`, module+"...").Output()
	if err != nil {
		t.Skipf("go list unavailable: %v", err)
	}
	allow := layers(t)
	var got []string
	listed := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		pkg := strings.TrimPrefix(f[0], module)
		listed[pkg] = true
		if _, ok := allow[pkg]; !ok {
			got = append(got, pkg+" has no row in ARCHITECTURE.md's layers table")
			continue
		}
		ok := closure(allow, pkg)
		for _, dep := range f[1:] {
			d, mine := strings.CutPrefix(dep, module)
			if mine && !ok[d] {
				got = append(got, pkg+" depends on "+d)
			}
		}
	}
	for pkg := range allow {
		if !listed[pkg] {
			got = append(got, "ARCHITECTURE.md lists "+pkg+", which does not exist")
		}
	}
	sort.Strings(got)
	if diff := cmp.Diff([]string(nil), got); diff != "" {
		t.Errorf("dependencies ARCHITECTURE.md does not allow (-want +got):\n%s", diff)
	}
}
