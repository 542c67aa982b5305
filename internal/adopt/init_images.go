package adopt

import (
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/opack/opack/internal/makefile"
)

// builtImage finds the image a recipe builds from a Dockerfile whose name ends as dockerfile
// (`docker build -f bundle.Dockerfile -t $(BUNDLE) .`, podman and buildah alike), or that `opm index
// add --tag` makes when index: the image name a Makefile keeps in a variable of another name than
// BUNDLE_IMG or CATALOG_IMG. It returns the marked read's reference (versionMark for VERSION), the
// command, and why it is not read.
func builtImage(f *makefile.File, dockerfile string, index bool) (ref string, at makefile.Line, why string) {
	targets := f.Targets()
	sort.Strings(targets)
	for _, t := range targets {
		cmds, _ := f.Commands(t)
		for _, c := range cmds {
			if tag, ok := buildTag(c, dockerfile, index); ok {
				return tag.Text, c.At, tag.Unread
			}
		}
	}
	return "", makefile.Line{}, ""
}

// buildTag is the -t/--tag of a container build of dockerfile, or of opm index add.
func buildTag(c makefile.Command, dockerfile string, index bool) (makefile.Word, bool) {
	var args []makefile.Word
	fromIndex := false
	switch {
	case index && c.Tool("opm") && c.IndexOf("index", "add") == 1:
		args, fromIndex = c.Args[3:], true
	case (c.Tool("docker") || c.Tool("podman") || c.Tool("buildah")) && (c.IndexOf("build") >= 1 || c.IndexOf("buildx", "build") >= 1 || c.IndexOf("bud") >= 1):
		args = c.Args[1:]
	default:
		return makefile.Word{}, false
	}
	var tag makefile.Word
	file, tagged := false, false
	for i := 0; i < len(args); i++ {
		name, val, hasVal := strings.Cut(args[i].Text, "=")
		next := func() makefile.Word {
			if hasVal {
				return makefile.Word{Text: val, Unread: args[i].Unread}
			}
			if i+1 < len(args) {
				i++
				return args[i]
			}
			return makefile.Word{}
		}
		switch name {
		case "-f", "--file":
			w := next()
			base := strings.ToLower(path.Base(w.Text))
			file = w.Unread == "" && (strings.HasSuffix(base, strings.ToLower(dockerfile)) || index && (strings.Contains(base, "catalog") || strings.Contains(base, "index")))
		case "-t", "--tag":
			if !tagged {
				tag, tagged = next(), true
			}
		}
	}
	return tag, tagged && (file || fromIndex)
}

// imageFromBuild takes the bundle or catalog image from the recipe that builds it when the
// Makefile sets no BUNDLE_IMG or CATALOG_IMG.
func (mi *makeInfo) imageFromBuild(plain, marked *makefile.File, what, dockerfile string, index bool) string {
	ref, at, why := builtImage(marked, dockerfile, index)
	if ref == "" && why == "" {
		return ""
	}
	if why != "" {
		mi.Notes = append(mi.Notes, fmt.Sprintf("%s: %s: the %s image it builds is not read: %s", at.Pos, firstLine(at.Text), what, strings.ReplaceAll(why, versionMark, "$(VERSION)")))
		return ""
	}
	if strings.Contains(ref, versionMark) && !mi.templatable() {
		plainRef, _, pwhy := builtImage(plain, dockerfile, index)
		if pwhy != "" {
			return ""
		}
		ref = plainRef
	}
	mi.Notes = append(mi.Notes, fmt.Sprintf("%s: %s: the %s image is the one this command builds: %s", at.Pos, firstLine(at.Text), what, strings.ReplaceAll(ref, versionMark, "$(VERSION)")))
	if what == "bundle" {
		mi.bundleImageFrom = fmt.Sprintf("image built at %s", at.Pos)
	}
	return ref
}
