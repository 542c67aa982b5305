package main

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/opack/opack/internal/fbc"
	"github.com/opack/opack/internal/olmharness"
	"github.com/opack/opack/internal/olmtest"
)

// Settling: OLM has stopped when its controller's log shows it resolved from the installed release and
// kept it (v0Watch.settle, extensionWatch.settle) and the state has not changed for this long.
const (
	oracleQuietV0 = 10 * time.Second
	oracleQuietV1 = 5 * time.Second
	// oracleStepTimeout bounds one wait for OLM to settle (a long path is many InstallPlans).
	oracleStepTimeout = 12 * time.Minute
)

// TestE2EUpgradesOracle installs, in each case of oracleCases, release From through the real OLM v0
// (operator-lifecycle-manager v0.46.0: a Subscription with startingCSV From, installPlanApproval
// Automatic) and the real OLM v1 (operator-controller v1.11.0: a ClusterExtension pinned to From's
// version, then unpinned), lets each upgrade until it stays, and records what it installed: OLM v0's
// InstallPlans in order, OLM v1's installed bundles after the unpinning. `opack catalog upgrades --from
// From -o json` must predict exactly that (v0Path, v1Target, v1Path), and so must observed.tsv (a stale
// record fails; OPACK_ORACLE_RECORD=1 rewrites it).
//
// By default a fixed sample (oracleCase.Sample: OLM v0 several hops with skips, a version in several
// skipRanges, a skipped successor, a channel switch, a release removed from the catalog; OLM v1 in each);
// OPACK_ORACLE=all runs every case (make oracle), OPACK_ORACLE=NAME,NAME those cases;
// OPACK_ORACLE_OLMV0=v0.26.0 runs that OLM v0 release instead of v0.46.0 (its rows are recorded apart);
// OPACK_ORACLE_OLM=olm-v0 (olm-v1) runs that generation only. One cluster per OLM generation, both at once,
// each case in a namespace (and for OLM v1 a ClusterCatalog and ClusterExtension) of its own, cases side
// by side.
//
// Deviation from the real catalogs: their bundle images (quay.io, registry.redhat.io, ...) are not
// reachable here. Each bundle of a case's catalog gets a stand-in (olmharness.Bundle: a CSV of the
// bundle's name and version with the channel entry's replaces, skips and skipRange, one Deployment the
// kubelet reports available, no CRDs), pushed with `opack image bundle` to a docker-registry on
// 127.0.0.1; each olm.bundle's image is rewritten to it and the catalog built with `opack image catalog`.
// Everything OLM resolves with (entries, replaces, skips, skipRange, properties) is the catalog's as
// testdata/upgrades-oracle/SOURCE.md describes it.
func TestE2EUpgradesOracle(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end test: runs kube-apiserver, etcd, docker-registry and the OLM v0 and OLM v1 controllers; run without -short")
	}
	olmtest.RequireRoot(t)
	t.Setenv("DOCKER_CONFIG", t.TempDir())
	began := time.Now()
	var cases []oracleCase
	only := strings.Split(os.Getenv("OPACK_ORACLE"), ",")
	for _, c := range oracleCases {
		if c.Sample && only[0] == "" || only[0] == "all" || slices.Contains(only, c.Name) {
			cases = append(cases, c)
		}
	}
	if len(cases) == 0 {
		t.Fatalf("OPACK_ORACLE=%s names no case", os.Getenv("OPACK_ORACLE"))
	}
	v0Release := olmharness.OLMv0Releases[0]
	if v := os.Getenv("OPACK_ORACLE_OLMV0"); v != "" {
		v0Release = v // another release olmharness builds (v0.26.0)
	}
	host := olmtest.StartRegistry(t)
	images := pushOracleImages(t, host, cases)
	t.Logf("%d cases; stand-in bundles and catalogs pushed after %v", len(cases), time.Since(began).Round(time.Millisecond))

	var mu sync.Mutex
	observed := map[string][]string{} // oracleKey → path
	record := func(c oracleCase, olm string, path []string) {
		mu.Lock()
		defer mu.Unlock()
		observed[oracleKey(c.Name, olm)] = path
	}
	// Two clusters at once, and the cases of each at once: t.Run from goroutines (not t.Parallel, which
	// -parallel would limit to GOMAXPROCS).
	var wg sync.WaitGroup
	for _, olm := range []struct {
		name string
		run  func(t *testing.T)
	}{{"olm-v0", func(t *testing.T) {
		var extra []string
		if v0Release != olmharness.OLMv0Releases[0] {
			// Before v0.46.0 catalog-operator logs what v0NothingToDo reads at debug level.
			extra = append(extra, "--debug")
		}
		e := olmharness.StartOLMv0Env(t, v0Release, extra...)
		t.Logf("OLM v0 %s up after %v", e.Version, time.Since(began).Round(time.Millisecond))
		eachCase(t, cases, func(t *testing.T, c oracleCase) { record(c, "olm-v0 "+v0Release, oracleV0(t, e, c, images)) })
	}}, {"olm-v1", func(t *testing.T) {
		e := olmharness.StartOLMv1Env(t, host)
		t.Logf("OLM v1 up after %v", time.Since(began).Round(time.Millisecond))
		eachCase(t, cases, func(t *testing.T, c oracleCase) { record(c, oracleOLMv1, oracleV1(t, e, c, images)) })
	}}} {
		if only := os.Getenv("OPACK_ORACLE_OLM"); only != "" && only != olm.name {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			t.Run(olm.name, olm.run)
		}()
	}
	wg.Wait()
	t.Logf("every case settled after %v", time.Since(began).Round(time.Millisecond))

	rows := readOracleRows(t)
	changed := false
	for _, c := range cases {
		r := oracleUpgrades(t, c)
		for _, olm := range []string{"olm-v0 " + v0Release, oracleOLMv1} {
			path, ok := observed[oracleKey(c.Name, olm)]
			if !ok {
				continue // that OLM skipped or failed (reported above)
			}
			t.Logf("%s: %s from %s: %s", c.Name, olm, c.From, pathText(path))
			if d := comparePrediction(c, r, olm, path); d != "" {
				t.Errorf("DISAGREEMENT %s", d)
			}
			row := oracleRow{Case: c.Name, Package: c.Package, Channel: c.Channel, From: oracleFrom(t, c), OLM: olm, Path: path}
			if old, ok := rows[oracleKey(c.Name, olm)]; !ok || fmt.Sprint(old) != fmt.Sprint(row) {
				changed = true
				switch {
				case os.Getenv("OPACK_ORACLE_RECORD") != "":
				case !ok:
					t.Errorf("%s: observed.tsv has no row for %s: OPACK_ORACLE_RECORD=1 records it", c.Name, olm)
				default:
					t.Errorf("%s: %s installed %s, observed.tsv says %s (row %+v): OLM changed, or the case did; OPACK_ORACLE_RECORD=1 records it",
						c.Name, olm, pathText(path), pathText(old.Path), old)
				}
				rows[oracleKey(c.Name, olm)] = row
			}
		}
	}
	if changed && os.Getenv("OPACK_ORACLE_RECORD") != "" {
		writeOracleRows(t, rows)
		t.Logf("observed.tsv rewritten")
	}
}

