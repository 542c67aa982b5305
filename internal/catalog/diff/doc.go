// Package diff compares two file-based catalogs for pull-request review (opack catalog diff,
// and opack check in fbc mode against the last commit).
//
//   - source.go, git.go: BASE and HEAD as folders, catalog images (unpacked through
//     image.Puller) or git:REV:PATH, read from the repository's object database with go-git
//     (no checkout, no git binary). Every file is hashed as a git blob.
//   - load.go, blobs.go: only the files whose hash differs are decoded, plus the unchanged files that name
//     a package of a changed file; packages whose blobs are the same on both sides are dropped.
//   - changes.go, paths.go, analysis.go, locate.go: per package, bundles, channels, entries, heads, default channel and
//     deprecations that changed; the installed releases whose OLM v0 path or OLM v1 path changed
//     (internal/catalog/upgrades), the releases newly stranded (RuleNewlyStranded, an error), CRD
//     safety of the edges HEAD adds (check.CheckEdges on those edges only) and opm's checks of the
//     changed packages (check.Validate with CheckOPM).
//   - write.go, markdown.go, mermaid.go: text, JSON, GitHub annotations, one markdown comment and a
//     Mermaid graph with the added and removed edges marked.
package diff
