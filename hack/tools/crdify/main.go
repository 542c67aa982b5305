// Command crdify prints the verdict of operator-controller v1.11.0's CRD upgrade-safety preflight on an
// upgrade from OLD to NEW, as JSON: sigs.k8s.io/crdify at the version operator-controller pins, configured
// as operator-controller configures it (internal/operator-controller/rukpak/preflights/crdupgradesafety,
// defaultConfig and defaultRegistry), its results joined into the message the ClusterExtension shows.
//
//	crdify OLD NEW          one pair: one JSON object
//	crdify -batch < pairs   one "OLD<TAB>NEW" pair a line: one JSON object a line
//
// OLD is read as the API server holds it once installed (operator-controller reads the live CRD): decoded
// with the API server's scheme and converted to apiextensions.k8s.io/v1, its status the API server's own
// on create (status.storedVersions = its storage version), so a v1beta1 OLD is judged as the cluster
// keeps it. NEW is read as the bundle
// gives it (unstructured, converted to the v1 type without defaulting); the preflight checks only v1 CRDs,
// so a NEW of another apiVersion is "not-checked" (the API server of Kubernetes 1.22+ refuses it anyway).
//
// Verdicts: accept, reject (message: what the ClusterExtension's Progressing condition says after
// `error for resolved bundle ...: `), not-checked, panic (crdify panicked: operator-controller's
// reconciler recovers it and retries, so the upgrade does not happen), error (a file could not be read).
// For tests and measurements only; never linked into opack.
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/install"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"sigs.k8s.io/crdify/pkg/config"
	"sigs.k8s.io/crdify/pkg/runner"
	"sigs.k8s.io/crdify/pkg/validations/property"
	"sigs.k8s.io/yaml"
)

// Result is the verdict on one pair.
type Result struct {
	Old     string  `json:"old"`
	New     string  `json:"new"`
	CRD     string  `json:"crd,omitempty"`
	Verdict string  `json:"verdict"`
	Message string  `json:"message,omitempty"`
	Errors  []Issue `json:"errors,omitempty"`
}

// Issue is one error of crdify's results, as operator-controller prints it (version and property empty for
// CRD-wide validations; version "v1 -> v2" for the served-version validator).
type Issue struct {
	Kind       string `json:"kind"` // crd, same or served
	Version    string `json:"version,omitempty"`
	Property   string `json:"property,omitempty"`
	Validation string `json:"validation"`
	Message    string `json:"message"`
}

