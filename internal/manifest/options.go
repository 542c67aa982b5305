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
	File  string // the file (or "-") that exceeded the limit; empty when the caller's error names it
	What  string // which limit: "file size", "document size", "number of files", "alias expansion"
	Limit int64
	Flag  string // the flag that raises it; empty for the default flag of What (LimitFlags)
}

// LimitFlags are the command-line flags that raise each limit, named in LimitError messages.
var LimitFlags = map[string]string{
	"file size":       "--max-file-size",
	"document size":   "--max-doc-size",
	"number of files": "--max-files",
	"alias expansion": "--max-alias-nodes",
}

func (e *LimitError) Error() string {
	limit := strconv.FormatInt(e.Limit, 10)
	msg := e.What + " exceeds the limit of " + limit
	if e.What == "alias expansion" {
		msg = "YAML aliases expand to more than " + limit + " nodes (an alias bomb?); refusing the document"
	}
	if e.File != "" {
		msg = e.File + ": " + msg
	}
	flag := e.Flag
	if flag == "" {
		flag = LimitFlags[e.What]
	}
	if flag != "" {
		msg += " (raise it with " + flag + ")"
	}
	return msg
}
