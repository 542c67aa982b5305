package agreement

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	apiextv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/opack/opack/internal/crd"
	"github.com/opack/opack/internal/crd/load"
	"github.com/opack/opack/internal/crd/preflight"
)

// Verdicts of OLM v1's preflight on a pair, as hack/tools/crdify prints them.
const (
	Accept     = "accept"      // the preflight lets the upgrade through
	Reject     = "reject"      // the preflight refuses it
	Panic      = "panic"       // crdify panics: operator-controller recovers and retries, the upgrade does not happen
	NotChecked = "not-checked" // NEW is not an apiextensions.k8s.io/v1 CRD: the preflight skips it (and no API server since 1.22 takes it)
	Error      = "error"       // a CRD could not be read
)

// Verdict is the preflight's verdict on a pair: its issues as crdify gives them, or, as recorded
// (Compact), their number, a digest of what they are about (Digest) and their classes.
type Verdict struct {
	Key     string  `json:"key"`
	Verdict string  `json:"verdict"`
	Message string  `json:"message,omitempty"`
	Issues  []Issue `json:"errors,omitempty"`
	// Count, Digest, Signatures and Order are what Compact keeps of the issues.
	Count      int      `json:"count,omitempty"`
	Digest     string   `json:"digest,omitempty"`
	Signatures []string `json:"signatures,omitempty"`
	Order      bool     `json:"orderDependent,omitempty"`
}

// Issue is one error of the preflight: a CRD-wide validation (Kind "crd"), a comparison of a version with
// itself ("same") or of two served versions of NEW ("served", Version "v1 -> v2").
type Issue struct {
	Kind       string `json:"kind"`
	Version    string `json:"version,omitempty"`
	Property   string `json:"property,omitempty"`
	Validation string `json:"validation"`
	Message    string `json:"message"`
}

// Refuses reports whether the upgrade does not happen under OLM v1 (a refusal, or a panic the controller
// retries forever).
func (v Verdict) Refuses() bool { return v.Verdict == Reject || v.Verdict == Panic }

// Judged reports whether the verdict counts: OLM v1 judged the pair (not a NEW it cannot install, not an
// unreadable file).
func (v Verdict) Judged() bool { return v.Verdict == Accept || v.Refuses() }

// WritePairs writes each pair's CRDs into dir/<key>/old.json and new.json.
func WritePairs(dir string, pairs []Pair) error {
	for _, p := range pairs {
		d := filepath.Join(dir, p.Key)
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(d, "old.json"), p.Old, 0o644); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(d, "new.json"), p.New, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// RunCrdify asks the crdify program (hack/tools/crdify) for its verdict on each pair written by WritePairs.
func RunCrdify(ctx context.Context, bin, dir string, pairs []Pair) (map[string]Verdict, error) {
	var in bytes.Buffer
	for _, p := range pairs {
		fmt.Fprintf(&in, "%s\t%s\n", filepath.Join(dir, p.Key, "old.json"), filepath.Join(dir, p.Key, "new.json"))
	}
	cmd := exec.CommandContext(ctx, bin, "-batch")
	cmd.Stdin = &in
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("%s -batch: %w: %s", bin, err, stderr.String())
	}
	verdicts := map[string]Verdict{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var r struct {
			Verdict
			Old string `json:"old"`
		}
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			return nil, fmt.Errorf("reading crdify's output: %w", err)
		}
		r.Key = filepath.Base(filepath.Dir(r.Old))
		verdicts[r.Key] = r.Verdict
	}
	return verdicts, sc.Err()
}

// Claim is what opack says of a pair: the findings that name olm-v1 among their actors.
type Claim struct {
	// OLMv1 lists "rule path" of each finding naming olm-v1; empty when opack names no OLM v1 refusal.
	OLMv1 []string `json:"olmv1,omitempty"`
	// Err is why opack could not check the pair.
	Err string `json:"error,omitempty"`
}

// Claims runs opack's check, as `opack validate crds OLD NEW` does (crd.Check), on each pair written by
// WritePairs.
func Claims(ctx context.Context, dir string, pairs []Pair) map[string]Claim {
	out := make(map[string]Claim, len(pairs))
	for _, p := range pairs {
		res, err := crd.Check(ctx, crd.Request{Old: filepath.Join(dir, p.Key, "old.json"), New: filepath.Join(dir, p.Key, "new.json")})
		if err != nil {
			out[p.Key] = Claim{Err: err.Error()}
			continue
		}
		var c Claim
		for _, f := range res.Findings {
			if slices.Contains(f.Actors(), string(crd.ActorOLMv1)) {
				c.OLMv1 = append(c.OLMv1, string(f.Rule)+" "+f.Version+" "+f.Path)
			}
		}
		out[p.Key] = c
	}
	return out
}

