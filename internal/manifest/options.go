package manifest

import "strconv"

// Default limits; every one can be raised with an Option.
const (
	DefaultMaxFileSize  int64 = 64 << 20 // one file
	DefaultMaxDocSize   int64 = 16 << 20 // one document of a stream
	DefaultMaxFiles           = 10000    // files below one root
	DefaultMaxAliasNode       = 1 << 20  // nodes a document may expand to through YAML aliases
)

type options struct {
	maxFileSize  int64
	maxDocSize   int64
	maxFiles     int
	maxAliasNode int
}

// Option changes a limit of the readers.
type Option func(*options)

// WithMaxFileSize sets the largest file (or stream) read, in bytes.
func WithMaxFileSize(n int64) Option { return func(o *options) { o.maxFileSize = n } }

// WithMaxDocSize sets the largest document of a stream, in bytes.
func WithMaxDocSize(n int64) Option { return func(o *options) { o.maxDocSize = n } }

// WithMaxFiles sets how many files a tree may hold.
func WithMaxFiles(n int) Option { return func(o *options) { o.maxFiles = n } }

// WithMaxAliasNodes sets how many YAML nodes a document may expand to through aliases.
func WithMaxAliasNodes(n int) Option { return func(o *options) { o.maxAliasNode = n } }

func makeOptions(opts []Option) options {
	o := options{
		maxFileSize:  DefaultMaxFileSize,
		maxDocSize:   DefaultMaxDocSize,
		maxFiles:     DefaultMaxFiles,
		maxAliasNode: DefaultMaxAliasNode,
	}
	for _, f := range opts {
		f(&o)
	}
	return o
}

// LimitError reports input refused because it exceeds a limit.
type LimitError struct {
	File  string // the file (or "-") that exceeded the limit
	What  string // which limit: "file size", "document size", "files", "alias expansion"
	Limit int64
	Flag  string // the flag that raises it, when the caller set one
}

func (e *LimitError) Error() string {
	msg := e.File + ": " + e.What + " exceeds the limit of " + strconv.FormatInt(e.Limit, 10)
	if e.Flag != "" {
		msg += " (raise it with " + e.Flag + ")"
	}
	return msg
}
