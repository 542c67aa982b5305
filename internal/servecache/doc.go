// Package servecache builds the serve cache of a file-based catalog, the folder `opm serve
// --cache-dir` reads at start-up, with operator-registry's own cache code
// (github.com/operator-framework/operator-registry/pkg/cache), without running opm.
//
// The cache is written in opm's JSON format: its files are a pure function of the catalog (JSON
// documents and an FNV digest over the catalog and the cache, with times and owners left out), so
// the same catalog gives the same bytes, and opm never writes to it when it loads it. opm's other
// format, pogreb.v1, is refused here: its database takes a random hash seed and the order of
// concurrent writes, so two builds of one catalog differ.
package servecache
