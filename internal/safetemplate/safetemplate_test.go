package safetemplate

import (
	"bytes"
	"errors"
	"strconv"
	"strings"
	"testing"
	"text/template"

	"github.com/google/go-cmp/cmp"
)

// TestBudgets: templates that would loop forever, write without bound, recurse or allocate from
// a width stop with a *BudgetError (or a printf error), quickly; ordinary templates run as
// text/template runs them.
func TestBudgets(t *testing.T) {
	funcs := template.FuncMap{"upper": strings.ToUpper}
	tests := []struct {
		name, text string
		want       string // output, when it runs
		err        string // part of the error
	}{
		{name: "plain", text: `{{.Name}}: {{range .Items}}[{{.}}]{{end}} {{upper .Name}} {{printf "%05d" 42}}`, want: "op: [a][b] OP 00042"},
		{name: "range over an integer", text: `{{range 1000000000000}}AAAA{{end}}`, err: "more than 100000 steps"},
		{name: "empty loop body", text: `{{range 1000000000000}}{{end}}`, err: "more than 100000 steps"},
		{name: "nested loops over data", text: `{{range .Items}}{{range $.Items}}{{range $.Items}}{{range 100000}}x{{end}}{{end}}{{end}}{{end}}`, err: "steps"},
		{name: "output", text: `{{range 90000}}` + strings.Repeat("A", 100) + `{{end}}`, err: "wrote more than 4194304 bytes"},
		{name: "recursion", text: `{{define "a"}}{{template "a" .}}{{end}}{{template "a" .}}`, err: "call themselves (a → a)"},
		{name: "mutual recursion", text: `{{define "a"}}{{template "b" .}}{{end}}{{define "b"}}{{template "a" .}}{{end}}{{template "a" .}}`, err: "call themselves"},
		{name: "doubling calls", text: doubling(40), err: "more than 100000 steps"},
		{name: "printf width", text: `{{printf "%01000000000d" 1}}`, err: "a width or precision over 1000"},
		{name: "printf star", text: `{{printf "%0*d" 1000000000 1}}`, err: "(*) are not supported"},
		{name: "printf indexed star", text: `{{printf "%[1]*d" 1000000000 1}}`, err: "(*) are not supported"},
		{name: "printf precision", text: `{{printf "%.2000f" 1.0}}`, err: "over 1000"},
		{name: "printf ordinary", text: `{{printf "%s-%d %%5 %v" "a" 3 true}}`, want: "a-3 %5 true"},
		{name: "source size", text: strings.Repeat("x", MaxSource+1), err: "larger than 1048576 bytes"},
	}
	data := map[string]any{"Name": "op", "Items": []string{"a", "b"}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			tm, err := Parse(tt.name, tt.text, funcs)
			if err == nil {
				err = tm.Execute(&out, data)
			}
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error = %v, want %q", err, tt.err)
				}
				var be *BudgetError
				if !strings.Contains(tt.name, "printf") && !errors.As(err, &be) {
					t.Errorf("error %v is not a *BudgetError", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, out.String()); diff != "" {
				t.Errorf("output (-want +got):\n%s", diff)
			}
		})
	}
}

// doubling is n templates each calling the next twice: 2ⁿ calls without recursion.
func doubling(n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		b.WriteString(`{{define "t` + itoa(i) + `"}}{{template "t` + itoa(i+1) + `" .}}{{template "t` + itoa(i+1) + `" .}}{{end}}`)
	}
	b.WriteString(`{{define "t` + itoa(n) + `"}}{{end}}{{template "t0" .}}`)
	return b.String()
}

func itoa(i int) string { return strconv.Itoa(i) }
