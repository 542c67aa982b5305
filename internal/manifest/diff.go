package manifest

import (
	"bytes"
	"strings"

	"github.com/pmezard/go-difflib/difflib"
)

// UnifiedDiff returns the unified diff of one file from old to cur ("" when equal), as git
// shows it (a/NAME, b/NAME; an absolute NAME as is). A side that does not exist (inOld or inNew
// false) is shown as /dev/null; a missing final newline is marked.
func UnifiedDiff(name string, old []byte, inOld bool, cur []byte, inNew bool) string {
	if inOld == inNew && bytes.Equal(old, cur) {
		return ""
	}
	from, to := "a/"+name, "b/"+name
	if strings.HasPrefix(name, "/") {
		from, to = name, name
	}
	if !inOld {
		from = "/dev/null"
	}
	if !inNew {
		to = "/dev/null"
	}
	text, err := difflib.GetUnifiedDiffString(difflib.UnifiedDiff{
		A: lines(old), B: lines(cur),
		FromFile: from, ToFile: to, Context: 3,
	})
	if err != nil || text == "" {
		// Only a difference difflib cannot show (e.g. a missing final newline) is left.
		return "--- " + from + "\n+++ " + to + "\n@@ files differ @@\n"
	}
	return text
}

// lines splits text after each newline; a last line without one gets a marker so the
// difference shows.
func lines(b []byte) []string {
	if len(b) == 0 {
		return nil
	}
	out := strings.SplitAfter(string(b), "\n")
	if last := out[len(out)-1]; last == "" {
		out = out[:len(out)-1]
	} else {
		out[len(out)-1] = last + "\n\\ No newline at end of file\n"
	}
	return out
}