func pathText(path []string) string {
	if len(path) == 0 {
		return "stays"
	}
	return strings.Join(path, " → ")
}

// eachCase runs fn as a subtest per case, at most OPACK_ORACLE_PARALLEL (default 12) at once.
func eachCase(t *testing.T, cases []oracleCase, fn func(t *testing.T, c oracleCase)) {
	n := 12
	if v := os.Getenv("OPACK_ORACLE_PARALLEL"); v != "" {
		fmt.Sscan(v, &n)
	}
	sem := make(chan struct{}, max(n, 1))
	var wg sync.WaitGroup
	for _, c := range cases {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			t.Run(c.Name, func(t *testing.T) { fn(t, c) })
		}()
	}
	wg.Wait()
}

// oracleImages are the images pushed for the cases, by digest.
type oracleImages struct {
	catalogs map[string]string // catalog folder → image
	bundles  map[string]string // package/bundle name → its stand-in
}

// pushOracleImages pushes a stand-in bundle for every bundle of the cases' catalogs and each catalog with
// its images rewritten to them.
func pushOracleImages(t *testing.T, host string, cases []oracleCase) oracleImages {
	t.Helper()
	bundles := map[string]string{} // package/name → image
	out := map[string]string{}
	for _, c := range cases {
		for _, catalog := range []string{c.Catalog, c.After} {
			if catalog == "" || out[catalog] != "" {
				continue
			}
			cfg, err := fbc.LoadDir(t.Context(), filepath.Join(oracleDir, "catalogs", catalog))
			if err != nil {
				t.Fatal(err)
			}
			for i := range cfg.Bundles {
				b := &cfg.Bundles[i]
				key := b.Package + "/" + b.Name
				if bundles[key] == "" {
					bundles[key] = pushStandIn(t, host, cfg, b)
				}
				b.Image = bundles[key]
			}
			dir := t.TempDir()
			if err := fbc.WriteDir(*cfg, dir, "json"); err != nil {
				t.Fatal(err)
			}
			out[catalog] = opackImage(t, "image", "catalog", dir, "--tag", host+"/oracle/catalog-"+strings.ReplaceAll(catalog, "/", "-")+":latest")
		}
	}
	return oracleImages{catalogs: out, bundles: bundles}
}