// Table is the agreement of opack's claims with the preflight's verdicts.
type Table struct {
	Pairs, NotChecked, Errors int
	// Refused and Accepted count the judged pairs by the preflight's verdict; RefusedClaimed and
	// AcceptedClaimed those of them on which opack names olm-v1. Panics counts the refusals that are
	// crdify panics.
	Refused, RefusedClaimed, Accepted, AcceptedClaimed, Panics int
	// Silent are the classes of refused pairs opack names no OLM v1 refusal on; Claimed the classes of
	// accepted pairs opack names one on: class → pairs.
	Silent, Claimed map[string][]Pair
}

// Compare builds the agreement table.
func Compare(pairs []Pair, verdicts map[string]Verdict, claims map[string]Claim) *Table {
	t := &Table{Silent: map[string][]Pair{}, Claimed: map[string][]Pair{}}
	for _, p := range pairs {
		t.Pairs++
		v, c := verdicts[p.Key], claims[p.Key]
		switch {
		case v.Verdict == NotChecked:
			t.NotChecked++
			continue
		case !v.Judged() || c.Err != "":
			t.Errors++
			continue
		}
		claimed := len(c.OLMv1) > 0
		if v.Refuses() {
			t.Refused++
			if v.Verdict == Panic {
				t.Panics++
			}
			switch {
			case claimed:
				t.RefusedClaimed++
			case v.OrderDependent():
				t.Silent[ClassOrderDependent] = append(t.Silent[ClassOrderDependent], p)
			default:
				cl := RefusalClass(v)
				t.Silent[cl] = append(t.Silent[cl], p)
			}
			continue
		}
		t.Accepted++
		if claimed {
			t.AcceptedClaimed++
			cl := claimClass(c)
			t.Claimed[cl] = append(t.Claimed[cl], p)
		}
	}
	return t
}

// ClassOrderDependent is the class of refusals that depend on the random order crdify prints required
// fields in (Verdict.OrderDependent).
const ClassOrderDependent = "served required, in a random order"

// RefusalClass names what the preflight refused on a pair: its issues' signatures, sorted and joined.
func RefusalClass(v Verdict) string {
	if v.Verdict == Panic {
		return "panic: " + v.Message
	}
	sigs := slices.Clone(v.Signatures)
	for _, i := range v.Issues {
		if s := signature(i); !slices.Contains(sigs, s) {
			sigs = append(sigs, s)
		}
	}
	sort.Strings(sigs)
	return strings.Join(sigs, ", ")
}

// signature names an issue's kind of change: its validation, what an unhandled change changed (the
// fields operator-controller's message names), whether a type was removed; served-version issues are
// marked so.
func signature(i Issue) string {
	s := i.Validation
	switch {
	case i.Validation == "unhandled":
		s += "(" + strings.Join(unhandledFields(i.Message), ",") + ")"
	case i.Validation == "type" && strings.HasSuffix(i.Message, `-> ""`):
		s += "(removed)"
	case i.Validation == "enum" || i.Validation == "oneOf" || i.Validation == "pattern" || i.Validation == "default":
		msg, _, _ := strings.Cut(i.Message, " :")
		msg, _, _ = strings.Cut(msg, ":")
		s += "(" + msg + ")"
	}
	if i.Kind == "served" {
		s = "served " + s
	}
	return s
}

