package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/opack/opack/internal/catalog/upgrades"
)

// The upgrades oracle: `opack catalog upgrades --from X` checked against what the real OLM v0 and OLM v1
// did from X (TestE2EUpgradesOracle runs them; testdata/upgrades-oracle/observed.tsv records what they
// did; TestUpgradesOracleRecorded checks opack against that record on every `go test`).

// oracleDir holds the catalogs of the cases (catalogs/<name>/, SOURCE.md says where each came from) and
// the observed paths (observed.tsv).
const oracleDir = "../../testdata/upgrades-oracle"

// The OLM releases every case must have been observed on; observed.tsv names them in its olm column
// (and may hold rows of other releases, e.g. OPACK_ORACLE_OLMV0=v0.26.0, checked the same way).
const (
	oracleOLMv0 = "olm-v0 v0.46.0"
	oracleOLMv1 = "olm-v1 v1.11.0"
)

// oracleCase is one installed release and what happens to it: From installed from Catalog (in
// StartChannel when set, else Channel), then (when set) the Subscription / ClusterExtension moved to
// Channel, or the catalog replaced by After; then OLM upgrades as it will until it stays.
type oracleCase struct {
	// Name is unique, short (it names namespaces and a Helm release: at most 40 characters).
	Name    string
	Catalog string // folder under testdata/upgrades-oracle/catalogs
	Package string
	Channel string // the channel OLM upgrades in
	From    string // the bundle installed first
	// StartChannel is the channel From is installed from when the case moves the Subscription
	// (ClusterExtension) to Channel afterwards. From must be that channel's head (OLM v0 would upgrade
	// it before the move otherwise).
	StartChannel string
	// After is the catalog the CatalogSource (ClusterCatalog) is switched to once From is installed.
	// From must be Catalog's channel head.
	After string
	// Sample: in the default run (CI); OPACK_ORACLE=all runs every case.
	Sample bool
	// Why says what the case checks.
	Why string
}

