// Package crdcases reads testdata/crd-upgrade/CASES.tsv, the CRD upgrade cases whose verdicts opack's
// CRD checks are held to (by internal/crd's tests against a real API server, and by cmd/opack's against the
// real OLM controllers), records verdicts into it, and completes its fixtures as a cluster holds CRDs.
// Only tests import it.
package crdcases

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"k8s.io/apiextensions-apiserver/pkg/apihelpers"
	apiextv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
)

// Verdicts of the OLM controllers as columns olm-v0 and olm-v1 record them.
const (
	// Accept: the upgrade to the bundle carrying NEW succeeded (OLM v0: its CSV Succeeded through its
	// InstallPlan; OLM v1: the ClusterExtension installed it).
	Accept = "accept"
	// Reject: the bundle carrying OLD was installed and the upgrade to NEW's was refused (OLM v0: its
	// InstallPlan Failed; OLM v1: the ClusterExtension kept OLD's bundle, retrying with the refusal).
	Reject = "reject"
	// InstallFails: the bundle carrying OLD cannot even be installed (the API server refuses OLD's CRD);
	// the upgrade is not tried.
	InstallFails = "install-fails"
)

// columns are CASES.tsv's columns, in order.
var columns = []string{"id", "old", "new", "stored_versions", "instances", "expected", "upstream", "apiserver", "olm-v0", "olm-v1", "olm-v1.2", "note"}

// Row is a CASES.tsv row.
type Row struct {
	// Index is the row's position among the data rows, from 0: the end-to-end tests move row i's CRDs
	// to API group row<i>.<group>.
	Index int
	// ID names the case; Old and New are the CRD files, relative to Dir.
	ID, Old, New string
	// Stored is status.storedVersions of the live CRD before the upgrade, comma-separated (empty: the
	// server's own).
	Stored string
	// Instances are the existing objects' files, comma-separated, relative to Dir.
	Instances string
	// Expected is opack's verdict (pass, fail); Upstream the source checker's.
	Expected, Upstream string
	// APIServer is what a real API server did (internal/crd TestE2EAPIServerVerdicts); OLMv0 and OLMv1 what
	// the real OLM controllers did (cmd/opack TestE2ECRDCasesOLM): Accept, Reject or InstallFails. OLMv1Old
	// is what OLM v1 v1.2.0 did (its preflight is the one of v1.0 to v1.3, before crdify).
	APIServer, OLMv0, OLMv1, OLMv1Old string
	Note                              string
}

// StoredVersions returns the row's stored versions, nil when it gives none.
func (r Row) StoredVersions() []string {
	if r.Stored == "" {
		return nil
	}
	return strings.Split(r.Stored, ",")
}

// OldPath and NewPath return the CRD files' paths.
func (r Row) OldPath() string { return filepath.Join(Dir(), r.Old) }

// NewPath returns the path of NEW's file.
func (r Row) NewPath() string { return filepath.Join(Dir(), r.New) }

// InstancePaths returns the paths of the existing objects' files.
func (r Row) InstancePaths() []string {
	var out []string
	for _, p := range strings.Split(r.Instances, ",") {
		if p != "" {
			out = append(out, filepath.Join(Dir(), p))
		}
	}
	return out
}

func (r Row) fields() []string {
	return []string{r.ID, r.Old, r.New, r.Stored, r.Instances, r.Expected, r.Upstream, r.APIServer, r.OLMv0, r.OLMv1, r.OLMv1Old, r.Note}
}

func parseRow(index int, line string) (Row, error) {
	c := strings.Split(line, "\t")
	if len(c) != len(columns) {
		return Row{}, fmt.Errorf("CASES.tsv line %q has %d columns, want %d (%s)", line, len(c), len(columns), strings.Join(columns, ", "))
	}
	return Row{Index: index, ID: c[0], Old: c[1], New: c[2], Stored: c[3], Instances: c[4], Expected: c[5], Upstream: c[6],
		APIServer: c[7], OLMv0: c[8], OLMv1: c[9], OLMv1Old: c[10], Note: c[11]}, nil
}