// unhandledFields returns the JSONSchemaProps fields an unhandled message names ("unhandled changes found
// (Format "" -> "email"; XValidations ...)" → Format, XValidations).
func unhandledFields(msg string) []string {
	_, details, ok := strings.Cut(msg, "(")
	if !ok {
		return []string{"?"}
	}
	var out []string
	for _, d := range strings.Split(strings.TrimSuffix(details, ")"), "; ") {
		f, _, _ := strings.Cut(d, " ")
		if f != "" && !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	sort.Strings(out)
	return out
}

func claimClass(c Claim) string {
	var rules []string
	for _, r := range c.OLMv1 {
		rule, _, _ := strings.Cut(r, " ")
		if !slices.Contains(rules, rule) {
			rules = append(rules, rule)
		}
	}
	sort.Strings(rules)
	return strings.Join(rules, ", ")
}

func pct(n, of int) string {
	if of == 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f%%", 100*float64(n)/float64(of))
}

// Markdown writes the table and the classes of disagreement (each with its pair count and first pair).
func (t *Table) Markdown(w *strings.Builder) {
	fmt.Fprintf(w, "%d changed CRD pairs; %d not checked by OLM v1 (NEW is not apiextensions.k8s.io/v1), %d unreadable\n\n", t.Pairs, t.NotChecked, t.Errors)
	fmt.Fprintf(w, "| OLM v1's preflight | pairs | opack names olm-v1 | opack names no OLM v1 refusal |\n|---|---|---|---|\n")
	fmt.Fprintf(w, "| refuses | %d | %d (%s) | %d |\n", t.Refused, t.RefusedClaimed, pct(t.RefusedClaimed, t.Refused), t.Refused-t.RefusedClaimed)
	fmt.Fprintf(w, "| accepts | %d | %d (%s) | %d |\n", t.Accepted, t.AcceptedClaimed, pct(t.AcceptedClaimed, t.Accepted), t.Accepted-t.AcceptedClaimed)
	if t.Panics > 0 {
		fmt.Fprintf(w, "\n(%d of the refusals are crdify panics)\n", t.Panics)
	}
	for _, s := range []struct {
		title   string
		classes map[string][]Pair
	}{{"Refused, opack names no OLM v1 refusal (by what the preflight refused)", t.Silent}, {"Accepted, opack names olm-v1 (by opack's rules)", t.Claimed}} {
		if len(s.classes) == 0 {
			continue
		}
		fmt.Fprintf(w, "\n%s:\n", s.title)
		keys := sortedKeys(s.classes)
		sort.SliceStable(keys, func(i, j int) bool { return len(s.classes[keys[i]]) > len(s.classes[keys[j]]) })
		for _, k := range keys {
			p := s.classes[k][0]
			fmt.Fprintf(w, "- %d × %s — e.g. %s %s %s -> %s %s (%s)\n", len(s.classes[k]), k, p.Catalog, p.Package, p.From, p.To, p.CRD, p.Key)
		}
	}
}

// WriteVerdicts writes the preflight's verdicts on the pairs, one JSON object a line, sorted by key, each
// issue once by what it is about (Compact).
func WriteVerdicts(path string, pairs []Pair, verdicts map[string]Verdict) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	for _, p := range pairs {
		v := verdicts[p.Key].Compact()
		v.Key = p.Key
		if err := enc.Encode(v); err != nil {
			return err
		}
	}
	return os.WriteFile(path, b.Bytes(), 0o644)
}

// Compact returns what a record keeps of v: the number of distinct issues, a digest of what they are
// about (Digest; order-sensitive issues left out, they come and go from one crdify run to the next),
// their signatures and whether the refusal is order-dependent; the message cut to 200 bytes.
func (v Verdict) Compact() Verdict {
	out := Verdict{Key: v.Key, Verdict: v.Verdict, Message: v.Message, Order: v.OrderDependent()}
	ids := make([]string, 0, len(v.Issues))
	for _, i := range v.Issues {
		if !i.orderSensitive() {
			ids = append(ids, i.normal().id())
		}
		if s := signature(i); !slices.Contains(out.Signatures, s) {
			out.Signatures = append(out.Signatures, s)
		}
	}
	sort.Strings(out.Signatures)
	out.Count, out.Digest = Digest(ids)
	if len(out.Message) > 200 {
		out.Message = strings.ToValidUTF8(out.Message[:200], "") + "..."
	}
	return out
}

// Digest returns the number of distinct issue ids and a digest of them.
func Digest(ids []string) (int, string) {
	ids = slices.Clone(ids)
	slices.Sort(ids)
	ids = slices.Compact(ids)
	if len(ids) == 0 {
		return 0, ""
	}
	h := sha256.Sum256([]byte(strings.Join(ids, "\n")))
	return len(ids), hex.EncodeToString(h[:8])
}

// normal moves a removed field's version and path from crdify's message to the issue's fields.
func (i Issue) normal() Issue {
	if i.Kind == "crd" && i.Validation == preflight.CheckRemoved && i.Property == "" {
		vp := strings.TrimPrefix(i.Message, "removed field : ")
		i.Version, i.Property, _ = strings.Cut(vp, ".")
	}
	return i
}

// id identifies what an issue is about.
func (i Issue) id() string {
	return strings.Join([]string{i.Kind, i.Version, i.Property, i.Validation}, " ")
}

