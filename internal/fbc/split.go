package fbc

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strings"
)

// docReader cuts a YAML stream into documents as splitYAML does, reading it line by line, so
// that a catalog file is parsed holding one document at a time instead of the whole file: on
// certified-operators-v4.22 the buffers of the two files being parsed were a third of the live
// heap.
type docReader struct {
	r   *bufio.Reader
	doc []byte
	eof bool
}

func newDocReader(r io.Reader) *docReader {
	return &docReader{r: bufio.NewReaderSize(r, 64<<10)}
}

// next returns the next document, valid until the following call; io.EOF after the last. An
// invalid separator is an error, as splitYAML makes it.
func (d *docReader) next() ([]byte, error) {
	d.doc = d.doc[:0]
	lineStart := true
	for !d.eof {
		chunk, err := d.r.ReadSlice('\n')
		switch {
		case err == io.EOF:
			d.eof = true
		case err != nil && err != bufio.ErrBufferFull:
			return nil, err
		}
		if lineStart && bytes.HasPrefix(chunk, []byte("---")) {
			isSep, err := d.separator(chunk, err == bufio.ErrBufferFull)
			if err != nil {
				return nil, err
			}
			if isSep && len(d.doc) > 0 {
				return d.doc, nil
			}
			continue
		}
		d.doc = append(d.doc, chunk...)
		lineStart = err == nil
		// k8s' LineReader strips "\r\n" or "\n" from each line and appends "\n".
		if lineStart && bytes.HasSuffix(d.doc, []byte("\r\n")) {
			d.doc = append(d.doc[:len(d.doc)-2], '\n')
		}
	}
	if len(d.doc) == 0 {
		return nil, io.EOF
	}
	if d.doc[len(d.doc)-1] != '\n' {
		d.doc = append(d.doc, '\n')
	}
	return d.doc, nil
}

// separator reads the rest of a line starting with "---" (partial: it goes on past chunk) and
// checks that only a comment follows the dashes.
func (d *docReader) separator(chunk []byte, partial bool) (bool, error) {
	line := append([]byte(nil), chunk...)
	for partial {
		more, err := d.r.ReadSlice('\n')
		line = append(line, more...)
		switch {
		case err == io.EOF:
			d.eof = true
			partial = false
		case err == bufio.ErrBufferFull:
		case err != nil:
			return false, err
		default:
			partial = false
		}
	}
	if rest := strings.TrimSpace(string(line[3:])); rest != "" && rest[0] != '#' {
		return false, fmt.Errorf("invalid Yaml document separator: %s", rest)
	}
	return true, nil
}

// badSeparator reads the rest of the stream and returns its first invalid separator, if any:
// splitYAML refuses a stream with one before parsing any document, so it outranks an error in an
// earlier document.
func (d *docReader) badSeparator() error {
	for {
		if _, err := d.next(); err != nil {
			if err == io.EOF {
				return nil
			}
			return err
		}
	}
}
