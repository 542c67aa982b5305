package project

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/opack/opack/internal/catalog/diff"
	"github.com/opack/opack/internal/catalog/template"
	"github.com/opack/opack/internal/finding"
	"github.com/opack/opack/internal/project/config"
)

// ruleFBCDiff is the rule of the notes about the comparison with the committed catalog.
const ruleFBCDiff = "check/catalog-diff"

// CheckDiffBase sets the git revision opack check compares an fbc-mode catalog with (default
// HEAD, the last commit; in a pull request, its base branch, e.g. origin/main).
func CheckDiffBase(rev string) BuildOption { return func(o *buildOptions) { o.diffBase = rev } }

// fbcDiffFindings compares catalog c as build would write it (dir) with c.Dir at the diff base
// (opack catalog diff git:REV:DIR), and returns what catalog validation does not already report:
// releases newly stranded, channels and packages removed. Only opack check compares; outside a git
// repository, or when the revision has no such folder, it says so in a note.
func (r *run) fbcDiffFindings(ctx context.Context, c config.Catalog, dir string) []finding.Finding {
	if !r.check {
		return nil
	}
	rev := r.o.diffBase
	if rev == "" {
		rev = "HEAD"
	}
	abs, err := filepath.Abs(r.path(c.Dir)) // git:REV:/abs/dir: the repository's path, wherever the project sits in it
	if err != nil {
		return []finding.Finding{finding.Warnf(c.Dir, "", ruleFBCDiff, "comparing with %s skipped: %v", rev, err)}
	}
	base := diff.GitPrefix + rev + ":" + abs
	res, err := diff.Diff(ctx, base, dir, diff.WithDir(r.p.Dir), diff.WithHeadName(c.Dir), diff.WithFiles(template.IsFBCName))
	if errors.Is(err, diff.ErrNoRepository) {
		return []finding.Finding{{Severity: finding.SeverityInfo, File: c.Dir, Rule: ruleFBCDiff,
			Message: "not in a git repository: the comparison with the last commit (newly stranded releases) is skipped"}}
	}
	if err != nil {
		return []finding.Finding{finding.Warnf(c.Dir, "", ruleFBCDiff, "comparing with %s skipped: %v", rev, err)}
	}
	r.o.logf("%s %s: %d package(s) changed since %s", StepCatalogValidate, c.Name, len(res.Packages), rev)
	var out []finding.Finding
	for _, f := range res.Findings {
		if f.Rule == diff.RuleNewlyStranded || f.Rule == diff.RuleChannelRemoved || f.Rule == diff.RulePackageRemoved {
			f.Message = fmt.Sprintf("since %s: %s", rev, f.Message)
			out = append(out, f)
		}
	}
	return out
}