var tagChars = regexp.MustCompile(`[^A-Za-z0-9_.-]`)

// pushStandIn writes and pushes the stand-in of bundle b: its name and version, and the upgrade fields
// and channels of its channel entries (the default channel's first).
func pushStandIn(t *testing.T, host string, cfg *fbc.DeclarativeConfig, b *fbc.Bundle) string {
	t.Helper()
	pp, _, err := fbc.BundleVersion(b)
	if err != nil {
		t.Fatal(err)
	}
	sb := olmharness.Bundle{Package: b.Package, Name: b.Name, Version: pp.Version}
	def := ""
	for _, p := range cfg.Packages {
		if p.Name == b.Package {
			def = p.DefaultChannel
		}
	}
	found := false
	for _, first := range []bool{true, false} {
		for _, ch := range cfg.Channels {
			if ch.Package != b.Package || (ch.Name == def) != first {
				continue
			}
			for _, e := range ch.Entries {
				if e.Name != b.Name {
					continue
				}
				sb.Channels = append(sb.Channels, ch.Name)
				if !found {
					sb.Replaces, sb.Skips, sb.SkipRange, found = e.Replaces, e.Skips, e.SkipRange, true
				}
			}
		}
	}
	dir := t.TempDir()
	if err := sb.Write(dir); err != nil {
		t.Fatal(err)
	}
	return opackImage(t, "image", "bundle", dir, "--tag", host+"/oracle/"+b.Package+"-bundle:"+tagChars.ReplaceAllString(b.Name, "_"))
}

// opackImage runs an `opack image` command in-process and returns the image it printed.
func opackImage(t *testing.T, args ...string) string {
	t.Helper()
	code, stdout, stderr := runImage(args...)
	if code != 0 {
		t.Fatalf("opack %s: exit %d\n%s", strings.Join(args, " "), code, stderr)
	}
	return strings.TrimSpace(stdout)
}

// oracleName makes a case name a namespace name (a DNS label).
func oracleName(prefix string, c oracleCase) string {
	return prefix + strings.ReplaceAll(c.Name, ".", "-")
}

// oracleV0 runs case c on OLM v0 and returns the CSVs of the InstallPlans after From's, in order.
func oracleV0(t *testing.T, e *olmharness.OLMv0Env, c oracleCase, images oracleImages) []string {
	ns := oracleName("v0-", c)
	start := c.Channel
	if c.StartChannel != "" {
		start = c.StartChannel
	}
	began := time.Now()
	w := &v0Watch{c: e.Cluster, log: e.OLM.CatalogOperator.LogFile, ns: ns, sub: c.Package, seen: map[string]bool{}}
	mark := logSize(t, w.log)
	e.Subscribe(t, olmharness.Subscription{Namespace: ns, CatalogImage: images.catalogs[c.Catalog], Package: c.Package,
		Channel: start, StartingCSV: c.From})
	w.settle(t, mark)
	got := w.csvs()
	if len(got) == 0 || got[0] != c.From {
		t.Fatalf("the first InstallPlan installed %v, want %s", got, c.From)
	}
	if (c.StartChannel != "" || c.After != "") && len(got) != 1 {
		t.Fatalf("OLM v0 upgraded %s before the switch (%v): the case needs it at its channel's head", c.From, got)
	}
	t.Logf("settled after %v", time.Since(began).Round(time.Millisecond))
	switch {
	case c.StartChannel != "":
		mark := logSize(t, w.log)
		patch(t, e.Cluster, fmt.Sprintf("/apis/operators.coreos.com/v1alpha1/namespaces/%s/subscriptions/%s", ns, c.Package),
			fmt.Sprintf(`{"spec":{"channel":%q}}`, c.Channel))
		t.Logf("Subscription moved to channel %s", c.Channel)
		w.settle(t, mark)
	case c.After != "":
		patch(t, e.Cluster, fmt.Sprintf("/apis/operators.coreos.com/v1alpha1/namespaces/%s/catalogsources/catalog", ns),
			fmt.Sprintf(`{"spec":{"image":%q}}`, images.catalogs[c.After]))
		servingImage(t, e.Cluster, ns, images.catalogs[c.After])
		t.Logf("CatalogSource switched to %s and serving", c.After)
		w.settle(t, logSize(t, w.log))
	}
	path := w.csvs()[1:]
	t.Logf("settled after %v: %v", time.Since(began).Round(time.Millisecond), w.plans)
	return path
}

