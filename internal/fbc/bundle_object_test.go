package fbc

import (
	"encoding/base64"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestBundleObjectData: the direct decoding of {"data":"<base64>"} gives what encoding/json gives,
// data and error alike, and everything else still goes through encoding/json.
func TestBundleObjectData(t *testing.T) {
	obj := base64.StdEncoding.EncodeToString([]byte(`{"apiVersion":"v1","kind":"ConfigMap"}`))
	for _, tc := range []struct {
		name  string
		value string
		plain bool // decoded without encoding/json
	}{
		{name: "plain", value: `{"data":"` + obj + `"}`, plain: true},
		{name: "JSON whitespace around", value: " \n\t" + `{"data":"` + obj + `"}` + "\r\n", plain: true},
		{name: "empty data", value: `{"data":""}`, plain: true},
		{name: "space inside", value: `{ "data": "` + obj + `" }`},
		{name: "another key too", value: `{"data":"` + obj + `","x":1}`},
		{name: "key in another case", value: `{"Data":"` + obj + `"}`},
		{name: "escaped slash", value: `{"data":"` + obj[:4] + `\/` + obj[4:] + `"}`},
		{name: "newline in the string", value: "{\"data\":\"" + obj[:8] + "\n" + obj[8:] + "\"}"},
		{name: "invalid base64", value: `{"data":"abc"}`},
		{name: "null", value: `{"data":null}`},
		{name: "not an object", value: `"x"`},
		{name: "non-JSON space around", value: "\v" + `{"data":"` + obj + `"}`},
		{name: "truncated", value: `{"data":"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var bo BundleObject
			wantErr := json.Unmarshal([]byte(tc.value), &bo)
			got, err := bundleObjectData([]byte(tc.value))
			if d := cmp.Diff(bo.Data, got); d != "" {
				t.Errorf("data (-encoding/json +bundleObjectData):\n%s", d)
			}
			if (wantErr == nil) != (err == nil) || (err != nil && err.Error() != wantErr.Error()) {
				t.Errorf("error %v, encoding/json says %v", err, wantErr)
			}
			if _, plain := plainBundleObject([]byte(tc.value)); plain != tc.plain {
				t.Errorf("decoded directly: %v, want %v", plain, tc.plain)
			}
		})
	}
}

// FuzzBundleObjectData: bundleObjectData agrees with encoding/json on any value (make fuzz).
func FuzzBundleObjectData(f *testing.F) {
	for _, s := range []string{`{"data":"eyJhIjoxfQ=="}`, `{"data":""}`, `{"data":"ab\ncd"}`, ` {"data":"YQ=="} `, `{"data":"YQ="}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, value []byte) {
		var bo BundleObject
		wantErr := json.Unmarshal(value, &bo)
		got, err := bundleObjectData(value)
		if (wantErr == nil) != (err == nil) {
			t.Fatalf("%q: error %v, encoding/json says %v", value, err, wantErr)
		}
		if err == nil && string(got) != string(bo.Data) {
			t.Fatalf("%q: data %q, encoding/json gives %q", value, got, bo.Data)
		}
	})
}
