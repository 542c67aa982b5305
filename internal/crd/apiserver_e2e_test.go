package crd

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	apiextv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/opack/opack/internal/crdserver"

	"github.com/opack/opack/internal/crd/load"
)

// Server verdicts as CASES.tsv records them (column apiserver).
const (
	serverAccepts     = "accept"      // the update is accepted
	serverRejects     = "reject"      // the update is refused
	serverRejectsOld  = "reject-old"  // OLD itself is refused (it cannot be on a cluster); NEW is accepted as a create
	serverRejectsBoth = "reject-both" // OLD is refused, and so is NEW as a create
)

// TestE2EAPIServerVerdicts plays every CASES.tsv row and every whole-pair inline case on a real API
// server (apply OLD, set status.storedVersions, create the existing objects, PUT NEW, read each object
// back and PUT it unchanged, dry-run create it at each version NEW serves) and requires that
//   - opack refuses (an error naming actor apiserver) exactly the upgrades the server refuses,
//   - CASES.tsv records the server's verdict (column apiserver),
//   - opack's statements about existing objects match what the server did with them.
func TestE2EAPIServerVerdicts(t *testing.T) {
	srv := realServer(t)
	ctx := context.Background()
	t.Run("CASES", func(t *testing.T) {
		for _, row := range readCasesRows(t) {
			t.Run(row.ID, func(t *testing.T) {
				old, newSet, opts, objs := caseInputs(ctx, t, row)
				findings := CompareSets(old, newSet, opts...)
				got := playPairs(ctx, t, srv, fmt.Sprintf("row%d", row.Index), old.CRDs, newSet.CRDs, opts, objs, findings)
				if got != row.APIServer {
					t.Errorf("CASES.tsv records the API server's verdict %q, the server gave %q", row.APIServer, got)
				}
				if (got == serverRejects || got == serverRejectsBoth) && row.Expected != "fail" {
					t.Errorf("the API server refuses the upgrade (%s) but CASES.tsv expects %q", got, row.Expected)
				}
			})
		}
	})
	t.Run("INLINE", func(t *testing.T) {
		for i, c := range crdPairCases() {
			if c.new == nil {
				continue // not a whole pair
			}
			t.Run(c.name, func(t *testing.T) {
				olds, news := []*apiextv1.CustomResourceDefinition{c.old}, []*apiextv1.CustomResourceDefinition{c.new}
				playPairs(ctx, t, srv, fmt.Sprintf("inline%d", i), olds, news, c.opts, nil, Compare(olds, news, c.opts...))
			})
		}
	})
}

// playPairs plays each old CRD with its new namesake on the server under group prefix.<group>, checks
// opack's findings against what the server did and returns the server's verdict.
func playPairs(ctx context.Context, t *testing.T, srv *crdserver.Server, prefix string, olds, news []*apiextv1.CustomResourceDefinition,
	opts []Option, objs []load.Instance, findings []Finding) string {
	t.Helper()
	o := options{}
	for _, opt := range opts {
		opt(&o)
	}
	var objects []*unstructured.Unstructured
	for _, inst := range objs {
		objects = append(objects, inst.Object)
	}
	verdict := serverAccepts
	for _, oc := range olds {
		nc := findCRD(news, oc.Name)
		if nc == nil {
			continue
		}
		u := crdserver.Upgrade{Old: oc, New: nc, StoredVersions: o.stored(oc), Objects: objects}.Isolated(prefix)
		out, err := srv.Run(ctx, u)
		if err != nil {
			t.Fatalf("playing %s on the API server: %v\n%s", oc.Name, err, srv.Logs())
		}
		v := serverVerdict(out)
		if v != serverAccepts {
			verdict = v
		}
		says := strings.TrimSpace(out.OldError + " " + out.UpdateError + " " + out.NewError)
		t.Logf("%s: server %s %s", oc.Name, v, says)
		crdFindings := forCRD(findings, oc.Name)
		if refused := v == serverRejects || v == serverRejectsBoth; opackRefuses(crdFindings) != refused {
			t.Errorf("API server: %s (%s); opack's apiserver errors: %v", v, says, refusals(crdFindings))
		}
		if v == serverAccepts {
			checkObjects(t, oc, nc, out.Objects, crdFindings, o.evidence)
		}
	}
	return verdict
}

func serverVerdict(out *crdserver.Outcome) string {
	switch {
	case out.OldError != "" && out.NewError != "":
		return serverRejectsBoth
	case out.OldError != "":
		return serverRejectsOld
	case out.UpdateError != "":
		return serverRejects
	}
	return serverAccepts
}

// opackRefuses reports whether opack says the API server refuses the upgrade: an error whose actor is
// the API server.
func opackRefuses(fs []Finding) bool { return len(refusals(fs)) > 0 }

func refusals(fs []Finding) []string {
	var out []string
	for _, f := range fs {
		if f.Actor == ActorAPIServer && f.Severity == SeverityError {
			out = append(out, f.String())
		}
	}
	return out
}