func patch(t *testing.T, c *olmharness.Cluster, path, body string) {
	t.Helper()
	if err := c.Patch(t.Context(), path, []byte(body)); err != nil {
		t.Fatal(err)
	}
}

// servingImage waits until the CatalogSource "catalog" of ns is served by one pod of image (the old pod
// gone) and catalog-operator is connected.
func servingImage(t *testing.T, c *olmharness.Cluster, ns, image string) {
	t.Helper()
	c.Eventually(t, 3*time.Minute, "CatalogSource "+ns+"/catalog serving "+image, func(ctx context.Context) (bool, string, error) {
		var pods struct {
			Items []struct {
				Metadata struct{ Name string } `json:"metadata"`
				Spec     struct {
					InitContainers []struct{ Image string } `json:"initContainers"`
					Containers     []struct{ Image string } `json:"containers"`
				} `json:"spec"`
				Status struct {
					Conditions []struct{ Type, Status string } `json:"conditions"`
				} `json:"status"`
			} `json:"items"`
		}
		if _, err := c.GetJSON(ctx, "/api/v1/namespaces/"+ns+"/pods?labelSelector=olm.catalogSource%3Dcatalog", &pods); err != nil {
			return false, "", err
		}
		var cs struct {
			Status struct {
				ConnectionState struct {
					LastObservedState string    `json:"lastObservedState"`
					LastConnect       time.Time `json:"lastConnect"`
				} `json:"connectionState"`
			} `json:"status"`
		}
		if _, err := c.GetJSON(ctx, "/apis/operators.coreos.com/v1alpha1/namespaces/"+ns+"/catalogsources/catalog", &cs); err != nil {
			return false, "", err
		}
		var states []string
		ready := len(pods.Items) == 1
		for _, p := range pods.Items {
			podReady := false
			for _, cond := range p.Status.Conditions {
				podReady = podReady || cond.Type == "Ready" && cond.Status == "True"
			}
			// extractContent: the catalog image is an init container's (the server is OLM's opm image).
			var images []string
			for _, c := range append(p.Spec.InitContainers, p.Spec.Containers...) {
				images = append(images, c.Image)
			}
			ready = ready && podReady && slices.Contains(images, image)
			states = append(states, fmt.Sprintf("pod %s %v ready=%v", p.Metadata.Name, images, podReady))
		}
		conn := cs.Status.ConnectionState
		ready = ready && conn.LastObservedState == "READY"
		return ready, fmt.Sprintf("%v; connection %s at %v", states, conn.LastObservedState, conn.LastConnect), nil
	})
}

// v0Watch accumulates the InstallPlans of a namespace in the order they appear (OLM v0 deletes the
// oldest beyond five), polling every second.
type v0Watch struct {
	c       *olmharness.Cluster
	log     string // catalog-operator's log
	ns, sub string
	seen    map[string]bool
	plans   []olmharness.InstallPlan // first seen first
}

// csvs returns the CSVs of the plans in order.
func (w *v0Watch) csvs() []string {
	var out []string
	for _, p := range w.plans {
		out = append(out, p.CSVs...)
	}
	return out
}