func main() {
	batch := flag.Bool("batch", false, "read OLD<TAB>NEW pairs from standard input, one a line")
	flag.Parse()
	enc := json.NewEncoder(os.Stdout)
	enc.SetEscapeHTML(false)
	if !*batch {
		if flag.NArg() != 2 {
			fmt.Fprintln(os.Stderr, "usage: crdify OLD NEW | crdify -batch < pairs")
			os.Exit(2)
		}
		_ = enc.Encode(judge(flag.Arg(0), flag.Arg(1)))
		return
	}
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		old, new, ok := strings.Cut(sc.Text(), "\t")
		if !ok {
			continue
		}
		if err := enc.Encode(judge(old, new)); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
	if err := sc.Err(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

var (
	scheme = runtime.NewScheme()
	codecs = serializer.NewCodecFactory(scheme)
)

func init() { install.Install(scheme) }

func judge(oldPath, newPath string) (r Result) {
	r = Result{Old: oldPath, New: newPath}
	oldCRD, err := readLive(oldPath)
	if err != nil {
		r.Verdict, r.Message = "error", err.Error()
		return r
	}
	newObj, err := readUnstructured(newPath)
	if err != nil {
		r.Verdict, r.Message = "error", err.Error()
		return r
	}
	r.CRD = newObj.GetName()
	// operator-controller: obj.GetObjectKind().GroupVersionKind() != apiextensionsv1 CRD: continue.
	if newObj.GroupVersionKind() != apiextensionsv1.SchemeGroupVersion.WithKind("CustomResourceDefinition") {
		r.Verdict, r.Message = "not-checked", "NEW is "+newObj.GetAPIVersion()+", which the preflight does not check"
		return r
	}
	newCRD := &apiextensionsv1.CustomResourceDefinition{}
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(newObj.Object, newCRD); err != nil {
		r.Verdict, r.Message = "error", fmt.Sprintf("converting unstructured to CRD object: %v", err)
		return r
	}
	defer func() {
		if p := recover(); p != nil {
			r.Verdict, r.Message, r.Errors = "panic", fmt.Sprint(p), nil
		}
	}()
	run, err := runner.New(defaultConfig(), runner.DefaultRegistry())
	if err != nil {
		r.Verdict, r.Message = "error", err.Error()
		return r
	}
	results := run.Run(oldCRD, newCRD)
	r.Verdict = "accept"
	if !results.HasFailures() {
		return r
	}
	r.Errors = issues(results)
	if len(r.Errors) == 0 {
		return r
	}
	lines := make([]string, len(r.Errors))
	for i, e := range r.Errors {
		lines[i] = e.line()
	}
	r.Verdict = "reject"
	r.Message = fmt.Sprintf("validating upgrade for CRD %q: %s", newCRD.Name, strings.Join(lines, "\n"))
	return r
}

// defaultConfig is operator-controller v1.11.0's defaultConfig, verbatim.
func defaultConfig() *config.Config {
	return &config.Config{
		// Ignore served version validations if conversion policy is set.
		Conversion: config.ConversionPolicyIgnore,
		// Fail-closed by default
		UnhandledEnforcement: config.EnforcementPolicyError,
		// Use the default validation configurations as they are
		// the strictest possible.
		Validations: []config.ValidationConfig{
			// Do not enforce the description validation
			// because OLM should not block on field description changes.
			{
				Name:        "description",
				Enforcement: config.EnforcementPolicyNone,
			},
			{
				Name:        "enum",
				Enforcement: config.EnforcementPolicyError,
				Configuration: map[string]interface{}{
					"additionPolicy": property.AdditionPolicyAllow,
				},
			},
		},
	}
}

// issues lists the errors in operator-controller's order: CRD-wide, same version, served versions
// (crdWideErrors, sameVersionErrors, servedVersionErrors).
func issues(results *runner.Results) []Issue {
	var out []Issue
	for _, result := range results.CRDValidation {
		for _, err := range result.Errors {
			out = append(out, Issue{Kind: "crd", Validation: result.Name, Message: err})
		}
	}
	for _, vr := range results.SameVersionValidation {
		for _, pr := range vr.PropertyComparisons {
			for _, cr := range pr.ComparisonResults {
				for _, err := range cr.Errors {
					out = append(out, Issue{Kind: "same", Version: vr.Version, Property: pr.Property, Validation: cr.Name, Message: concise(cr.Name, err)})
				}
			}
		}
	}
	for _, vr := range results.ServedVersionValidation {
		for _, pr := range vr.PropertyComparisons {
			for _, cr := range pr.ComparisonResults {
				for _, err := range cr.Errors {
					out = append(out, Issue{Kind: "served", Version: vr.Version, Property: pr.Property, Validation: cr.Name, Message: concise(cr.Name, err)})
				}
			}
		}
	}
	return out
}

// line formats an issue as operator-controller does: "<validation>: <msg>" for CRD-wide ones,
// "<version>: <property>: <validation>: <msg>" for the others.
func (i Issue) line() string {
	if i.Kind == "crd" {
		return i.Validation + ": " + i.Message
	}
	return fmt.Sprintf("%s: %s: %s: %s", i.Version, i.Property, i.Validation, i.Message)
}

// readUnstructured reads a file holding one object (YAML or JSON).
func readUnstructured(path string) (*unstructured.Unstructured, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	js, err := yaml.YAMLToJSON(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	u := &unstructured.Unstructured{}
	if err := u.UnmarshalJSON(js); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if u.GetKind() != "CustomResourceDefinition" {
		return nil, fmt.Errorf("%s: holds a %s, not a CustomResourceDefinition", path, u.GetKind())
	}
	return u, nil
}

// readLive reads OLD as the API server keeps it: decoded (v1 or v1beta1), defaulted, converted to v1.
func readLive(path string) (*apiextensionsv1.CustomResourceDefinition, error) {
	u, err := readUnstructured(path)
	if err != nil {
		return nil, err
	}
	js, err := u.MarshalJSON()
	if err != nil {
		return nil, err
	}
	// Decoded (and defaulted) at its own version into the internal version, then converted to v1, as
	// the API server stores a CRD and serves it at v1.
	obj, _, err := codecs.UniversalDecoder().Decode(js, nil, nil)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	internal, ok := obj.(*apiextensions.CustomResourceDefinition)
	if !ok {
		return nil, errors.New(path + ": not a CustomResourceDefinition")
	}
	// The API server creates a CRD with a status of its own: its storage version stored
	// (customresourcedefinition strategy's PrepareForCreate), whatever the manifest said.
	internal.Status = apiextensions.CustomResourceDefinitionStatus{}
	crd := &apiextensionsv1.CustomResourceDefinition{}
	if err := scheme.Convert(internal, crd, nil); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	scheme.Default(crd)
	return crd, nil
}