// checkObjects compares what opack says about the existing objects with what the server did: an
// object the server refuses at a version (dry-run create against NEW) is exactly one opack reports as
// invalid at that version (when it validates objects); an object that can no longer be read at its own
// version is named as unreadable; every readable object can be written back unchanged (the server
// ratchets unchanged fields).
func checkObjects(t *testing.T, oc, nc *apiextv1.CustomResourceDefinition, objs []crdserver.ObjectOutcome, fs []Finding, validated bool) {
	t.Helper()
	for _, oo := range objs {
		if oo.CreateError != "" {
			t.Logf("object %s: OLD refuses it (%s); it cannot exist on a cluster with OLD", oo.Name, oo.CreateError)
		}
		if validated {
			for _, v := range oo.Checked {
				if ov := findVersion(oc, v); ov == nil || !ov.Served {
					continue // opack, like OLM v0, validates at the versions served before and after
				}
				server := oo.Invalid[v] != ""
				if opack := saysInvalid(fs, oo.Name, v); opack != server {
					t.Errorf("object %s at %s: the API server refuses it against NEW: %v (%s); opack reports it invalid: %v",
						oo.Name, v, server, oo.Invalid[v], opack)
				}
			}
		}
		if oo.CreateError != "" {
			continue
		}
		switch {
		case oo.Unreadable:
			if !saysUnreadable(fs, oo.Name, oo.Version, validated) {
				t.Errorf("object %s created as %s: the API server answers %s after the upgrade; opack does not say it becomes unreadable at %s: %v",
					oo.Name, oo.Version, oo.ReadError, oo.Version, fs)
			}
		case oo.ReadError != "":
			t.Errorf("object %s: reading it back at %s failed: %s", oo.Name, oo.Version, oo.ReadError)
		case oo.UpdateError != "":
			t.Errorf("object %s: writing it back unchanged failed: %s (opack assumes unchanged fields ratchet)", oo.Name, oo.UpdateError)
		}
	}
}

// saysInvalid reports whether opack reports object name (namespace dropped) invalid at version.
func saysInvalid(fs []Finding, name, version string) bool {
	_, name, _ = strings.Cut(name, "/")
	for _, f := range fs {
		if (f.Rule == RuleInstanceInvalid || f.Rule == RuleInstanceCELInvalid) && f.Version == version && mentionsObject(f.Message, name) {
			return true
		}
	}
	return false
}

// saysUnreadable reports whether opack says objects at version become unreadable: naming the object
// when it was given the objects, or else for every object of that version.
func saysUnreadable(fs []Finding, name, version string, validated bool) bool {
	if i := strings.LastIndex(name, "/"); i >= 0 {
		name = name[i+1:]
	}
	for _, f := range fs {
		if f.Version == version && strings.Contains(f.Message, "unreadable") && (!validated || mentionsObject(f.Message, name)) {
			return true
		}
	}
	return false
}

func mentionsObject(msg, name string) bool {
	return strings.Contains(msg, " "+name+" ") || strings.Contains(msg, "/"+name+" ")
}

func forCRD(fs []Finding, name string) []Finding {
	var out []Finding
	for _, f := range fs {
		if f.CRD == name {
			out = append(out, f)
		}
	}
	return out
}

func findCRD(crds []*apiextv1.CustomResourceDefinition, name string) *apiextv1.CustomResourceDefinition {
	for _, c := range crds {
		if c.Name == name {
			return c
		}
	}
	return nil
}

func ptrTo[T any](v T) *T { return &v }

// TestAPIServerCorpusEdges plays every CRD that changes between consecutive bundle versions of the
// certified-operators corpus on the real API server: opack refuses (apiserver) exactly the updates the
// server refuses. It takes 10-15 minutes, too long for CI: `make bench` runs it (OPACK_APISERVER_CORPUS=1).
func TestAPIServerCorpusEdges(t *testing.T) {
	if os.Getenv("OPACK_APISERVER_CORPUS") == "" {
		t.Skip("corpus edges on the real API server take 10-15 minutes; `make bench` runs them (OPACK_APISERVER_CORPUS=1)")
	}
	start := time.Now()
	root := filepath.Join("..", "..", "..", "shared", "corpus", "certified-operators")
	bundles := corpusBundles(t, root)
	srv := realServer(t)
	ctx := context.Background()
	played, refused := 0, 0
	for _, op := range sortedKeys(bundles) {
		dirs := bundles[op]
		for i := 1; i < len(dirs); i++ {
			old, err := load.CRDs(ctx, dirs[i-1])
			if err != nil {
				continue // TestCorpusCRDUpgrade reports load failures
			}
			newSet, err := load.CRDs(ctx, dirs[i])
			if err != nil {
				continue
			}
			var olds, news []*apiextv1.CustomResourceDefinition
			for _, oc := range old.CRDs {
				if nc := findCRD(newSet.CRDs, oc.Name); nc != nil && !equality.Semantic.DeepEqual(oc.Spec, nc.Spec) {
					olds, news = append(olds, oc), append(news, nc)
				}
			}
			if len(olds) == 0 {
				continue
			}
			name := op + "/" + filepath.Base(dirs[i-1]) + "->" + filepath.Base(dirs[i])
			t.Run(name, func(t *testing.T) {
				if playPairs(ctx, t, srv, fmt.Sprintf("c%d", played), olds, news, nil, nil, Compare(olds, news)) != serverAccepts {
					refused++
				}
			})
			played += len(olds)
		}
	}
	t.Logf("%d changed CRDs played on the API server in %v; %d edges refused", played, time.Since(start).Round(time.Second), refused)
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
