package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	apiextv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"

	"github.com/opack/opack/internal/crd/crdcases"
	"github.com/opack/opack/internal/crd/load"
	"github.com/opack/opack/internal/crdserver"
	"github.com/opack/opack/internal/olmharness"
	"github.com/opack/opack/internal/olmtest"
)

// oracleSample are the CASES.tsv rows TestE2ECRDCasesOLM plays by default (OPACK_ORACLE=all plays every
// row): each actor opack names and each verdict of both OLMs.
var oracleSample = []string{
	"oc/crd-valid-upgrade",                        // clients (enum-value-added, storage-version-new): both accept
	"crdify/enumvalueadded",                       // clients (enum-value-added): both accept
	"kapp/invalid_field_change_maximum_decreased", // olm-v1 (max-tightened), no objects: OLM v1 refuses, OLM v0 accepts
	"crdify/existingfieldremoved",                 // olm-v1 (field-removed)
	"crdify/nullableadded",                        // olm-v1 (nullable-added), a warning: OLM v1 refuses it all the same
	"olm0/v1-validation-failure",                  // olm-v0 (instance-invalid): an object over the new maximum; both refuse
	"olm0/v1-valid",                               // objects valid against the new schema: OLM v0 accepts, OLM v1 refuses
	"kapp/storedversionremoval",                   // apiserver (stored-version-removed): both refuse
	"crdify/scopechanged",                         // apiserver (scope-changed): both refuse
	"crdify/oneofadded",                           // the API server refuses OLD itself: install-fails
}

