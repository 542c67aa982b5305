// Package graph is a catalog's upgrade graph (edges and channel heads) and its drawings: Mermaid
// as `opm alpha render-graph` writes it, and Graphviz dot.
package graph