// oracleCases: the real packages come from ../shared/corpus/fbc and a public repository (SOURCE.md), the
// oracle-* catalogs are synthetic corners. Their graphs are as upstream; see TestE2EUpgradesOracle for
// the images.
var oracleCases = []oracleCase{
	// certified-operators-v4.22
	{Name: "kurrentdb-1.4.3", Catalog: "kurrentdb-operator", Package: "kurrentdb-operator", Channel: "stable-v1",
		From: "kurrentdb-operator.v1.4.3", Sample: true,
		Why: "1.5.0 replaces and skips 1.4.3 but is itself skipped by 1.6.0-0: is it ever installed?"},
	{Name: "kurrentdb-1.5.0", Catalog: "kurrentdb-operator", Package: "kurrentdb-operator", Channel: "stable-v1",
		From: "kurrentdb-operator.v1.5.0", Why: "a skipped entry installed with startingCSV, then upgraded"},
	{Name: "nutanix-3.3.4", Catalog: "nutanixcsioperator", Package: "nutanixcsioperator", Channel: "stable-3.x",
		From: "nutanixcsioperator.v3.3.4", Why: "skipRange on non-head entries, a long replaces chain"},
	{Name: "nutanix-3.7.2", Catalog: "nutanixcsioperator", Package: "nutanixcsioperator", Channel: "stable-3.x",
		From: "nutanixcsioperator.v3.7.2", Why: "3.8.0 and 3.8.1 both replace 3.7.2, 3.8.1 skips 3.8.0"},
	{Name: "trilio-5.0.0", Catalog: "k8s-triliovault", Package: "k8s-triliovault", Channel: "5.0.x",
		From: "k8s-triliovault-stable.5.0.0", Why: "skipRanges and skips without replaces"},
	{Name: "trilio-switch-5.3", Catalog: "k8s-triliovault", Package: "k8s-triliovault", StartChannel: "5.0.x", Channel: "5.3.x",
		From: "k8s-triliovault-stable.5.0.4", Sample: true,
		Why: "channel switch to a channel that skips the installed release, whose entries replace a bundle of another channel"},
	{Name: "eda-6.0.0", Catalog: "eda-openshift-operator", Package: "eda-k8s-operator", Channel: "6.0",
		From: "eda-openshift-operator.v6.0.0", Why: "the head's skipRange >=5.0.0 includes its own version"},
	{Name: "minio-removed", Catalog: "minio-object-store-operator-before", After: "minio-object-store-operator",
		Package: "minio-object-store-operator", Channel: "stable", From: "minio-object-store-operator.v2026.4.13102716",
		Why: "the installed release is no longer in the catalog; its successor replaces it by name"},
	{Name: "intel-switch", Catalog: "intel-device-plugins-operator", Package: "intel-device-plugins-operator",
		StartChannel: "alpha", Channel: "stable", From: "intel-device-plugins-operator.v0.32.2",
		Why: "two channels sharing bundles: alpha's head, moved to stable"},
	{Name: "crunchy-5.8.4", Catalog: "crunchy-postgres-operator", Package: "crunchy-postgres-operator", Channel: "v5",
		From: "postgresoperator.v5.8.4", Why: "5.8.5 and 5.8.6 replace 5.8.4, 5.8.6 skips 5.8.5"},
	// certified-operators-v4.14-partial
	{Name: "dell-1.8.0", Catalog: "dell-csm-operator-certified", Package: "dell-csm-operator-certified", Channel: "stable",
		From: "dell-csm-operator-certified.v1.8.0", Sample: true,
		Why: "1.8.1 skips 1.8.0, 1.9.0 (skipped by 1.9.1) replaces it: OLM v0 and v1 part ways"},
	{Name: "dell-1.9.1", Catalog: "dell-csm-operator-certified", Package: "dell-csm-operator-certified", Channel: "stable",
		From: "dell-csm-operator-certified.v1.9.1", Why: "three entries replace 1.9.1, two of them skipped"},
	{Name: "visionone-3.3.9", Catalog: "visionone-containersecurity", Package: "visionone-containersecurity", Channel: "stable",
		From: "visionone-containersecurity.v3.3.9", Why: "3.3.9-operator.1 replaces 3.3.9 with a lower semver version"},
	{Name: "trident-25.2.0", Catalog: "trident-operator", Package: "trident-operator", Channel: "stable",
		From: "trident-operator.v25.2.0", Sample: true, Why: "a version in several skipRanges, the head's not among them"},
	{Name: "trident-25.10.0", Catalog: "trident-operator", Package: "trident-operator", Channel: "stable",
		From: "trident-operator.v25.10.0", Why: "replaced by a pre-release of its own version, covered by the head's skipRange"},
	{Name: "hulft-10.3.0", Catalog: "hulft", Package: "hulft", Channel: "stable",
		From: "hulft.v10.3.0", Why: "three entries replace 10.3.0, two of them skipped"},
	{Name: "kubecost-3.0.0", Catalog: "kubecost-operator", Package: "kubecost-operator", Channel: "stable",
		From: "kubecost-operator.v3.0.0", Why: "skips only, no replaces"},
	// netobserv/netobserv-catalog
	{Name: "netobserv-1.6.2", Catalog: "netobserv-operator", Package: "netobserv-operator", Channel: "stable",
		From: "network-observability-operator.v1.6.2", Why: "a plain replaces chain, bundle names unlike the package's"},
	{Name: "netobserv-1.1.0", Catalog: "netobserv-operator", Package: "netobserv-operator", Channel: "v1.0.x",
		From: "network-observability-operator.v1.1.0-202302110050", Why: "a non-default channel sharing its bundles"},
	// synthetic corners
	{Name: "chain", Catalog: "oracle-chain", Package: "oracle-chain", Channel: "stable",
		From: "oracle-chain.v1.0.0", Why: "a replaces chain"},
	{Name: "skiprange-head", Catalog: "oracle-skiprange-head", Package: "oracle-skiprange-head", Channel: "stable",
		From: "oracle-skiprange-head.v1.0.0", Why: "the head's skipRange against an intermediate replaces"},
	{Name: "skiprange-middle", Catalog: "oracle-skiprange-middle", Package: "oracle-skiprange-middle", Channel: "stable",
		From: "oracle-skiprange-middle.v1.0.0", Why: "a skipRange on a non-head entry"},
	{Name: "skipranges", Catalog: "oracle-skipranges", Package: "oracle-skipranges", Channel: "stable",
		From: "oracle-skipranges.v1.0.0", Why: "a version in several skipRanges"},
	{Name: "channels-fast", Catalog: "oracle-channels", Package: "oracle-channels", StartChannel: "stable", Channel: "fast",
		From: "oracle-channels.v1.1.0", Why: "channel switch between channels sharing bundles"},
	{Name: "channels-candidate", Catalog: "oracle-channels", Package: "oracle-channels", StartChannel: "stable", Channel: "candidate",
		From: "oracle-channels.v1.1.0", Why: "channel switch to a channel without the installed release"},
	{Name: "deprecated", Catalog: "oracle-deprecated", Package: "oracle-deprecated", Channel: "stable",
		From: "oracle-deprecated.v1.0.0", Why: "a deprecated successor (olm.deprecations)"},
	{Name: "prohibited", Catalog: "oracle-prohibited", Package: "oracle-prohibited", Channel: "stable",
		From: "oracle-prohibited.v1.0.0", Why: "a successor carrying the legacy olm.deprecated property"},
	{Name: "lower-head", Catalog: "oracle-lower-head", Package: "oracle-lower-head", Channel: "stable",
		From: "oracle-lower-head.v1.0.0", Why: "the head's version is lower than the entry it replaces"},
	{Name: "removed", Catalog: "oracle-removed/before", After: "oracle-removed/after", Package: "oracle-removed", Channel: "stable",
		From: "oracle-removed.v1.1.0", Sample: true, Why: "a bundle removed from the middle, still named by replaces"},
	{Name: "removed-range", Catalog: "oracle-removed-range/before", After: "oracle-removed-range/after", Package: "oracle-removed-range",
		Channel: "stable", From: "oracle-removed-range.v1.1.0", Why: "a bundle removed from the middle, covered by a skipRange"},
	{Name: "release", Catalog: "oracle-release/before", After: "oracle-release/after", Package: "oracle-release", Channel: "stable",
		From: "oracle-release.v1.0.0-1", Why: "versions differing in build metadata only (OLM v1's release), the head's the lower " +
			"(installed from a catalog holding it alone: a ClusterExtension cannot pin a version with build metadata)"},
	{Name: "channel-edges", Catalog: "oracle-channel-edges", Package: "oracle-channel-edges", Channel: "stable",
		From: "oracle-channel-edges.v1.0.0", Why: "another channel holds a shorter edge between the same bundles"},
}