// TestE2ECRDCasesOLM plays CASES.tsv rows (testdata/crd-upgrade) on the real OLM v0 (olm-operator and
// catalog-operator v0.46.0) and OLM v1 (catalogd and operator-controller v1.11.0), as processes on a real
// kube-apiserver with internal/olmharness playing the node, and requires columns olm-v0 and olm-v1 to
// say what they did. For each row, bundle row<i>.v1.0.0 owns OLD's CRD and row<i>.v2.0.0 (replaces
// v1.0.0) NEW's, each CRD moved to API group row<i>.<group> (as TestE2EAPIServerVerdicts does), so that
// every row runs at once on one cluster per OLM: the bundles are pushed with `opack image bundle` to a
// docker-registry and listed in one catalog made with `opack catalog render` and `opack image catalog`.
//   - OLM v0: namespace row<i> with an OperatorGroup and a Subscription (installPlanApproval Manual,
//     startingCSV v1.0.0) of the catalog, served once from OLM's global catalog namespace. v1.0.0's
//     InstallPlan is approved; once its CSV Succeeded, the row's stored versions are set (status
//     subresource) and its objects created; then v2.0.0's InstallPlan is approved: accept when its CSV
//     Succeeded, reject when the InstallPlan Failed (catalog-operator runs with
//     --install-plan-retry-timeout 10s).
//   - OLM v1: ClusterExtension row<i> pinned to version 1.0.0; once installed, the stored versions and
//     objects as above; then version 2.0.0: accept when installed, reject while it keeps retrying
//     (Progressing Retrying for the current generation, 1.0.0 still installed).
//
// A row whose v1.0.0 cannot be installed is install-fails. OPACK_ORACLE=all plays every row (`make
// oracle`), OPACK_ORACLE=ID,PREFIX/,... the rows named or whose ids start with a PREFIX/; by default a
// fixed sample (oracleSample). OPACK_ORACLE_RECORD=1 writes what the controllers did into CASES.tsv and
// their messages into OLM-VERDICTS.json instead of failing on a difference. OPACK_ORACLE_OLMV1=v1.2.0 plays
// OLM v1 that release instead of the newest, against column olm-v1.2 (OLM v0 need not play: -run
// 'TestE2ECRDCasesOLM/olm-v1').
func TestE2ECRDCasesOLM(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end test: runs kube-apiserver, etcd, docker-registry and both OLMs' controllers; run without -short")
	}
	older := false
	if v := os.Getenv("OPACK_ORACLE_OLMV1"); v != "" && v != olmharness.OLMv1Releases[0] {
		if v != oracleOLMv1Old {
			t.Fatalf("column olm-v1.2 records OLM v1 %s; OPACK_ORACLE_OLMV1=%s has no column", oracleOLMv1Old, v)
		}
		older = true
	}
	olmtest.RequireRoot(t)
	t.Setenv("DOCKER_CONFIG", t.TempDir())
	rows, err := crdcases.Read()
	if err != nil {
		t.Fatal(err)
	}
	rows, err = oracleRows(rows, os.Getenv("OPACK_ORACLE"))
	if err != nil {
		t.Fatal(err)
	}
	began := time.Now()
	host := olmtest.StartRegistry(t)
	cases := crdOracleCases(t, rows)
	catalog := pushOracleCatalog(t, host, cases)
	t.Logf("%d rows: %d bundles and the catalog pushed in %v", len(cases), 2*len(cases), time.Since(began).Round(time.Millisecond))

	got := map[string]*crdcases.OLMVerdict{}
	for _, c := range cases {
		got[c.row.ID] = &crdcases.OLMVerdict{ID: c.row.ID}
	}
	// played records which OLMs ran to the end: a subtest skips (outside CI) when its controllers
	// cannot be built, or is left out with -run; its column is then not checked.
	var playedV0, playedV1 bool
	t.Run("olm-v0", func(t *testing.T) {
		start := time.Now()
		crdOracleV0(t, catalog, cases, got)
		t.Logf("OLM v0: %d rows in %v", len(cases), time.Since(start).Round(time.Millisecond))
		playedV0 = true
	})
	t.Run("olm-v1", func(t *testing.T) {
		start := time.Now()
		crdOracleV1(t, host, catalog, cases, got)
		t.Logf("OLM v1: %d rows in %v", len(cases), time.Since(start).Round(time.Millisecond))
		playedV1 = true
	})
	if t.Failed() {
		return
	}
	if os.Getenv("OPACK_ORACLE_RECORD") != "" {
		if !playedV1 || !playedV0 && !older {
			t.Fatalf("recording needs OLM v1, and OLM v0 unless OPACK_ORACLE_OLMV1=%s; OLM v0 ran: %v, OLM v1 ran: %v", oracleOLMv1Old, playedV0, playedV1)
		}
		record := map[string]crdcases.OLMVerdict{}
		for id, v := range got {
			record[id] = *v
		}
		if err := crdcases.RecordOLMVerdicts(record, older); err != nil {
			t.Fatal(err)
		}
		t.Logf("recorded %d rows in CASES.tsv and OLM-VERDICTS.json", len(record))
		return
	}
	for _, c := range cases {
		v := got[c.row.ID]
		if playedV0 && !older && v.OLMv0 != c.row.OLMv0 {
			t.Errorf("%s: CASES.tsv records olm-v0 %q; OLM v0 did %q (%s) (OPACK_ORACLE_RECORD=1 records it)", c.row.ID, c.row.OLMv0, v.OLMv0, v.OLMv0Message)
		}
		column, want := "olm-v1", c.row.OLMv1
		if older {
			column, want = "olm-v1.2", c.row.OLMv1Old
		}
		if playedV1 && v.OLMv1 != want {
			t.Errorf("%s: CASES.tsv records %s %q; OLM v1 did %q (%s) (OPACK_ORACLE_RECORD=1 records it)", c.row.ID, column, want, v.OLMv1, v.OLMv1Message)
		}
	}
}

// oracleOLMv1Old is the OLM v1 release column olm-v1.2 records.
const oracleOLMv1Old = "v1.2.0"