// settle waits until OLM v0 has stopped: the Subscription AtLatestKnown with its installed CSV
// Succeeded, every InstallPlan Complete, no bundle being unpacked, and catalog-operator has resolved the
// namespace from that installed CSV and found nothing to do (v0NothingToDo in its log after mark, the
// log's size before the change that started this wait), the state unchanged for oracleQuietV0. Timing
// alone is not enough: under load the next resolution came more than 30 s after the previous CSV
// succeeded. A Failed InstallPlan fails t.
func (w *v0Watch) settle(t *testing.T, mark int64) {
	t.Helper()
	deadline := time.Now().Add(oracleStepTimeout)
	var since time.Time
	last := ""
	for {
		ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
		state, settled, err := w.poll(ctx)
		cancel()
		if err != nil {
			t.Fatalf("%s: %v", w.ns, err)
		}
		if state != last {
			t.Logf("%s", state)
			last, since = state, time.Now()
		}
		if settled && time.Since(since) >= oracleQuietV0 && logHas(t, w.log, mark, v0NothingToDo(w.ns)) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: OLM v0 did not settle in %v; last state: %s\n%s", w.ns, oracleStepTimeout, last, w.c.Logs())
		}
		select {
		case <-t.Context().Done():
			t.Fatal(t.Context().Err())
		case <-time.After(time.Second):
		}
	}
}

// v0NothingToDo matches a log where, after the last change catalog-operator made to a subscription of
// namespace ns, it resolved the namespace and changed nothing. syncResolvingNamespace
// (operator-lifecycle-manager v0.46.0 pkg/controller/operators/catalog/operator.go) logs "subscriptions
// were updated, wait for a new resolution" when it recorded a new installed CSV or InstallPlan state
// (:1314), "resolution caused subscription changes, creating installplan" for an upgrade (:1540), and
// "resolving subscriptions in namespace" then, with the same loop id, "no subscriptions were updated"
// when the resolution changed nothing (:1327, :1582).
func v0NothingToDo(ns string) func(lines []string) bool {
	return func(lines []string) bool {
		resolving := map[string]bool{}
		found := false
		for _, l := range lines {
			if !strings.Contains(l+" ", " namespace="+ns+" ") {
				continue
			}
			id := logField(l, "id=")
			switch {
			case strings.Contains(l, `msg="subscriptions were updated, wait for a new resolution"`),
				strings.Contains(l, `msg="resolution caused subscription changes, creating installplan"`):
				resolving, found = map[string]bool{}, false
			case strings.Contains(l, `msg="resolving subscriptions in namespace"`):
				resolving[id] = true
			case strings.Contains(l, `msg="no subscriptions were updated"`) && resolving[id]:
				found = true
			}
		}
		return found
	}
}

// logField returns the value of key (e.g. `id=`, `reconcileID="`) in a log line.
func logField(line, key string) string {
	i := strings.Index(line, key)
	if i < 0 {
		return ""
	}
	v := line[i+len(key):]
	if j := strings.IndexAny(v, " \""); j >= 0 {
		v = v[:j]
	}
	return v
}

// logSize is the size of a controller's log.
func logSize(t *testing.T, file string) int64 {
	t.Helper()
	fi, err := os.Stat(file)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Size()
}

// logHas reports whether the lines of a controller's log after offset match.
func logHas(t *testing.T, file string, offset int64, match func(lines []string) bool) bool {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.Seek(offset, 0); err != nil {
		t.Fatal(err)
	}
	var lines []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), 4<<20)
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	return match(lines)
}