// Dir returns the folder of CASES.tsv: testdata/crd-upgrade of the opack repository holding the current
// directory.
func Dir() string {
	dir, err := os.Getwd()
	if err != nil {
		panic(err)
	}
	for {
		data, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil && strings.HasPrefix(string(data), "module github.com/opack/opack\n") {
			return filepath.Join(dir, "testdata", "crd-upgrade")
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			panic("crdcases: not inside the opack repository")
		}
		dir = parent
	}
}

// Read returns CASES.tsv's rows.
func Read() ([]Row, error) {
	_, rows, err := read()
	return rows, err
}

// read returns the file's lines and its rows.
func read() ([]string, []Row, error) {
	data, err := os.ReadFile(filepath.Join(Dir(), "CASES.tsv"))
	if err != nil {
		return nil, nil, err
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	var rows []Row
	for _, line := range lines {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		row, err := parseRow(len(rows), line)
		if err != nil {
			return nil, nil, err
		}
		rows = append(rows, row)
	}
	return lines, rows, nil
}

// Rewrite rewrites CASES.tsv with each row as update leaves it (comments and order kept): the
// end-to-end tests record what the real servers did this way.
func Rewrite(update func(*Row)) error {
	lines, _, err := read()
	if err != nil {
		return err
	}
	index := 0
	for i, line := range lines {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		row, err := parseRow(index, line)
		if err != nil {
			return err
		}
		index++
		update(&row)
		lines[i] = strings.Join(row.fields(), "\t")
	}
	file := filepath.Join(Dir(), "CASES.tsv")
	tmp := file + ".tmp"
	if err := os.WriteFile(tmp, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, file)
}

// CompleteFixtures completes upstream fixtures that are not whole CRDs the way every CRD on a cluster
// is, so that a server can hold OLD; opack judges the completed pair too (the command tests judge the
// files as they are):
//   - no version served (the fixture omits served): every version is served;
//   - not exactly one storage version: OLD's storage version when NEW has it, else the first one marked,
//     else the first version;
//   - spec.preserveUnknownFields: true (the v1beta1 default, which a v1 API server refuses on create):
//     false, with x-kubernetes-preserve-unknown-fields: true and type: object at each version's root,
//     which keeps unknown fields as before;
//   - metadata.name: spec.names.plural.spec.group, as the API server requires.
func CompleteFixtures(olds, news []*apiextv1.CustomResourceDefinition) {
	for _, oc := range olds {
		completeFixture(oc, "")
		if nc := findCRD(news, oc.Name); nc != nil {
			completeFixture(nc, storageVersion(oc))
			nc.Name = nc.Spec.Names.Plural + "." + nc.Spec.Group
		}
		oc.Name = oc.Spec.Names.Plural + "." + oc.Spec.Group
	}
}

func completeFixture(c *apiextv1.CustomResourceDefinition, prefer string) {
	served, storage, storages := false, "", 0
	for _, v := range c.Spec.Versions {
		served = served || v.Served
		if v.Storage {
			storages++
			if storage == "" {
				storage = v.Name
			}
		}
	}
	if storages != 1 {
		switch {
		case prefer != "" && hasVersion(c, prefer):
			storage = prefer
		case storage == "" && len(c.Spec.Versions) > 0:
			storage = c.Spec.Versions[0].Name
		}
	}
	for i := range c.Spec.Versions {
		v := &c.Spec.Versions[i]
		v.Served = v.Served || !served
		v.Storage = v.Name == storage
	}
	if !c.Spec.PreserveUnknownFields {
		return
	}
	c.Spec.PreserveUnknownFields = false
	for i := range c.Spec.Versions {
		v := &c.Spec.Versions[i]
		if v.Schema == nil || v.Schema.OpenAPIV3Schema == nil {
			v.Schema = &apiextv1.CustomResourceValidation{OpenAPIV3Schema: &apiextv1.JSONSchemaProps{}}
		}
		root := v.Schema.OpenAPIV3Schema
		root.XPreserveUnknownFields = ptrTo(true)
		if root.Type == "" {
			root.Type = "object"
		}
	}
}

func ptrTo[T any](v T) *T { return &v }

func findCRD(crds []*apiextv1.CustomResourceDefinition, name string) *apiextv1.CustomResourceDefinition {
	for _, c := range crds {
		if c.Name == name {
			return c
		}
	}
	return nil
}

func hasVersion(c *apiextv1.CustomResourceDefinition, name string) bool {
	return slices.ContainsFunc(c.Spec.Versions, func(v apiextv1.CustomResourceDefinitionVersion) bool { return v.Name == name })
}

// storageVersion is c's storage version, "" when it has none.
func storageVersion(c *apiextv1.CustomResourceDefinition) string {
	v, _ := apihelpers.GetCRDStorageVersion(c)
	return v
}

// StoredVersionsOf returns status.storedVersions of c's live CRD as the row gives them (the versions c
// has, and its storage version, as crd.WithStoredVersions reads them), nil when the row gives none.
func (r Row) StoredVersionsOf(c *apiextv1.CustomResourceDefinition) []string {
	if r.Stored == "" {
		return nil
	}
	var list []string
	for _, v := range r.StoredVersions() {
		if hasVersion(c, v) {
			list = append(list, v)
		}
	}
	if sv := storageVersion(c); sv != "" && !slices.Contains(list, sv) {
		list = append(list, sv)
	}
	return list
}

// OLMVerdict is what the real OLM controllers did with a row, as OLM-VERDICTS.json keeps it: the
// verdicts of columns olm-v0 and olm-v1 and the controllers' messages.
type OLMVerdict struct {
	ID    string `json:"id"`
	OLMv0 string `json:"olm-v0"`
	// OLMv0Message is the failed InstallPlan's (or CSV's) message.
	OLMv0Message string `json:"olm-v0-message,omitempty"`
	OLMv1        string `json:"olm-v1"`
	// OLMv1Message is the ClusterExtension's Progressing message while it retried.
	OLMv1Message string `json:"olm-v1-message,omitempty"`
	// OLMv1Old and OLMv1OldMessage are the same of OLM v1 v1.2.0 (column olm-v1.2).
	OLMv1Old        string `json:"olm-v1.2,omitempty"`
	OLMv1OldMessage string `json:"olm-v1.2-message,omitempty"`
	// ObjectsRefused lists the row's existing objects the API server refused under OLD (they cannot
	// exist on a cluster), with its message.
	ObjectsRefused string `json:"objects-refused,omitempty"`
}

// verdictsFile keeps the OLM controllers' messages, one entry per row in CASES.tsv's order.
const verdictsFile = "OLM-VERDICTS.json"

// ReadOLMVerdicts returns OLM-VERDICTS.json's entries by row id (none when the file does not exist).
func ReadOLMVerdicts() (map[string]OLMVerdict, error) {
	data, err := os.ReadFile(filepath.Join(Dir(), verdictsFile))
	if errors.Is(err, fs.ErrNotExist) {
		return map[string]OLMVerdict{}, nil
	}
	if err != nil {
		return nil, err
	}
	var list []OLMVerdict
	if err := json.Unmarshal(data, &list); err != nil {
		return nil, fmt.Errorf("%s: %w", verdictsFile, err)
	}
	out := make(map[string]OLMVerdict, len(list))
	for _, v := range list {
		out[v.ID] = v
	}
	return out, nil
}

// RecordOLMVerdicts writes the verdicts into CASES.tsv (columns olm-v0 and olm-v1, or with old only
// column olm-v1.2) and OLM-VERDICTS.json; rows absent from got keep what they had.
func RecordOLMVerdicts(got map[string]OLMVerdict, old bool) error {
	kept, err := ReadOLMVerdicts()
	if err != nil {
		return err
	}
	var out []OLMVerdict
	err = Rewrite(func(r *Row) {
		v, had := kept[r.ID]
		g, ok := got[r.ID]
		switch {
		case ok && old:
			v.ID, v.OLMv1Old, v.OLMv1OldMessage = g.ID, g.OLMv1, g.OLMv1Message
			r.OLMv1Old = v.OLMv1Old
		case ok:
			g.OLMv1Old, g.OLMv1OldMessage = v.OLMv1Old, v.OLMv1OldMessage
			v = g
			r.OLMv0, r.OLMv1 = v.OLMv0, v.OLMv1
		case !had:
			return
		}
		out = append(out, v)
	})
	if err != nil {
		return err
	}
	var data bytes.Buffer
	enc := json.NewEncoder(&data)
	enc.SetEscapeHTML(false) // the messages quote Go types and arrows as they are
	enc.SetIndent("", "  ")
	if err := enc.Encode(out); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(Dir(), verdictsFile), data.Bytes(), 0o644)
}