// oracleRows picks the rows OPACK_ORACLE names: all, ids and id prefixes ending in "/" separated by
// commas, or (empty) oracleSample.
func oracleRows(rows []crdcases.Row, which string) ([]crdcases.Row, error) {
	if which == "all" {
		return rows, nil
	}
	names := oracleSample
	if which != "" {
		names = strings.Split(which, ",")
	}
	var out []crdcases.Row
	for _, name := range names {
		n := len(out)
		for _, r := range rows {
			if r.ID == name || strings.HasSuffix(name, "/") && strings.HasPrefix(r.ID, name) {
				out = append(out, r)
			}
		}
		if len(out) == n {
			return nil, fmt.Errorf("OPACK_ORACLE names %q, which no CASES.tsv row matches", name)
		}
	}
	return out, nil
}

// crdOracleCase is a row made ready to play: its CRDs and objects moved to group <prefix>.<group>.
type crdOracleCase struct {
	row      crdcases.Row
	prefix   string // row<i>: the API group prefix, the package, the namespace and the ClusterExtension
	old, new []*apiextv1.CustomResourceDefinition
	objects  []*unstructured.Unstructured
}

func (c *crdOracleCase) csv(version string) string { return c.prefix + ".v" + version }

// crdOracleCases loads each row as TestE2EAPIServerVerdicts does (crdcases.CompleteFixtures) and moves it to
// its own API group.
func crdOracleCases(t *testing.T, rows []crdcases.Row) []*crdOracleCase {
	t.Helper()
	ctx := t.Context()
	var out []*crdOracleCase
	for _, row := range rows {
		old, err := load.CRDs(ctx, row.OldPath())
		if err != nil {
			t.Fatalf("%s: %v", row.ID, err)
		}
		newSet, err := load.CRDs(ctx, row.NewPath())
		if err != nil {
			t.Fatalf("%s: %v", row.ID, err)
		}
		crdcases.CompleteFixtures(old.CRDs, newSet.CRDs)
		c := &crdOracleCase{row: row, prefix: fmt.Sprintf("row%d", row.Index)}
		move := func(crds []*apiextv1.CustomResourceDefinition) []*apiextv1.CustomResourceDefinition {
			var moved []*apiextv1.CustomResourceDefinition
			for _, oc := range crds {
				u := crdserver.Upgrade{Old: oc, New: oc}.Isolated(c.prefix)
				moved = append(moved, u.Old)
			}
			return moved
		}
		c.old, c.new = move(old.CRDs), move(newSet.CRDs)
		if paths := row.InstancePaths(); len(paths) > 0 {
			objs, err := load.Instances(ctx, paths)
			if err != nil {
				t.Fatalf("%s: %v", row.ID, err)
			}
			var list []*unstructured.Unstructured
			for _, o := range objs {
				list = append(list, o.Object)
			}
			c.objects = crdserver.Upgrade{Old: c.old[0], New: c.old[0], Objects: list}.Isolated(c.prefix).Objects
		}
		out = append(out, c)
	}
	return out
}

