package manifest

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestDecode(t *testing.T) {
	for _, tc := range []struct {
		name    string
		in      string
		opts    []Option
		want    []string // kind/name of each decoded document
		wantErr string
	}{
		{name: "yaml stream with empty docs", in: "---\n# c\n---\nkind: A\nmetadata: {name: a}\n---\n\n---\nkind: B\nmetadata: {name: b}\n", want: []string{"A/a", "B/b"}},
		{name: "json stream", in: `{"kind":"A","metadata":{"name":"a"}} {"kind":"B"}`, want: []string{"A/a", "B/"}},
		{name: "null document skipped", in: "null\n---\nkind: A\n", want: []string{"A/"}},
		{name: "not an object", in: "- a\n- b\n", wantErr: "document 1: the document is a []interface {}, not an object"},
		{name: "invalid yaml", in: "kind: A\n---\nkind: [\n", wantErr: "decoding in.yaml document 2"},
		{name: "file too large", in: "kind: A\n", opts: []Option{WithMaxFileSize(4)}, wantErr: "in.yaml: file size exceeds the limit of 4"},
		{name: "document too large", in: "kind: A\n---\nkind: BBBBBBBBBBBBBBBBB\n", opts: []Option{WithMaxDocSize(12)}, wantErr: "document size exceeds the limit of 12"},
		{name: "alias bomb refused", in: billionLaughs, wantErr: "YAML aliases expand to more than"},
		{name: "few aliases accepted", in: "kind: A\nx: &x {a: 1}\ny: *x\n", want: []string{"A/"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			docs, err := Decode(strings.NewReader(tc.in), "in.yaml", tc.opts...)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("Decode() error = %v, want it to contain %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("Decode() error = %v", err)
			}
			var got []string
			for i, d := range docs {
				if d.Index != i {
					t.Errorf("docs[%d].Index = %d", i, d.Index)
				}
				got = append(got, d.Object.GetKind()+"/"+d.Object.GetName())
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("Decode() (-want +got):\n%s", diff)
			}
		})
	}
}

func TestLimitErrorIsTyped(t *testing.T) {
	_, err := Decode(strings.NewReader("kind: A\n"), "f", WithMaxFileSize(1))
	var le *LimitError
	if !errors.As(err, &le) || le.What != "file size" {
		t.Fatalf("Decode() error = %v, want a *LimitError for the file size", err)
	}
}

func TestDocString(t *testing.T) {
	docs, err := Decode(strings.NewReader("kind: Deployment\nmetadata: {name: m}\n"), "a.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff("a.yaml (document 1: Deployment m)", docs[0].String()); diff != "" {
		t.Error(diff)
	}
}

const billionLaughs = `a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]
b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]
c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]
d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]
e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]
f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]
g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]
h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]
i: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]
`

func TestDecodeKeepsIntegers(t *testing.T) {
	for _, in := range []string{"kind: A\nnum: 3\nf: 1.5\n", `{"kind":"A","num":3,"f":1.5}`} {
		docs, err := Decode(strings.NewReader(in), "x")
		if err != nil {
			t.Fatal(err)
		}
		got := []any{docs[0].Object.Object["num"], docs[0].Object.Object["f"]}
		if diff := cmp.Diff([]any{int64(3), 1.5}, got); diff != "" {
			t.Errorf("%q (-want +got):\n%s", in, diff)
		}
	}
}

func TestReadBytes(t *testing.T) {
	dir := t.TempDir()
	small := dir + "/small"
	if err := os.WriteFile(small, []byte("annotations: {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, path string
		opts       []Option
		wantErr    string
	}{
		{name: "within the limit", path: small},
		{name: "over the limit", path: small, opts: []Option{WithMaxFileSize(4)}, wantErr: "small: file size exceeds the limit of 4 (raise it with --max-file-size)"},
		{name: "missing", path: dir + "/nope", wantErr: "no such file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data, err := ReadBytes(tc.path, tc.opts...)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("ReadBytes() error = %v, want it to contain %q", err, tc.wantErr)
				}
				return
			}
			if err != nil || string(data) != "annotations: {}\n" {
				t.Fatalf("ReadBytes() = %q, %v", data, err)
			}
		})
	}
}
