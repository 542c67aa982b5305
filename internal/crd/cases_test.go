package crd

import (
	"context"
	"testing"

	"github.com/opack/opack/internal/crd/crdcases"

	"github.com/opack/opack/internal/crd/load"
)

// readCasesRows returns CASES.tsv's rows.
func readCasesRows(t *testing.T) []crdcases.Row {
	t.Helper()
	rows, err := crdcases.Read()
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// caseInputs loads a CASES.tsv row as the end-to-end tests play it: OLD and NEW completed
// (crdcases.CompleteFixtures), the options giving its stored versions and existing objects, and those
// objects.
func caseInputs(ctx context.Context, t *testing.T, row crdcases.Row) (old, newSet *load.Set, opts []Option, objs []load.Instance) {
	t.Helper()
	old, err := load.CRDs(ctx, row.OldPath())
	if err != nil {
		t.Fatal(err)
	}
	if newSet, err = load.CRDs(ctx, row.NewPath()); err != nil {
		t.Fatal(err)
	}
	crdcases.CompleteFixtures(old.CRDs, newSet.CRDs)
	if stored := row.StoredVersions(); stored != nil {
		opts = append(opts, WithStoredVersions(stored...))
	}
	if paths := row.InstancePaths(); len(paths) > 0 {
		if objs, err = load.Instances(ctx, paths); err != nil {
			t.Fatal(err)
		}
		opts = append(opts, WithInstances(objs))
	}
	return old, newSet, opts, objs
}
