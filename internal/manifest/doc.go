// Package manifest is opack's ground floor for files: it reads YAML and JSON object streams
// with limits (document and file size, alias expansion), lists trees without following symlinks
// out of them, and writes files and folders atomically (temp + rename) so an interrupted run
// leaves the previous output intact.
package manifest
