package fbc

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/opack/opack/internal/fbc/internal/codec"
)

func TestCanonJSON(t *testing.T) {
	for _, in := range []string{
		`{"b":1,"a":{"d":[1,2.50,-0,1e3,12345678901234567890,0.000001,1e-7],"c":"x"}}`,
		` { "z" : "<&>" , "y" : "\u003cb\u003e \u2028 \n \ud83d\ude00 é" , "x" : [ ] , "w" : { } } `,
		`{"t":true,"f":false,"n":null,"s":"","big":1.7976931348623157e308}`,
		`{"k":"\u0000\u001f\t"}`,
	} {
		want, err := reencode([]byte(in), false)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := codec.CanonJSON([]byte(in))
		if !ok {
			t.Fatalf("canonJSON refused %s", in)
		}
		if diff := cmp.Diff(string(want), string(got)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", in, diff)
		}
	}
	for _, in := range []string{`{"a":1,"a":2}`, `{"\u0061":1}`, `{"a":1e400}`} {
		if got, ok := codec.CanonJSON([]byte(in)); ok {
			t.Errorf("canonJSON accepted %s: %s", in, got)
		}
	}
}

// TestCanonJSONGoldens compares canonJSON with opm's round trip on every JSON file of the goldens.
func TestCanonJSONGoldens(t *testing.T) {
	n := 0
	err := filepath.WalkDir(opmTestdata, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".json") {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		cfgless := strings.TrimSpace(string(data))
		if !strings.HasPrefix(cfgless, "{") {
			return nil
		}
		raws, err := splitJSONStream(data)
		if err != nil {
			return nil
		}
		for _, raw := range raws {
			want, err := reencode(raw, false)
			if err != nil {
				continue
			}
			got, ok := codec.CanonJSON(raw)
			n++
			if ok && string(got) != string(want) {
				t.Errorf("%s: canonJSON differs:\n%s", path, cmp.Diff(string(want), string(got)))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d JSON documents compared", n)
}

// splitJSONStream cuts a stream of concatenated JSON values.
func splitJSONStream(data []byte) ([]json.RawMessage, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	var out []json.RawMessage
	for {
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			if errors.Is(err, io.EOF) {
				return out, nil
			}
			return out, err
		}
		out = append(out, raw)
	}
}