func (w *v0Watch) poll(ctx context.Context) (state string, settled bool, err error) {
	ips, err := w.c.InstallPlans(ctx, w.ns)
	if err != nil {
		return "", false, err
	}
	complete := true
	var plans []string
	for _, ip := range ips {
		if !w.seen[ip.Name] {
			w.seen[ip.Name] = true
			w.plans = append(w.plans, ip)
		}
		for i := range w.plans {
			if w.plans[i].Name == ip.Name {
				w.plans[i] = ip
			}
		}
		if ip.Phase == "Failed" {
			return "", false, fmt.Errorf("InstallPlan %s %v Failed: %s", ip.Name, ip.CSVs, ip.Message)
		}
		complete = complete && ip.Phase == "Complete"
		plans = append(plans, fmt.Sprintf("%s %v %s", ip.Name, ip.CSVs, ip.Phase))
	}
	sub, err := w.c.Subscription(ctx, w.ns, w.sub)
	if err != nil {
		return "", false, err
	}
	phase := ""
	if sub.InstalledCSV != "" {
		csv, _, err := w.c.CSV(ctx, w.ns, sub.InstalledCSV)
		if err != nil {
			return "", false, err
		}
		phase = csv.Phase
	}
	unpacking := false
	for _, cond := range sub.Conditions {
		unpacking = unpacking || strings.HasPrefix(cond, "BundleUnpacking ")
	}
	state = fmt.Sprintf("subscription %s: state %q installed %q (%s) current %q; conditions %v; plans %v",
		w.sub, sub.State, sub.InstalledCSV, phase, sub.CurrentCSV, sub.Conditions, plans)
	settled = sub.State == "AtLatestKnown" && sub.InstalledCSV != "" && sub.InstalledCSV == sub.CurrentCSV &&
		phase == "Succeeded" && complete && len(ips) > 0 && !unpacking
	return state, settled, nil
}

// oracleV1 runs case c on OLM v1 and returns the bundles operator-controller installed after From, once
// the ClusterExtension was unpinned, in order.
func oracleV1(t *testing.T, e *olmharness.OLMv1Env, c oracleCase, images oracleImages) []string {
	name := oracleName("v1-", c)
	began := time.Now()
	e.Catalog(t, name, images.catalogs[c.Catalog])
	start := c.Channel
	if c.StartChannel != "" {
		start = c.StartChannel
	}
	version := oracleVersions(t, c.Catalog)[c.From]
	x := olmharness.Extension{Name: name, Namespace: name, Package: c.Package, Catalog: name, Version: version,
		Channels: []string{start}}
	log := e.OLM.OperatorController.LogFile
	mark := logSize(t, log)
	e.Install(t, x)
	w := watchExtension(t, e.Cluster, log, name, images.bundles, c.Package)
	w.settle(t, mark)
	if got := w.installed(); len(got) != 1 || got[0] != c.From {
		t.Fatalf("the ClusterExtension pinned to %s installed %v, want %s alone", version, got, c.From)
	}
	t.Logf("%s installed and settled after %v", c.From, time.Since(began).Round(time.Millisecond))
	if c.After != "" {
		switchCatalog(t, e, name, images.catalogs[c.After])
		t.Logf("ClusterCatalog switched to %s", c.After)
	}
	x.Channels = []string{c.Channel}
	mark = logSize(t, log)
	e.SetVersion(t, x, "")
	t.Logf("ClusterExtension unpinned (channel %s)", c.Channel)
	w.settle(t, mark)
	got := w.installed()
	t.Logf("settled after %v: installed %v", time.Since(began).Round(time.Millisecond), got)
	return got[1:]
}

// switchCatalog points ClusterCatalog name at image and waits until catalogd serves it.
func switchCatalog(t *testing.T, e *olmharness.OLMv1Env, name, image string) {
	t.Helper()
	patch(t, e.Cluster, "/apis/olm.operatorframework.io/v1/clustercatalogs/"+name, fmt.Sprintf(`{"spec":{"source":{"image":{"ref":%q}}}}`, image))
	digest := image[strings.LastIndex(image, "@")+1:]
	e.Eventually(t, 3*time.Minute, "ClusterCatalog "+name+" serving "+image, func(ctx context.Context) (bool, string, error) {
		var cat struct {
			Status struct {
				ResolvedSource struct {
					Image struct{ Ref string } `json:"image"`
				} `json:"resolvedSource"`
			} `json:"status"`
		}
		if _, err := e.GetJSON(ctx, "/apis/olm.operatorframework.io/v1/clustercatalogs/"+name, &cat); err != nil {
			return false, "", err
		}
		cond, err := e.Condition(ctx, "/apis/olm.operatorframework.io/v1/clustercatalogs/"+name, "Serving")
		ref := cat.Status.ResolvedSource.Image.Ref
		return strings.HasSuffix(ref, digest) && cond.Status == "True", fmt.Sprintf("resolved %s; Serving %+v", ref, cond), err
	})
}