// pushOracleCatalog pushes each case's two bundles with `opack image bundle` and the catalog listing
// them all (package row<i>, channel stable: v1.0.0, then v2.0.0 replacing it) with `opack catalog render`
// and `opack image catalog`; it returns the catalog image.
func pushOracleCatalog(t *testing.T, host string, cases []*crdOracleCase) string {
	t.Helper()
	dir := t.TempDir()
	var images []string
	var blobs bytes.Buffer
	for _, c := range cases {
		for _, b := range []struct {
			version, replaces string
			crds              []*apiextv1.CustomResourceDefinition
		}{{"1.0.0", "", c.old}, {"2.0.0", c.csv("1.0.0"), c.new}} {
			bundle := olmharness.Bundle{Package: c.prefix, Name: c.csv(b.version), Version: b.version, Replaces: b.replaces}
			for _, oc := range b.crds {
				bundle.CRDs = append(bundle.CRDs, crdManifest(t, oc))
			}
			bdir := filepath.Join(dir, "bundles", c.csv(b.version))
			if err := bundle.Write(bdir); err != nil {
				t.Fatal(err)
			}
			ref := fmt.Sprintf("%s/crdcases/%s-bundle:v%s", host, c.prefix, b.version)
			opackOK(t, "image", "bundle", bdir, "--tag", ref)
			images = append(images, ref)
		}
		pkg, _ := json.Marshal(map[string]any{"schema": "olm.package", "name": c.prefix, "defaultChannel": "stable"})
		ch, _ := json.Marshal(map[string]any{"schema": "olm.channel", "name": "stable", "package": c.prefix,
			"entries": []map[string]any{{"name": c.csv("1.0.0")}, {"name": c.csv("2.0.0"), "replaces": c.csv("1.0.0")}}})
		blobs.Write(append(append(pkg, '\n'), append(ch, '\n')...))
	}
	rendered := opackOK(t, append([]string{"catalog", "render"}, images...)...)
	fbc := filepath.Join(dir, "catalog")
	if err := os.Mkdir(fbc, 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(fbc, "catalog.json"), blobs.String()+rendered)
	ref := host + "/crdcases/catalog:latest"
	opackOK(t, "image", "catalog", fbc, "--tag", ref)
	return ref
}

// opackOK runs opack in-process and returns its standard output; it fails t unless opack exits 0.
func opackOK(t *testing.T, args ...string) string {
	t.Helper()
	var stdout, stderr bytes.Buffer
	if code := run(t.Context(), args, strings.NewReader(""), &stdout, &stderr); code != exitOK {
		t.Fatalf("opack %s: exit %d\n%s", strings.Join(args, " "), code, stderr.String())
	}
	return stdout.String()
}

