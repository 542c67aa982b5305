package kustomize

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/filesys"
)

// BuildError is a failed kustomize build. When kustomize's error chain names the file at fault
// (and the line), File and Line say so and the message leads with them; Err is kustomize's error.
type BuildError struct {
	Dir  string // the kustomization that was built
	File string // the file at fault ("" when the chain does not say)
	Line int    // 1-based line in File; 0 when unknown
	Msg  string // what is wrong with File
	Err  error
}

func (e *BuildError) Error() string {
	if e.File == "" {
		return "building kustomization " + e.Dir + ": " + e.Err.Error()
	}
	loc := e.File
	if e.Line > 0 {
		loc += ":" + strconv.Itoa(e.Line)
	}
	return loc + ": " + e.Msg + " (while building kustomization " + e.Dir + ")"
}

func (e *BuildError) Unwrap() error { return e.Err }

var (
	recursedRE     = regexp.MustCompile(`recursed accumulation of path '([^']+)'`)
	malformedRE    = regexp.MustCompile(`MalformedYAMLError: yaml: line (\d+): (.*) in File: (\S+)$`)
	missingRE      = regexp.MustCompile(`accumulating resources from '([^']+)': '([^']+)' doesn't exist'`)
	accumulatingRE = regexp.MustCompile(`accumulating resources from '([^']+)'`)
	invalidRE      = regexp.MustCompile(`^invalid Kustomization: yaml: line (\d+): (.*)$`)
)

// explain turns kustomize's error chain into a BuildError that names the file at fault first.
func explain(fs filesys.FileSystem, dir string, err error) error {
	var re *RemoteError
	if errors.As(err, &re) {
		return re
	}
	var ee *EscapeError
	if errors.As(err, &ee) {
		cur := dir
		if m := recursedRE.FindAllStringSubmatch(err.Error(), -1); m != nil {
			cur = m[len(m)-1][1]
		}
		msg := ee.Error()
		if m := accumulatingRE.FindAllStringSubmatch(err.Error(), -1); m != nil {
			msg = "resource " + strconv.Quote(m[len(m)-1][1]) + ": " + msg
		}
		return &BuildError{Dir: dir, File: display(kustomizationFile(fs, cur)), Msg: msg, Err: err}
	}
	be := &BuildError{Dir: dir, Err: err}
	msg := err.Error()
	// The folder whose kustomization was being read when the error happened.
	cur := dir
	if m := recursedRE.FindAllStringSubmatch(msg, -1); m != nil {
		cur = m[len(m)-1][1]
	}
	switch {
	case malformedRE.MatchString(msg):
		m := malformedRE.FindStringSubmatch(msg)
		be.Line, _ = strconv.Atoi(m[1])
		be.File, be.Msg = filepath.Join(cur, m[3]), "YAML syntax error: "+m[2]
	case missingRE.MatchString(msg):
		m := missingRE.FindAllStringSubmatch(msg, -1)
		last := m[len(m)-1]
		be.File = kustomizationFile(fs, cur)
		be.Msg = "resource " + strconv.Quote(last[1]) + " does not exist (" + display(last[2]) + "): fix or remove it under resources"
	case invalidRE.MatchString(msg):
		m := invalidRE.FindStringSubmatch(msg)
		be.Line, _ = strconv.Atoi(m[1])
		be.File, be.Msg = kustomizationFile(fs, cur), "YAML syntax error: "+m[2]
	}
	be.File = display(be.File)
	return be
}

// kustomizationFile returns the kustomization file of dir, as kustomize looks for it.
func kustomizationFile(fs filesys.FileSystem, dir string) string {
	for _, name := range []string{"kustomization.yaml", "kustomization.yml", "Kustomization"} {
		if p := filepath.Join(dir, name); fs.Exists(p) {
			return p
		}
	}
	return filepath.Join(dir, "kustomization.yaml")
}

// display shows an absolute path below the working folder relative to it.
func display(p string) string {
	if p == "" || !filepath.IsAbs(p) {
		return p
	}
	wd, err := os.Getwd()
	if err != nil {
		return p
	}
	if rel, err := filepath.Rel(wd, p); err == nil && !strings.HasPrefix(rel, "..") {
		return rel
	}
	return p
}
