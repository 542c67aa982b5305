package diff

import (
	"fmt"
	"io/fs"
	"strings"

	"github.com/opack/opack/internal/finding"
)

// locate sets the finding's file and line: the HEAD file of the blob it is about.
func (a *analysis) locate(f finding.Finding, p string) finding.Finding {
	channel, bundle := objectParts(f.Object)
	file := a.l.headSrc.File(p, channel, bundle)
	if file == "" {
		return f
	}
	f.File = a.hs.file(file)
	name := bundle
	if name == "" {
		name = channel
	}
	if name == "" {
		name = p
	}
	f.Line = a.lineOf(file, name)
	return f
}

// objectParts reads the channel and bundle of a finding's object (`package "p" channel "c"`,
// `package "p" bundle "b"`, `package "p" edge a -> b`: the edge's target).
func objectParts(object string) (channel, bundle string) {
	var p string
	if _, err := fmt.Sscanf(object, "package %q channel %q", &p, &channel); err == nil {
		return channel, ""
	}
	if _, err := fmt.Sscanf(object, "package %q bundle %q", &p, &bundle); err == nil {
		return "", bundle
	}
	if i := strings.Index(object, " -> "); i >= 0 && strings.Contains(object, " edge ") {
		return "", strings.TrimSpace(object[i+4:])
	}
	return "", ""
}

// lineOf returns the line of the least indented `name: NAME` / `"name": "NAME"` of a HEAD
// file (the blob's own name, not a channel entry naming it), or 0.
func (a *analysis) lineOf(file, name string) int {
	lines, ok := a.contents[file]
	if !ok {
		data, err := fs.ReadFile(a.hs.fsys, file)
		if err == nil {
			lines = strings.Split(string(data), "\n")
		}
		a.contents[file] = lines
	}
	best, bestIndent := 0, -1
	for i, l := range lines {
		t := strings.TrimLeft(l, " \t")
		indent := len(l) - len(t)
		if rest, ok := strings.CutPrefix(t, "- "); ok {
			t, indent = rest, indent+2 // a list item (a channel entry) is below its blob
		}
		if t == "name: "+name || t == `name: "`+name+`"` || strings.HasPrefix(t, `"name": "`+name+`"`) {
			if bestIndent < 0 || indent < bestIndent {
				best, bestIndent = i+1, indent
			}
		}
		if strings.Contains(t, `"name":"`+name+`"`) && best == 0 { // one-line JSON blobs
			best = i + 1
		}
	}
	return best
}
