// Package olmtest runs the software OLM runs, for end-to-end tests only (no opack command imports
// it): opm v1.73.0 built from operator-registry's module in hack/tools/opm, started as OLM v0's
// catalog pod runs it (pkg/controller/registry/reconciler/reconciler.go of operator-lifecycle-manager)
// in a network namespace of its own, queried over 127.0.0.1 with operator-registry's gRPC client and
// compared with the file-based catalog; and a catalog image read as OLM v1's catalogd reads it.
//
// The pod emulation needs root (chroot, a network namespace): its tests skip with a message otherwise.
package olmtest
