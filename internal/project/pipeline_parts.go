package project

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
)

// runParts builds (or checks) every bundle of a project of several, as one release: each
// bundle's steps run in a folder of its own in the one staging folder, then the outputs of all
// are reported (check) or pushed and committed in one transaction (build): all of them or none.
// r is the run of the project itself.
func (r *run) runParts(ctx context.Context) (*BuildResult, error) {
	done, err := r.openStage()
	if err != nil {
		return r.res, err
	}
	defer done()
	var runs []*run
	for i, part := range r.p.Parts() {
		pr := &run{p: part, o: r.o, check: r.check, tx: r.tx, res: &BuildResult{}, stage: r.staged("parts", strconv.Itoa(i))}
		if err := os.MkdirAll(pr.stage, 0o755); err != nil {
			return r.res, err
		}
		err := pr.steps(ctx)
		r.merge(pr)
		if err != nil {
			return r.res, partErr(part.Name, err)
		}
		runs = append(runs, pr)
	}
	r.version = r.res.Version
	for _, pr := range runs {
		r.outputs = append(r.outputs, pr.outputs...)
		r.refusals = append(r.refusals, pr.refusals...)
	}
	if r.o.push && !r.check {
		for _, pr := range runs {
			if err := pr.push(ctx); err != nil {
				return r.res, partErr(pr.p.Name, err)
			}
		}
	}
	push := r.o.push
	r.o.push = false // pushed above, bundle by bundle
	defer func() { r.o.push = push }()
	return r.res, r.finish(ctx)
}

// merge adds what one bundle's run reported to the project's result.
func (r *run) merge(pr *run) {
	res, name := r.res, pr.p.Name
	if res.Version == "" {
		res.Version, res.Bundle = pr.res.Version, pr.res.Bundle
	}
	res.Bundles = append(res.Bundles, NamedImage{Name: name, ImageRef: pr.res.Bundle})
	res.Catalogs = append(res.Catalogs, pr.res.Catalogs...)
	res.Findings = append(res.Findings, pr.res.Findings...)
	for _, w := range pr.res.Warnings {
		res.Warnings = append(res.Warnings, "bundle "+name+": "+w)
	}
	res.Dropped = append(res.Dropped, pr.res.Dropped...)
}

// partErr names the bundle a failed step belongs to.
func partErr(name string, err error) error {
	var se *StepError
	if errors.As(err, &se) {
		se.Err = fmt.Errorf("bundle %s: %w", name, se.Err)
		return se
	}
	return fmt.Errorf("bundle %s: %w", name, err)
}