// oracleFrom is From as `opack catalog upgrades --from` takes it on the catalog OLM upgrades from:
// the bundle name, or NAME@VERSION when that catalog no longer holds it.
func oracleFrom(t *testing.T, c oracleCase) string {
	t.Helper()
	if c.After == "" {
		return c.From
	}
	if _, ok := oracleVersions(t, c.After)[c.From]; ok {
		return c.From
	}
	return c.From + "@" + oracleVersions(t, c.Catalog)[c.From]
}

// oracleVersions returns the version of each bundle of a case catalog.
func oracleVersions(t *testing.T, catalog string) map[string]string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(oracleDir, "catalogs", catalog, "catalog.json"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	dec := json.NewDecoder(bytes.NewReader(data))
	for dec.More() {
		var blob struct {
			Schema, Name string
			Properties   []struct {
				Type  string
				Value json.RawMessage
			}
		}
		if err := dec.Decode(&blob); err != nil {
			t.Fatalf("reading %s: %v", catalog, err)
		}
		for _, p := range blob.Properties {
			if blob.Schema == "olm.bundle" && p.Type == "olm.package" {
				var v struct{ Version string }
				if err := json.Unmarshal(p.Value, &v); err != nil {
					t.Fatal(err)
				}
				out[blob.Name] = v.Version
			}
		}
	}
	return out
}

// oracleUpgrades runs `opack catalog upgrades` for c on the catalog OLM upgrades from (After, else
// Catalog) and returns its one release.
func oracleUpgrades(t *testing.T, c oracleCase) upgrades.Release {
	t.Helper()
	catalog := c.Catalog
	if c.After != "" {
		catalog = c.After
	}
	var out, errb bytes.Buffer
	args := []string{"catalog", "upgrades", filepath.Join(oracleDir, "catalogs", catalog), "--package", c.Package,
		"--channel", c.Channel, "--from", oracleFrom(t, c), "-o", "json"}
	if code := run(context.Background(), args, strings.NewReader(""), &out, &errb); code != 0 {
		t.Fatalf("opack %s: exit %d\n%s", strings.Join(args, " "), code, errb.String())
	}
	var res struct {
		Packages []upgrades.Result `json:"packages"`
	}
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		t.Fatalf("reading opack's JSON: %v\n%s", err, out.String())
	}
	if len(res.Packages) != 1 || len(res.Packages[0].Channels) != 1 || len(res.Packages[0].Channels[0].Releases) != 1 {
		t.Fatalf("opack %s: want one package, channel and release:\n%s", strings.Join(args, " "), out.String())
	}
	return res.Packages[0].Channels[0].Releases[0]
}

// oracleRow is one line of observed.tsv: what one OLM release did in one case. Path is every release
// it installed after From, in order (OLM v0: one InstallPlan each; OLM v1: each bundle it installed
// after the ClusterExtension was unpinned); OLM v1's target is its first element.
type oracleRow struct {
	Case, Package, Channel, From, OLM string
	Path                              []string
}

const oracleHeader = "# case\tpackage\tchannel\tfrom\tolm\tpath (the releases installed after from, in order; - none)"

