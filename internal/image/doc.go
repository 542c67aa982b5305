// Package image builds, publishes, inspects and unpacks OLM bundle and catalog images without a
// container daemon.
//
// Images are built with go-containerregistry from a directory tree: one reproducible layer (sorted
// entries, uid/gid 0, fixed modes and mtimes), config labels, and OCI annotations. The same input
// gives the same digest on any machine. A Publisher writes the result to a registry, an OCI image
// layout or a docker tarball. Unpack is the reverse: it pulls a bundle or catalog image (from a
// registry or an "oci:DIR[:TAG]" layout) and writes its filesystem to a directory, refusing entries
// that would escape it.
//
// ParseSource is the one rule every command uses to tell a command-line argument that is a local
// path from an image reference (registry, "oci:DIR", or a folder holding an OCI layout).
//
// Nothing here prints; progress and retries are logged to the io.Writer given with WithLogger.
package image
