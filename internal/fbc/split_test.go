package fbc

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"
)

// splitYAML is the reference docReader follows (the whole stream in memory): it cuts a YAML stream at lines starting with "---" like k8s' YAMLReader: only a
// comment may follow the separator; documents made only of comments or blank lines are
// kept (opm then reports them as missing their schema).
func splitYAML(data []byte) ([][]byte, error) {
	// k8s' LineReader strips "\r\n" or "\n" from each line and appends "\n".
	if bytes.IndexByte(data, '\r') >= 0 {
		data = bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n"))
	}
	if len(data) > 0 && data[len(data)-1] != '\n' {
		data = append(data[:len(data):len(data)], '\n')
	}
	var docs [][]byte
	start := 0
	for pos := 0; pos < len(data); {
		end := bytes.IndexByte(data[pos:], '\n')
		if end < 0 {
			end = len(data)
		} else {
			end += pos + 1
		}
		line := data[pos:end]
		if bytes.HasPrefix(line, []byte("---")) {
			rest := strings.TrimSpace(string(line[3:]))
			if rest != "" && rest[0] != '#' {
				return nil, fmt.Errorf("invalid Yaml document separator: %s", rest)
			}
			if pos > start {
				docs = append(docs, data[start:pos])
			}
			start = end
		}
		pos = end
	}
	if start < len(data) {
		docs = append(docs, data[start:])
	}
	return docs, nil
}

// readDocs reads every document of data with a docReader (copies), or its error.
func readDocs(r io.Reader) ([]string, error) {
	d := newDocReader(r)
	var out []string
	for {
		doc, err := d.next()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		out = append(out, string(doc))
	}
}

// sameAsSplitYAML fails t unless a docReader reads data as splitYAML cuts it, read at once and a
// byte at a time.
func sameAsSplitYAML(t *testing.T, data []byte) {
	t.Helper()
	docs, werr := splitYAML(data)
	var want []string
	for _, d := range docs {
		want = append(want, string(d))
	}
	for _, r := range []io.Reader{bytes.NewReader(data), iotest.OneByteReader(bytes.NewReader(data))} {
		got, gerr := readDocs(r)
		if fmt.Sprint(werr) != fmt.Sprint(gerr) {
			t.Fatalf("error: got %v, want %v", gerr, werr)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("documents (-splitYAML +docReader):\n%s", diff)
		}
	}
}

func TestDocReaderSameAsSplitYAML(t *testing.T) {
	long := strings.Repeat("x", 70<<10) // longer than the reader's buffer
	tests := []struct{ name, in string }{
		{"empty", ""},
		{"one document", "a: 1\n"},
		{"no final line break", "a: 1"},
		{"separators and empty documents", "---\na: 1\n---\n---\nb: 2\n---\n"},
		{"comment after separator", "a: 1\n--- # next\nb: 2\n"},
		{"invalid separator", "a: 1\n--- b: 2\n"},
		{"dashes inside a line are not a separator", "a: '---'\n ---\nb: 2\n"},
		{"CRLF line ends", "a: 1\r\n---\r\nb: 2\r\n"},
		{"CR at the very end stays", "a: 1\r"},
		{"lone CR kept", "a: 1\rb\n"},
		{"only comments and blank lines", "# c\n\n---\n\n"},
		{"a line longer than the buffer", "a: " + long + "\n---\nb: 2\n"},
		{"a separator longer than the buffer", "a: 1\n--- #" + long + "\nb: 2\n"},
		{"an invalid separator longer than the buffer", "a: 1\n--- x" + long + "\n"},
		{"CRLF split by the buffer", "a: " + long[:64<<10-4] + "\r\nb: 2\n"},
		{"separator without line break at the end", "a: 1\n---"},
		{"leading blank lines", "\n\n  \na: 1\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { sameAsSplitYAML(t, []byte(tc.in)) })
	}
}

func TestParseStreamSeparatorOutranksDocumentError(t *testing.T) {
	// splitYAML refused the whole stream for an invalid separator before parsing a document:
	// an earlier bad document does not change the error.
	_, err := ParseStream([]byte("schema: olm.package\nname: [\n--- x\n"))
	if want := "invalid Yaml document separator: x"; err == nil || err.Error() != want {
		t.Fatalf("got %v, want %q", err, want)
	}
}

// FuzzDocReader: a docReader reads any stream as splitYAML cuts it (outside CI: hack/fuzz.sh).
func FuzzDocReader(f *testing.F) {
	for _, s := range []string{"a: 1\n---\nb: 2\n", "--- #c\r\n\r\nx", "---x\n", "a\r\n---\r\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) { sameAsSplitYAML(t, data) })
}