func oracleKey(caseName, olm string) string { return caseName + "\t" + olm }

// readOracleRows reads observed.tsv (an absent file has no rows).
func readOracleRows(t *testing.T) map[string]oracleRow {
	t.Helper()
	rows := map[string]oracleRow{}
	data, err := os.ReadFile(filepath.Join(oracleDir, "observed.tsv"))
	if os.IsNotExist(err) {
		return rows
	}
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 6 {
			t.Fatalf("observed.tsv:%d: %d fields, want 6", n, len(f))
		}
		r := oracleRow{Case: f[0], Package: f[1], Channel: f[2], From: f[3], OLM: f[4], Path: []string{}}
		if f[5] != "-" {
			r.Path = strings.Split(f[5], " ")
		}
		rows[oracleKey(r.Case, r.OLM)] = r
	}
	return rows
}

// writeOracleRows writes observed.tsv, one row per case and OLM release, in the order of oracleCases.
func writeOracleRows(t *testing.T, rows map[string]oracleRow) {
	t.Helper()
	order := map[string]int{}
	for i, c := range oracleCases {
		order[c.Name] = i
	}
	list := make([]oracleRow, 0, len(rows))
	for _, r := range rows {
		list = append(list, r)
	}
	sort.Slice(list, func(i, j int) bool {
		if list[i].Case != list[j].Case {
			return order[list[i].Case] < order[list[j].Case]
		}
		return list[i].OLM < list[j].OLM
	})
	var b strings.Builder
	b.WriteString(oracleHeader + "\n")
	for _, r := range list {
		path := "-"
		if len(r.Path) > 0 {
			path = strings.Join(r.Path, " ")
		}
		fmt.Fprintf(&b, "%s\t%s\t%s\t%s\t%s\t%s\n", r.Case, r.Package, r.Channel, r.From, r.OLM, path)
	}
	if err := os.WriteFile(filepath.Join(oracleDir, "observed.tsv"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// comparePrediction reports where opack's prediction for c differs from what OLM release olm did.
func comparePrediction(c oracleCase, r upgrades.Release, olm string, observed []string) string {
	var want []string
	switch {
	case strings.HasPrefix(olm, "olm-v0 "):
		want = r.V0Path
	case strings.HasPrefix(olm, "olm-v1 "):
		want = r.V1Path
		target := ""
		if len(observed) > 0 {
			target = observed[0]
		}
		if r.V1Target != target {
			return fmt.Sprintf("%s: %s: opack's v1Target is %q, %s resolved to %q", c.Name, olm, r.V1Target, olm, target)
		}
	default:
		return ""
	}
	if !slices.Equal(want, observed) {
		return fmt.Sprintf("%s: opack predicts %v (-), %s installed %v (+):\n%s", c.Name, want, olm, observed, cmp.Diff(want, observed))
	}
	return ""
}

// TestUpgradesOracleRecorded checks `opack catalog upgrades --from` against what the real OLM v0 and
// OLM v1 did in every case, as TestE2EUpgradesOracle recorded it: a change to opack's rules that OLM
// does not share fails here, without a cluster. Every case must have been observed on both.
func TestUpgradesOracleRecorded(t *testing.T) {
	rows := readOracleRows(t)
	for _, c := range oracleCases {
		t.Run(c.Name, func(t *testing.T) {
			r := oracleUpgrades(t, c)
			for _, olm := range []string{oracleOLMv0, oracleOLMv1} {
				if _, ok := rows[oracleKey(c.Name, olm)]; !ok {
					t.Errorf("%s has no row for %s in observed.tsv: run `OPACK_ORACLE=all OPACK_ORACLE_RECORD=1 make oracle`", c.Name, olm)
				}
			}
			for _, row := range rows {
				if row.Case != c.Name {
					continue
				}
				olm := row.OLM
				if row.Package != c.Package || row.Channel != c.Channel || row.From != oracleFrom(t, c) {
					t.Errorf("observed.tsv's row for %s %s is of %s/%s from %s, the case of %s/%s from %s: record it again",
						c.Name, olm, row.Package, row.Channel, row.From, c.Package, c.Channel, oracleFrom(t, c))
				}
				if d := comparePrediction(c, r, olm, row.Path); d != "" {
					t.Error(d)
				}
			}
		})
	}
	names := map[string]bool{}
	for _, c := range oracleCases {
		if len(c.Name) > 40 || names[c.Name] {
			t.Errorf("case name %q: too long or not unique", c.Name)
		}
		names[c.Name] = true
	}
	for _, row := range rows {
		if !names[row.Case] {
			t.Errorf("observed.tsv has a row for %q, which is no case", row.Case)
		}
	}
}
