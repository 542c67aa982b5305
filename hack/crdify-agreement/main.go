// Command crdify-agreement measures opack's OLM v1 claims against OLM v1's own CRD upgrade-safety
// preflight on real catalogs (internal/crd/agreement): every CRD that changes on an upgrade edge is judged
// by crdify as operator-controller v1.11.0 configures it (hack/tools/crdify, built by
// hack/build-apiserver.sh crdify) and by opack (`opack validate crds OLD NEW`: does a finding name olm-v1
// among its actors?); it prints the agreement both ways and the classes of disagreement.
//
//	go run ./hack/crdify-agreement [-crdify BIN] [-record FILE] [-json FILE] NAME=KIND:DIR...
//
// KIND is fbc (a file-based catalog folder whose bundles embed their objects) or bundles (a folder of
// <package>/<version>/ bundle or package-manifest folders). -record writes the preflight's verdicts, by
// pair, for internal/crd/agreement's test; -json every pair with both verdicts.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/opack/opack/internal/crd/agreement"
)

func main() {
	bin := flag.String("crdify", "", "the crdify program (default: built by hack/build-apiserver.sh crdify)")
	record := flag.String("record", "", "write the preflight's verdicts to this `file`")
	check := flag.String("check", "", "fail when crdify's verdicts differ from those recorded in this `file` (by -record)")
	keep := flag.String("keep", "", "write the pairs into this `folder` (<key>/old.json, new.json) and keep them")
	recorded := flag.String("verdicts", "", "take the preflight's verdicts from this `file` (written by -record) instead of running crdify")
	details := flag.String("json", "", "write every pair, the preflight's verdict and opack's claim to this `file`")
	flag.Parse()
	if err := run(context.Background(), *bin, *record, *recorded, *details, *keep, *check, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "crdify-agreement:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, bin, record, recorded, details, keep, check string, args []string) (err error) {
	if len(args) == 0 {
		return fmt.Errorf("name at least one NAME=KIND:DIR catalog")
	}
	var sources []agreement.Source
	for _, a := range args {
		name, rest, ok1 := strings.Cut(a, "=")
		kind, dir, ok2 := strings.Cut(rest, ":")
		if !ok1 || !ok2 {
			return fmt.Errorf("%q is not NAME=KIND:DIR", a)
		}
		sources = append(sources, agreement.Source{Name: name, Kind: kind, Dir: dir})
	}
	if bin == "" && recorded == "" {
		out, err := exec.CommandContext(ctx, "bash", "hack/build-apiserver.sh", "crdify").Output()
		if err != nil {
			return fmt.Errorf("building crdify: %w", err)
		}
		bin = strings.TrimSpace(string(out))
	}
	start := time.Now()
	pairs, edges, err := agreement.Pairs(ctx, sources...)
	if err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "%d changed CRD pairs on %d upgrade edges, read in %v\n", len(pairs), edges, time.Since(start).Round(time.Second))
	dir := keep
	if dir == "" {
		if dir, err = os.MkdirTemp("", "crdify-agreement-"); err != nil {
			return err
		}
		defer os.RemoveAll(dir)
	}
	if err := agreement.WritePairs(dir, pairs); err != nil {
		return err
	}
	start = time.Now()
	var verdicts map[string]agreement.Verdict
	if recorded != "" {
		verdicts, err = agreement.ReadVerdicts(recorded)
	} else {
		verdicts, err = agreement.RunCrdify(ctx, bin, dir, pairs)
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "crdify: %v\n", time.Since(start).Round(time.Second))
	start = time.Now()
	claims := agreement.Claims(ctx, dir, pairs)
	fmt.Fprintf(os.Stderr, "opack: %v\n", time.Since(start).Round(time.Second))
	var b strings.Builder
	fmt.Fprintf(&b, "%d upgrade edges of %s\n", edges, strings.Join(args, ", "))
	tab := agreement.Compare(pairs, verdicts, claims)
	tab.Markdown(&b)
	fmt.Print(b.String())
	var failed []string
	if 100*tab.RefusedClaimed < 99*tab.Refused {
		failed = append(failed, fmt.Sprintf("opack names olm-v1 on %d of the %d pairs OLM v1 refuses, below 99%%", tab.RefusedClaimed, tab.Refused))
	}
	if 100*tab.AcceptedClaimed > tab.Accepted {
		failed = append(failed, fmt.Sprintf("opack names olm-v1 on %d of the %d pairs OLM v1 accepts, above 1%%", tab.AcceptedClaimed, tab.Accepted))
	}
	if check != "" {
		stale, err := agreement.Stale(check, pairs, verdicts)
		if err != nil {
			return err
		}
		for _, s := range stale {
			fmt.Fprintln(os.Stderr, "stale:", s)
		}
		if len(stale) > 0 {
			failed = append(failed, fmt.Sprintf("%s is stale on %d pairs (OPACK_ORACLE_RECORD=1 make oracle records crdify's verdicts)", check, len(stale)))
		}
	}
	if record != "" {
		if err := agreement.WriteVerdicts(record, pairs, verdicts); err != nil {
			return err
		}
	}
	defer func() {
		if len(failed) > 0 && err == nil {
			err = fmt.Errorf("%s", strings.Join(failed, "; "))
		}
	}()
	if details != "" {
		type row struct {
			agreement.Pair
			Crdify agreement.Verdict `json:"crdify"`
			Opack  agreement.Claim   `json:"opack"`
		}
		var rows []row
		for _, p := range pairs {
			rows = append(rows, row{p, verdicts[p.Key], claims[p.Key]})
		}
		data, err := json.MarshalIndent(rows, "", " ")
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Clean(details), data, 0o644); err != nil {
			return err
		}
	}
	return nil
}