// crdManifest encodes a CRD as a bundle ships it: without status or server-set fields.
func crdManifest(t *testing.T, c *apiextv1.CustomResourceDefinition) []byte {
	t.Helper()
	c = c.DeepCopy()
	c.APIVersion, c.Kind = "apiextensions.k8s.io/v1", "CustomResourceDefinition"
	c.Status = apiextv1.CustomResourceDefinitionStatus{}
	c.ResourceVersion, c.UID, c.Generation, c.ManagedFields = "", "", 0, nil
	data, err := yaml.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// prepareOracleCase gives the live CRDs of OLD (installed by an OLM) the row's stored versions and
// creates its existing objects, as TestE2EAPIServerVerdicts does before the update. It returns the
// objects the API server refused (they cannot exist with OLD).
func prepareOracleCase(t *testing.T, c *olmharness.Cluster, oc *crdOracleCase) string {
	t.Helper()
	ctx := t.Context()
	var refused []string
	for _, oldCRD := range oc.old {
		if stored := oc.row.StoredVersionsOf(oldCRD); stored != nil {
			msg, err := c.SetStoredVersions(ctx, oldCRD.Name, stored)
			if err != nil || msg != "" {
				t.Errorf("%s: setting the stored versions of %s to %v: %v %s", oc.row.ID, oldCRD.Name, stored, err, msg)
			}
		}
		for _, o := range c.CreateObjects(ctx, crdserver.Upgrade{Old: oldCRD, New: oldCRD, Objects: oc.objects}) {
			if o.CreateError != "" {
				refused = append(refused, o.Name+" ("+o.Given+"): "+o.CreateError)
			}
		}
	}
	return strings.Join(refused, "; ")
}

// crdOracleV0 plays the cases on OLM v0.
func crdOracleV0(t *testing.T, catalog string, cases []*crdOracleCase, got map[string]*crdcases.OLMVerdict) {
	start := time.Now()
	e := olmharness.StartOLMv0Env(t, olmharness.OLMv0Releases[0], "--install-plan-retry-timeout", "10s")
	c := e.Cluster
	t.Logf("OLM v0: cluster and controllers up after %v", time.Since(start).Round(time.Millisecond))
	start = time.Now()
	e.CatalogSource(t, olmharness.OLMNamespace, catalog)
	var subs []olmharness.Subscription
	for _, oc := range cases {
		subs = append(subs, olmharness.Subscription{Namespace: oc.prefix, CatalogNamespace: olmharness.OLMNamespace, Package: oc.prefix,
			Channel: "stable", StartingCSV: oc.csv("1.0.0"), Manual: true})
	}
	e.Subscribe(t, subs...)
	t.Logf("OLM v0: %d subscriptions made in %v", len(cases), time.Since(start).Round(time.Millisecond))
	// Phase 1: approve each v1.0.0 InstallPlan; wait for its CSV to succeed or its plan to fail.
	start = time.Now()
	installed := olmv0Phase(t, c, cases, "1.0.0", func(oc *crdOracleCase, verdict, msg string) {
		if verdict == crdcases.Reject {
			got[oc.row.ID].OLMv0, got[oc.row.ID].OLMv0Message = crdcases.InstallFails, msg
		}
	})
	t.Logf("OLM v0: v1.0.0 of %d rows installed, %d failed, %v after subscribing", len(installed), len(cases)-len(installed), time.Since(start).Round(time.Millisecond))
	// Phase 2: the row's stored versions and objects; phase 3: approve v2.0.0.
	for _, oc := range installed {
		got[oc.row.ID].ObjectsRefused = prepareOracleCase(t, c, oc)
	}
	start = time.Now()
	olmv0Phase(t, c, installed, "2.0.0", func(oc *crdOracleCase, verdict, msg string) {
		got[oc.row.ID].OLMv0, got[oc.row.ID].OLMv0Message = verdict, msg
	})
	t.Logf("OLM v0: %d upgrades decided %v after the objects were created", len(installed), time.Since(start).Round(time.Millisecond))
}

// olmv0Phase approves the InstallPlan of each case's CSV of version as soon as OLM v0 makes it and waits
// until the CSV Succeeded (accept) or the InstallPlan Failed (reject, its message); it reports each case
// to decided and returns those accepted, in order.
func olmv0Phase(t *testing.T, c *olmharness.Cluster, cases []*crdOracleCase, version string, decided func(oc *crdOracleCase, verdict, msg string)) []*crdOracleCase {
	t.Helper()
	done := map[string]string{}
	start := time.Now()
	decided = logDecisions(t, "OLM v0 "+version, start, decided)
	c.Eventually(t, oracleTimeout(cases), "OLM v0 decides the InstallPlans of "+version, func(ctx context.Context) (bool, string, error) {
		plans, err := c.InstallPlans(ctx, "")
		if err != nil {
			return false, "", err
		}
		csvs, err := listCSVs(ctx, c)
		if err != nil {
			return false, "", err
		}
		var waiting []string
		for _, oc := range cases {
			if done[oc.prefix] != "" {
				continue
			}
			name := oc.csv(version)
			state := "no InstallPlan"
			for _, ip := range plans {
				if ip.Namespace != oc.prefix || !slices.Contains(ip.CSVs, name) {
					continue
				}
				state = fmt.Sprintf("InstallPlan %s %s approved=%v", ip.Name, ip.Phase, ip.Approved)
				switch {
				case ip.Phase == "Failed":
					done[oc.prefix] = crdcases.Reject
					decided(oc, crdcases.Reject, planMessage(ip.Message))
				case !ip.Approved && ip.Phase == "RequiresApproval":
					if err := c.ApproveInstallPlan(ctx, oc.prefix, ip.Name); err != nil {
						return false, "", err
					}
				}
			}
			if done[oc.prefix] != "" {
				continue
			}
			csv := csvs[oc.prefix+"/"+name]
			switch csv.Phase {
			case "Succeeded":
				done[oc.prefix] = crdcases.Accept
				decided(oc, crdcases.Accept, "")
				continue
			case "Failed":
				done[oc.prefix] = crdcases.Reject
				decided(oc, crdcases.Reject, fmt.Sprintf("CSV %s Failed: %s: %s", name, csv.Reason, csv.Message))
				continue
			}
			waiting = append(waiting, fmt.Sprintf("%s: %s; CSV %s %s (%s: %s)", oc.row.ID, state, name, csv.Phase, csv.Reason, csv.Message))
		}
		return len(waiting) == 0, strings.Join(waiting, "\n"), nil
	})
	var accepted []*crdOracleCase
	for _, oc := range cases {
		if done[oc.prefix] == crdcases.Accept {
			accepted = append(accepted, oc)
		}
	}
	return accepted
}

// logDecisions wraps decided to log each row's verdict and when it came.
func logDecisions(t *testing.T, phase string, start time.Time, decided func(oc *crdOracleCase, verdict, msg string)) func(oc *crdOracleCase, verdict, msg string) {
	return func(oc *crdOracleCase, verdict, msg string) {
		t.Logf("%s: %s %s after %v", phase, oc.row.ID, verdict, time.Since(start).Round(100*time.Millisecond))
		decided(oc, verdict, msg)
	}
}

// oracleTimeout bounds a phase of the cases: the controllers work on every row at once, but two cores
// run a bundle unpack Job (OLM v0) or a Helm release (OLM v1) per row.
func oracleTimeout(cases []*crdOracleCase) time.Duration {
	return 3*time.Minute + time.Duration(len(cases))*10*time.Second
}

// planMessage returns an InstallPlan's message without its repetition: olmharness.InstallPlan.Message
// joins status.message and each condition's "Reason: message", and a failed plan says the same in both.
func planMessage(m string) string {
	for i := range len(m) {
		if m[i] == ' ' && strings.HasSuffix(m, ": "+m[:i]) {
			return m[i+1:]
		}
	}
	return m
}

// listCSVs returns the status of every CSV of every namespace by namespace/name (copies of other
// namespaces' CSVs left out).
func listCSVs(ctx context.Context, c *olmharness.Cluster) (map[string]olmharness.CSVStatus, error) {
	var list struct {
		Items []struct {
			Metadata struct {
				Namespace, Name string
				Labels          map[string]string
			} `json:"metadata"`
			Status olmharness.CSVStatus `json:"status"`
		} `json:"items"`
	}
	if _, err := c.GetJSON(ctx, "/apis/operators.coreos.com/v1alpha1/clusterserviceversions", &list); err != nil {
		return nil, err
	}
	out := map[string]olmharness.CSVStatus{}
	for _, csv := range list.Items {
		if csv.Metadata.Labels["olm.copiedFrom"] == "" {
			out[csv.Metadata.Namespace+"/"+csv.Metadata.Name] = csv.Status
		}
	}
	return out, nil
}

// olmv1Settle is how long a ClusterExtension must keep retrying the current generation before the
// refusal is taken as its verdict (a successful install takes 1-4 s; a refusal is retried forever).
const olmv1Settle = 10 * time.Second

// crdOracleV1 plays the cases on OLM v1.
func crdOracleV1(t *testing.T, registry, catalog string, cases []*crdOracleCase, got map[string]*crdcases.OLMVerdict) {
	start := time.Now()
	version := olmharness.OLMv1Releases[0]
	if v := os.Getenv("OPACK_ORACLE_OLMV1"); v != "" {
		version = v // compared with the olm-v1 column, which the newest release recorded
	}
	e := olmharness.StartOLMv1EnvOf(t, version, registry)
	c := e.Cluster
	t.Logf("OLM v1 %s: cluster and controllers up after %v", version, time.Since(start).Round(time.Millisecond))
	start = time.Now()
	e.Catalog(t, "crdcases", catalog)
	t.Logf("OLM v1: ClusterCatalog serving after %v", time.Since(start).Round(time.Millisecond))
	ext := func(oc *crdOracleCase) olmharness.Extension {
		return olmharness.Extension{Name: oc.prefix, Namespace: oc.prefix, Package: oc.prefix, Catalog: "crdcases", Version: "1.0.0"}
	}
	start = time.Now()
	var exts []olmharness.Extension
	for _, oc := range cases {
		exts = append(exts, ext(oc))
	}
	e.Install(t, exts...)
	installed := olmv1Phase(t, c, cases, "1.0.0", func(oc *crdOracleCase, verdict, msg string) {
		if verdict == crdcases.Reject {
			got[oc.row.ID].OLMv1, got[oc.row.ID].OLMv1Message = crdcases.InstallFails, msg
		}
	})
	t.Logf("OLM v1: 1.0.0 of %d rows installed, %d failed, %v after the ClusterExtensions were created", len(installed), len(cases)-len(installed), time.Since(start).Round(time.Millisecond))
	for _, oc := range installed {
		objs := prepareOracleCase(t, c, oc)
		if v := got[oc.row.ID]; v.ObjectsRefused == "" {
			v.ObjectsRefused = objs
		}
	}
	start = time.Now()
	exts = exts[:0]
	for _, oc := range installed {
		exts = append(exts, ext(oc))
	}
	if len(exts) > 0 {
		e.SetVersions(t, "2.0.0", exts...)
	}
	olmv1Phase(t, c, installed, "2.0.0", func(oc *crdOracleCase, verdict, msg string) {
		got[oc.row.ID].OLMv1, got[oc.row.ID].OLMv1Message = verdict, msg
	})
	t.Logf("OLM v1: %d upgrades decided %v after version 2.0.0 was asked for", len(installed), time.Since(start).Round(time.Millisecond))
}

// olmv1Phase waits until each case's ClusterExtension installed version (accept) or has kept retrying
// its current generation for olmv1Settle (reject, the Progressing message); it reports each case to
// decided and returns those accepted, in order.
func olmv1Phase(t *testing.T, c *olmharness.Cluster, cases []*crdOracleCase, version string, decided func(oc *crdOracleCase, verdict, msg string)) []*crdOracleCase {
	t.Helper()
	done := map[string]string{}
	retrying := map[string]time.Time{}
	decided = logDecisions(t, "OLM v1 "+version, time.Now(), decided)
	c.Eventually(t, oracleTimeout(cases), "OLM v1 decides version "+version, func(ctx context.Context) (bool, string, error) {
		exts, err := c.Extensions(ctx)
		if err != nil {
			return false, "", err
		}
		var waiting []string
		for _, oc := range cases {
			if done[oc.prefix] != "" {
				continue
			}
			s := exts[oc.prefix]
			if s.Version == version && s.Installed.Status == "True" && s.ObservedGeneration == s.Generation {
				done[oc.prefix] = crdcases.Accept
				decided(oc, crdcases.Accept, "")
				continue
			}
			if s.Progressing.Reason == "Retrying" && s.ObservedGeneration == s.Generation {
				since, ok := retrying[oc.prefix]
				if !ok {
					retrying[oc.prefix] = time.Now()
				} else if time.Since(since) >= olmv1Settle {
					done[oc.prefix] = crdcases.Reject
					decided(oc, crdcases.Reject, s.Progressing.Message)
					continue
				}
			} else {
				delete(retrying, oc.prefix)
			}
			waiting = append(waiting, fmt.Sprintf("%s: installed %q; Installed %s %s: %s; Progressing %s %s (generation %d of %d): %s", oc.row.ID,
				s.Version, s.Installed.Status, s.Installed.Reason, s.Installed.Message, s.Progressing.Status, s.Progressing.Reason,
				s.ObservedGeneration, s.Generation, s.Progressing.Message))
		}
		return len(waiting) == 0, strings.Join(waiting, "\n"), nil
	})
	var accepted []*crdOracleCase
	for _, oc := range cases {
		if done[oc.prefix] == crdcases.Accept {
			accepted = append(accepted, oc)
		}
	}
	return accepted
}
