package project

import (
	"errors"
	"fmt"
	"path/filepath"

	"github.com/opack/opack/internal/project/config"
	"github.com/opack/opack/internal/txn"
)

// beginTxn finishes the commit of a build that was interrupted (or drops the staging of one that
// never reached its commit), then starts this build's
// transaction: its outputs are staged in a .opack-txn-* folder of the project.
func (r *run) beginTxn() (*txn.Txn, error) {
	finished, err := txn.Recover(r.p.Dir)
	var fe *txn.ForeignError
	if errors.As(err, &fe) {
		return nil, stepErr(StepWrite, filepath.ToSlash(filepath.Join(filepath.Dir(r.p.File), fe.Dir)), err, "")
	}
	if err != nil {
		return nil, stepErr(StepWrite, r.p.File, err, "")
	}
	for _, f := range finished {
		r.o.logf("finished the outputs of an interrupted build (%s)", f)
		r.res.Warnings = append(r.res.Warnings, "an earlier build was interrupted while writing its outputs; this build finished writing them first")
	}
	if len(finished) > 0 && r.p.File != "" {
		// The finished commit may have replaced opack.yaml (a version saved by --version): this
		// build works on the project as it now is, not as it was read before the recovery.
		p, err := config.Load(filepath.Join(r.p.Dir, filepath.Base(r.p.File)))
		if err != nil {
			return nil, err
		}
		p.File, p.Dir = r.p.File, r.p.Dir // named as the caller named them
		r.p = p
	}
	return txn.Begin(r.p.Dir)
}

// checkNoPending fails check when a build was interrupted while swapping in its outputs: until
// the next build finishes the commit, the project mixes two releases.
func checkNoPending(p *config.Project) error {
	pending, err := txn.Pending(p.Dir)
	var fe *txn.ForeignError
	if errors.As(err, &fe) {
		return &StepError{Step: StepWrite, File: filepath.ToSlash(filepath.Join(filepath.Dir(p.File), fe.Dir)), Err: err,
			Fix: "remove the folder: opack build refuses it too and never applies it"}
	}
	if err != nil || len(pending) == 0 {
		return err
	}
	rel, _ := filepath.Rel(p.Dir, pending[0])
	return &StepError{Step: StepWrite, File: filepath.ToSlash(filepath.Join(filepath.Dir(p.File), rel)),
		Err: fmt.Errorf("a build was interrupted while writing its outputs (its journal is in %s): the project is half-applied", rel),
		Fix: "run opack build: it finishes the interrupted write first"}
}
