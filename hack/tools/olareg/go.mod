// olareg (github.com/olareg/olareg), an OCI registry serving the OCI 1.1 referrers API, for the
// end-to-end tests only: hack/build-apiserver.sh olareg builds it into the user cache folder.
// distribution/distribution (v3.0.0 to v3.1.2) serves no referrers API and zot is not served by the
// module proxy. A module of its own, so that its dependencies never reach opack's.
module github.com/opack/opack/hack/tools/olareg

go 1.26.3

tool github.com/olareg/olareg/cmd/olareg

require (
	github.com/inconshreveable/mousetrap v1.1.0 // indirect
	github.com/olareg/olareg v0.1.2 // indirect
	github.com/opencontainers/go-digest v1.0.0 // indirect
	github.com/spf13/cobra v1.8.1 // indirect
	github.com/spf13/pflag v1.0.6 // indirect
)
