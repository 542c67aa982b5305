package project

import (
	"bytes"
	"encoding/gob"
	"path/filepath"
	"runtime"

	"github.com/opack/opack/internal/finding"
	"github.com/opack/opack/internal/stepcache"
)

// StepCache keeps the results of steps in c, each addressed by the digest of what it read: the
// validation of a bundle byte for byte the same as one validated before, and the serve cache of
// a catalog byte for byte the same, are taken from c instead of computed again.
func StepCache(c *stepcache.Cache) BuildOption { return func(o *buildOptions) { o.cache = c } }

// CheckMemo makes check keep its result in the step cache (StepCache), addressed by the digest
// of everything it reads (the project's files, its git revisions) and of fingerprint (the
// command's flags and environment that change the result): a check of an unchanged tree returns
// the result a cold run gave, without running a step. Only passing checks that read nothing from
// a registry are kept; anything else runs every time.
func CheckMemo(fingerprint string) BuildOption {
	return func(o *buildOptions) { o.memo, o.cacheFingerprint = true, fingerprint }
}

// checkKey is the key of a check of the project file path: its fingerprint, the platform
// (which Go files are read depends on it) and the project's tree.
func (o *buildOptions) checkKey(path string) (stepcache.Key, bool) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return stepcache.Key{}, false
	}
	k := stepcache.NewKey("check").String(o.cacheFingerprint).String(abs).String(runtime.GOOS + "/" + runtime.GOARCH)
	if err := stepcache.TreeDigest(k, filepath.Dir(abs), o.cache); err != nil {
		return stepcache.Key{}, false
	}
	return k.Sum(), true
}

// cachedCheck returns the result cached under key, if any.
func (o *buildOptions) cachedCheck(key stepcache.Key) (*BuildResult, bool) {
	data, ok := o.cache.Get(key)
	if !ok {
		return nil, false
	}
	var res BuildResult
	if err := gob.NewDecoder(bytes.NewReader(data)).Decode(&res); err != nil {
		return nil, false
	}
	return &res, true
}

// keepCheck stores a passing check's result under key.
func (o *buildOptions) keepCheck(key stepcache.Key, res *BuildResult) {
	var b bytes.Buffer
	if err := gob.NewEncoder(&b).Encode(res); err == nil {
		_ = o.cache.Put(key, b.Bytes())
	}
}

// cachedValidation returns the findings of the bundle validation of the staged bundle in dir when
// a bundle byte for byte the same was validated before, and the key to keep them under.
func (o *buildOptions) cachedValidation(dir string) (stepcache.Key, []finding.Finding, bool) {
	if o.cache == nil {
		return stepcache.Key{}, nil, false
	}
	k := stepcache.NewKey("validate-bundle")
	if err := stepcache.TreeDigest(k, dir, nil); err != nil {
		return stepcache.Key{}, nil, false
	}
	key := k.Sum()
	data, ok := o.cache.Get(key)
	if !ok {
		return key, nil, false
	}
	var fs []finding.Finding
	if err := gob.NewDecoder(bytes.NewReader(data)).Decode(&fs); err != nil {
		return key, nil, false
	}
	return key, fs, true
}

// keepValidation keeps the findings of a bundle validation under key.
func (o *buildOptions) keepValidation(key stepcache.Key, fs []finding.Finding) {
	var b bytes.Buffer
	if o.cache != nil && gob.NewEncoder(&b).Encode(fs) == nil {
		_ = o.cache.Put(key, b.Bytes())
	}
}