// extensionWatch follows a ClusterExtension's installed bundle with `kubectl get -w` (every change,
// however brief) and its conditions.
type extensionWatch struct {
	c       *olmharness.Cluster
	log     string // operator-controller's log
	name    string
	bundles map[string]string // package/bundle name → image
	pkg     string
	mu      sync.Mutex
	seen    []string // installed bundles, in order, consecutive repeats dropped
	done    chan struct{}
}

func watchExtension(t *testing.T, c *olmharness.Cluster, log, name string, bundles map[string]string, pkg string) *extensionWatch {
	t.Helper()
	w := &extensionWatch{c: c, log: log, name: name, bundles: bundles, pkg: pkg, done: make(chan struct{})}
	cmd := c.KubectlCmd("get", "clusterextension", name, "--watch", "-o", `jsonpath={.status.install.bundle.name}{"\n"}`)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		defer close(w.done)
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			b := strings.TrimSpace(sc.Text())
			w.mu.Lock()
			if b != "" && (len(w.seen) == 0 || w.seen[len(w.seen)-1] != b) {
				w.seen = append(w.seen, b)
			}
			w.mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-w.done
		cmd.Wait()
	})
	return w
}

func (w *extensionWatch) installed() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return slices.Clone(w.seen)
}

// settle waits until OLM v1 has stopped: the ClusterExtension Installed, Progressing Succeeded for its
// current generation, and operator-controller has reconciled it from the installed bundle and changed
// nothing (v1Stays in its log after mark, the log's size before the change that started this wait), the
// state unchanged for oracleQuietV1. Timing alone is not enough: under load the next reconcile came
// 30 s after an install.
func (w *extensionWatch) settle(t *testing.T, mark int64) {
	t.Helper()
	deadline := time.Now().Add(oracleStepTimeout)
	var since time.Time
	last := ""
	for {
		select {
		case <-w.done:
			t.Fatalf("kubectl get --watch clusterextension %s ended", w.name)
		default:
		}
		ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
		x, err := w.c.Extension(ctx, w.name)
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		seen := w.installed()
		state := fmt.Sprintf("installed %s %s; Installed %s %s; Progressing %s %s: %s (generation %d, observed %d); seen %v",
			x.Bundle, x.Version, x.Installed.Status, x.Installed.Reason, x.Progressing.Status, x.Progressing.Reason,
			x.Progressing.Message, x.Generation, x.ObservedGeneration, seen)
		if state != last {
			t.Logf("%s", state)
			last, since = state, time.Now()
		}
		settled := x.Installed.Status == "True" && x.Progressing.Reason == "Succeeded" && x.ObservedGeneration == x.Generation &&
			x.Bundle != "" && len(seen) > 0 && seen[len(seen)-1] == x.Bundle
		if settled && time.Since(since) >= oracleQuietV1 && logHas(t, w.log, mark, v1Stays(w.name, w.bundles[w.pkg+"/"+x.Bundle])) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: OLM v1 did not settle in %v; last state: %s\n%s", w.name, oracleStepTimeout, last, w.c.Logs())
		}
		select {
		case <-t.Context().Done():
			t.Fatal(t.Context().Err())
		case <-time.After(time.Second):
		}
	}
}

// v1Stays matches a log with two whole reconciles of ClusterExtension name ("reconcile starting" and
// "reconcile ending" with one reconcileID, operator-controller v1.11.0
// internal/operator-controller/controllers/clusterextension_controller.go:134-135) that applied the
// bundle image (each logs it, "pulled image" or "image already unpacked", with its reference): the
// first may be the one that installed it; the second started after it ended (controller-runtime never
// reconciles one object twice at once) and so resolved from it, and kept it. Each install updates the
// status, which starts another reconcile (the controller watches ClusterExtensions without a predicate,
// clusterextension_controller.go:438), so the second always comes.
func v1Stays(name, image string) func(lines []string) bool {
	return func(lines []string) bool {
		if image == "" {
			return false
		}
		applied := map[string]bool{}
		n := 0
		for _, l := range lines {
			if !strings.Contains(l, `ClusterExtension="`+name+`"`) {
				continue
			}
			id := logField(l, `reconcileID="`)
			switch {
			case strings.Contains(l, `"reconcile starting"`):
				applied[id] = false
			case strings.Contains(l, `ref="`+image+`"`):
				applied[id] = true
			case strings.Contains(l, `"reconcile ending"`):
				if applied[id] {
					n++
				}
			}
		}
		return n >= 2
	}
}