// OrderDependent reports whether the preflight refused only for pre-existing differences between served
// versions that crdify prints in a random order: a "new required fields: [b a]" of two names or more,
// which its served-version validator compares by string with OLD's own and drops only when both
// orders come out alike. operator-controller retries a refused upgrade until they do.
func (v Verdict) OrderDependent() bool {
	if v.Order {
		return true
	}
	if v.Verdict != Reject || len(v.Issues) == 0 {
		return false
	}
	for _, i := range v.Issues {
		if !i.orderSensitive() {
			return false
		}
	}
	return true
}

// orderSensitive reports whether crdify keeps or drops the issue by the random order it prints it in:
// a served-version "new required fields: [b a]" of two names or more.
func (i Issue) orderSensitive() bool {
	_, names, _ := strings.Cut(i.Message, "[")
	return i.Kind == preflight.KindServed && i.Validation == "required" && strings.Contains(names, " ")
}

// OrderSensitive reports whether the model's refusal is one crdify reports or not by a random order
// (Issue.orderSensitive): the model, which sorts the names, drops it as pre-existing when OLD has it.
func OrderSensitive(r preflight.Refusal) bool {
	return r.Kind == preflight.KindServed && r.Check == "required" && strings.Contains(r.New, ", ")
}

// ReadVerdicts reads what WriteVerdicts wrote.
func ReadVerdicts(path string) (map[string]Verdict, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	out := map[string]Verdict{}
	dec := json.NewDecoder(bytes.NewReader(data))
	for dec.More() {
		var v Verdict
		if err := dec.Decode(&v); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		out[v.Key] = v
	}
	return out, nil
}

// Model returns what opack's model of the preflight (internal/crd/preflight) refuses of each pair written
// by WritePairs, with OLD as a fresh install of it leaves the live CRD (its storage version stored).
func Model(ctx context.Context, dir string, pairs []Pair, p preflight.Preflight) (map[string][]preflight.Refusal, error) {
	out := make(map[string][]preflight.Refusal, len(pairs))
	for _, pr := range pairs {
		old, err := load.CRDs(ctx, filepath.Join(dir, pr.Key, "old.json"))
		if err != nil {
			return nil, err
		}
		new, err := load.CRDs(ctx, filepath.Join(dir, pr.Key, "new.json"))
		if err != nil {
			return nil, err
		}
		if len(old.CRDs) != 1 || len(new.CRDs) != 1 {
			return nil, fmt.Errorf("pair %s: want one CRD on each side", pr.Key)
		}
		live := old.CRDs[0].DeepCopy()
		live.Status = apiextv1.CustomResourceDefinitionStatus{}
		for _, v := range live.Spec.Versions {
			if v.Storage {
				live.Status.StoredVersions = []string{v.Name}
			}
		}
		out[pr.Key] = preflight.Check(live, new.CRDs[0], p)
	}
	return out, nil
}

// RefusalIssue is the issue crdify reports for a refusal of the model, by what it is about.
func RefusalIssue(r preflight.Refusal) Issue {
	i := Issue{Kind: r.Kind, Version: r.Version, Property: r.Property, Validation: r.Check}
	if r.Kind == preflight.KindCRD && r.Check != preflight.CheckRemoved {
		i.Version = ""
	}
	return i
}

// Stale compares the verdicts on the pairs with those recorded in path: it lists each pair whose
// recorded verdict is missing or differs (in verdict or in what the issues are about), leaving out a
// refusal that depends on crdify's random order against an acceptance.
func Stale(path string, pairs []Pair, verdicts map[string]Verdict) ([]string, error) {
	recorded, err := ReadVerdicts(path)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, p := range pairs {
		got := verdicts[p.Key].Compact()
		want, ok := recorded[p.Key]
		name := fmt.Sprintf("%s %s %s -> %s %s (%s)", p.Catalog, p.Package, p.From, p.To, p.CRD, p.Key)
		switch {
		case !ok:
			out = append(out, name+": not recorded")
		case got.Verdict == want.Verdict && got.Count == want.Count && got.Digest == want.Digest:
		case got.OrderDependent() && want.Verdict == Accept || want.OrderDependent() && got.Verdict == Accept:
		default:
			out = append(out, fmt.Sprintf("%s: recorded %s (%d issues, %s), crdify says %s (%d issues, %s)", name, want.Verdict, want.Count, want.Digest, got.Verdict, got.Count, got.Digest))
		}
	}
	return out, nil
}
