package project

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/opack/opack/internal/txn"
)

// scratchPrefix names check's scratch folders in $TMPDIR.
const scratchPrefix = "opack-check-"

// beginTxn finishes the commit of a build that was interrupted (or drops the staging of one that
// never reached its commit), removes scratch folders killed checks left, then starts this build's
// transaction: its outputs are staged in a .opack-txn-* folder of the project.
func (r *run) beginTxn() (*txn.Txn, error) {
	finished, err := txn.Recover(r.p.Dir)
	if err != nil {
		return nil, stepErr(StepWrite, r.p.File, err, "")
	}
	for _, f := range finished {
		r.o.logf("finished the outputs of an interrupted build (%s)", f)
		r.res.Warnings = append(r.res.Warnings, "an earlier build was interrupted while writing its outputs; this build finished writing them first")
	}
	removeStaleScratch()
	return txn.Begin(r.p.Dir)
}

// checkNoPending fails check when a build was interrupted while swapping in its outputs: until
// the next build finishes the commit, the project mixes two releases.
func checkNoPending(p *Project) error {
	pending, err := txn.Pending(p.Dir)
	if err != nil || len(pending) == 0 {
		return err
	}
	rel, _ := filepath.Rel(p.Dir, pending[0])
	return &StepError{Step: StepWrite, File: filepath.ToSlash(filepath.Join(filepath.Dir(p.File), rel)),
		Err: fmt.Errorf("a build was interrupted while writing its outputs (its journal is in %s): the project is half-applied", rel),
		Fix: "run opack build: it finishes the interrupted write first"}
}

// scratch is a folder in $TMPDIR that check works in, locked while in use so that a later run
// can tell a killed check's leftovers from a live one's.
type scratch struct {
	dir    string
	unlock func()
}

func makeScratch() (*scratch, error) {
	dir, err := os.MkdirTemp("", scratchPrefix+"*")
	if err != nil {
		return nil, fmt.Errorf("creating a staging folder: %w", err)
	}
	unlock, err := tryLock(dir, true)
	if err != nil {
		unlock = func() {}
	}
	return &scratch{dir: dir, unlock: unlock}, nil
}

func (s *scratch) remove() {
	s.unlock()
	os.RemoveAll(s.dir)
}

// removeStaleScratch removes the scratch folders of checks that were killed: those nobody holds
// the lock of.
func removeStaleScratch() {
	matches, _ := filepath.Glob(filepath.Join(os.TempDir(), scratchPrefix+"*"))
	for _, m := range matches {
		unlock, err := tryLock(m, true)
		if err != nil {
			continue
		}
		os.RemoveAll(m)
		unlock()
	}
}
