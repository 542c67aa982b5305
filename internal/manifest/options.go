package manifest

import (
	"bytes"
	"strconv"
	"sync/atomic"
)

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
	linkRoot     string // Files: symlinks may lead anywhere below it (default: the tree's root)
}

// CheckDocSize refuses one document of file over the document-size limit.
func CheckDocSize(doc []byte, file string, opts ...Option) error {
	if o := makeOptions(opts); int64(len(doc)) > o.maxDocSize {
		return &LimitError{File: file, What: "document size", Limit: o.maxDocSize}
	}
	return nil
}

// CheckStreamDocSizes refuses a YAML stream with a document over the document-size limit from a
// scan of its "---" lines, before any decoder copies it. It may split at more lines than a YAML
// reader does (never fewer), so a stream it passes is checked again document by document.
func CheckStreamDocSizes(data []byte, file string, opts ...Option) error {
	o := makeOptions(opts)
	if int64(len(data)) <= o.maxDocSize {
		return nil
	}
	start := 0
	for i := 0; i <= len(data); {
		end := bytes.IndexByte(data[i:], '\n')
		if end < 0 {
			end = len(data) - i
		}
		if bytes.HasPrefix(data[i:i+end], []byte("---")) || i+end == len(data) {
			if int64(i-start) > o.maxDocSize {
				return &LimitError{File: file, What: "document size", Limit: o.maxDocSize}
			}
			start = i
		}
		i += end + 1
	}
	return nil
}

// Option changes a limit of the readers.
type Option func(*options)

// WithMaxFileSize sets the largest file (or stream) read, in bytes.
func WithMaxFileSize(n int64) Option { return func(o *options) { o.maxFileSize = n } }

// WithMaxDocSize sets the largest document of a stream, in bytes.
func WithMaxDocSize(n int64) Option { return func(o *options) { o.maxDocSize = n } }

// WithMaxFiles sets how many files a tree may hold.
func WithMaxFiles(n int) Option { return func(o *options) { o.maxFiles = n } }

// WithLinkRoot lets Files follow a symlink whose target lies anywhere below dir (resolved), not only
// below the tree it lists: a project's config/ may link to a file elsewhere in the project, as kustomize
// reads it.
func WithLinkRoot(dir string) Option { return func(o *options) { o.linkRoot = dir } }

// WithMaxAliasNodes sets how many YAML nodes a document may expand to through aliases.
func WithMaxAliasNodes(n int) Option { return func(o *options) { o.maxAliasNode = n } }

func makeOptions(opts []Option) options {
	l := DefaultLimits()
	o := options{
		maxFileSize:  l.MaxFileSize,
		maxDocSize:   l.MaxDocSize,
		maxFiles:     l.MaxFiles,
		maxAliasNode: l.MaxAliasNodes,
	}
	for _, f := range opts {
		f(&o)
	}
	return o
}

// Limits are the readers' limits. The process-wide defaults start at the Default* constants;
// the CLI's --max-* flags change them with SetDefaultLimits.
type Limits struct {
	MaxFileSize   int64 // bytes of one file or stream
	MaxDocSize    int64 // bytes of one document
	MaxFiles      int   // files below one root
	MaxAliasNodes int   // nodes one document may expand to through aliases
	// MaxTotalSize bounds the bytes of all files and streams read since the last
	// SetDefaultLimits (the CLI calls it once per command); 0 means no bound.
	MaxTotalSize int64
}

var defaultLimits atomic.Pointer[Limits]

// DefaultLimits returns the limits readers use when no Option overrides them.
func DefaultLimits() Limits {
	if l := defaultLimits.Load(); l != nil {
		return *l
	}
	return Limits{MaxFileSize: DefaultMaxFileSize, MaxDocSize: DefaultMaxDocSize, MaxFiles: DefaultMaxFiles, MaxAliasNodes: DefaultMaxAliasNode}
}

// SetDefaultLimits changes the process-wide defaults; zero fields keep their current value.
func SetDefaultLimits(l Limits) {
	cur := DefaultLimits()
	if l.MaxFileSize > 0 {
		cur.MaxFileSize = l.MaxFileSize
	}
	if l.MaxDocSize > 0 {
		cur.MaxDocSize = l.MaxDocSize
	}
	if l.MaxFiles > 0 {
		cur.MaxFiles = l.MaxFiles
	}
	if l.MaxAliasNodes > 0 {
		cur.MaxAliasNodes = l.MaxAliasNodes
	}
	if l.MaxTotalSize > 0 {
		cur.MaxTotalSize = l.MaxTotalSize
	}
	defaultLimits.Store(&cur)
	totalRead.Store(0)
}

// totalRead counts the bytes read against Limits.MaxTotalSize.
var totalRead atomic.Int64

// ChargeRead counts n bytes that a reader outside this package (a catalog diff hashing files or
// inflating git blobs) reads from file against the total limit (--max-total-size).
func ChargeRead(file string, n int64) error { return chargeTotal(file, n) }

// chargeTotal counts n more bytes read from file against the total limit.
func chargeTotal(file string, n int64) error {
	limit := DefaultLimits().MaxTotalSize
	if limit <= 0 {
		return nil
	}
	if totalRead.Add(n) > limit {
		return &LimitError{File: file, What: "total size read", Limit: limit}
	}
	return nil
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
	"total size read": "--max-total-size",
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
