//go:build !unix

package tmpdir

import "errors"

// lock is not supported: Sweep removes nothing.
func lock(string) (func(), error) { return nil, errors.ErrUnsupported }
