package attest

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

var (
	bundleDigest = "sha256:" + strings.Repeat("a", 64)
	opDigest     = "sha256:" + strings.Repeat("b", 64)
)

func TestSBOM(t *testing.T) {
	s := SBOM{
		Subject: Subject{Repository: "quay.io/example/op-bundle", Digest: bundleDigest},
		Name:    "op.v0.0.1", Version: "0.0.1", Created: time.Unix(0, 0), OpackVersion: "v1.0.0",
		Files: []File{{Path: "metadata/annotations.yaml", SHA256: "11"}, {Path: "manifests/op.clusterserviceversion.yaml", SHA256: "22"}},
		Images: []Image{
			{Ref: "quay.io/example/op@" + opDigest, Uses: []string{"relatedImages manager", "deployment op-controller-manager container manager"}},
			{Ref: "quay.io/example/sidecar:v1", Uses: []string{"relatedImages sidecar"}},
		},
	}
	data, err := s.Statement()
	if err != nil {
		t.Fatal(err)
	}
	again, _ := s.Statement()
	if string(data) != string(again) {
		t.Errorf("two statements of one SBOM differ")
	}
	var st struct {
		Type          string `json:"_type"`
		PredicateType string
		Subject       []struct {
			Name   string
			Digest map[string]string
		}
		Predicate struct {
			SPDXVersion  string
			CreationInfo struct{ Created string }
			Packages     []struct {
				SPDXID, Name, VersionInfo string
				Checksums                 []struct{ Algorithm, ChecksumValue string }
				ExternalRefs              []struct{ ReferenceLocator string }
			}
			Files         []struct{ FileName string }
			Relationships []struct{ SpdxElementID, RelationshipType, RelatedSpdxElement string }
		}
	}
	if err := json.Unmarshal(data, &st); err != nil {
		t.Fatal(err)
	}
	if st.Type != StatementType || st.PredicateType != PredicateSPDX || st.Subject[0].Digest["sha256"] != strings.Repeat("a", 64) {
		t.Errorf("statement header: %s", data)
	}
	p := st.Predicate
	if p.SPDXVersion != "SPDX-2.3" || p.CreationInfo.Created != "1970-01-01T00:00:00Z" {
		t.Errorf("document header: %+v", p)
	}
	var purls, files, rels []string
	for _, pk := range p.Packages {
		purls = append(purls, pk.ExternalRefs[0].ReferenceLocator)
	}
	for _, f := range p.Files {
		files = append(files, f.FileName)
	}
	for _, r := range p.Relationships {
		rels = append(rels, r.SpdxElementID+" "+r.RelationshipType+" "+r.RelatedSpdxElement)
	}
	want := []string{
		"pkg:oci/op-bundle@sha256%3A" + strings.Repeat("a", 64) + "?repository_url=quay.io%2Fexample%2Fop-bundle",
		"pkg:oci/op@sha256%3A" + strings.Repeat("b", 64) + "?repository_url=quay.io%2Fexample%2Fop",
		"pkg:oci/sidecar?repository_url=quay.io%2Fexample%2Fsidecar&tag=v1",
	}
	if diff := cmp.Diff(want, purls); diff != "" {
		t.Errorf("purls (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"./manifests/op.clusterserviceversion.yaml", "./metadata/annotations.yaml"}, files); diff != "" {
		t.Errorf("files (-want +got):\n%s", diff)
	}
	wantRels := []string{
		"SPDXRef-DOCUMENT DESCRIBES SPDXRef-Bundle",
		"SPDXRef-Bundle CONTAINS SPDXRef-File-1", "SPDXRef-Bundle CONTAINS SPDXRef-File-2",
		"SPDXRef-Bundle DEPENDS_ON SPDXRef-Image-1", "SPDXRef-Bundle DEPENDS_ON SPDXRef-Image-2",
	}
	if diff := cmp.Diff(wantRels, rels); diff != "" {
		t.Errorf("relationships (-want +got):\n%s", diff)
	}
}

func TestProvenance(t *testing.T) {
	p := Provenance{
		Subjects:     []Subject{{"quay.io/example/op-catalog", opDigest}, {"quay.io/example/op-bundle", bundleDigest}},
		OpackVersion: "v1.0.0", Package: "op", Version: "0.0.1", ProjectFile: "opack.yaml", ProjectDigest: "sha256:cc",
		Source: &Source{Repository: "https://github.com/example/op", Commit: "0123"},
		Inputs: []Input{{Name: "catalog base", URI: "quay.io/operator-framework/opm@sha256:dd", Digest: "sha256:dd"}},
	}
	data, err := p.Statement()
	if err != nil {
		t.Fatal(err)
	}
	want := `{"_type":"https://in-toto.io/Statement/v1","subject":[{"name":"quay.io/example/op-bundle","digest":{"sha256":"` + strings.Repeat("a", 64) + `"}},{"name":"quay.io/example/op-catalog","digest":{"sha256":"` + strings.Repeat("b", 64) + `"}}],"predicateType":"https://slsa.dev/provenance/v1","predicate":{"buildDefinition":{"buildType":"https://opack.dev/build/release/v1","externalParameters":{"package":"op","project":"opack.yaml","source":"https://github.com/example/op","version":"0.0.1"},"resolvedDependencies":[{"name":"source","uri":"git+https://github.com/example/op@0123","digest":{"gitCommit":"0123"}},{"name":"opack.yaml","digest":{"sha256":"cc"}},{"name":"catalog base","uri":"quay.io/operator-framework/opm@sha256:dd","digest":{"sha256":"dd"}}]},"runDetails":{"builder":{"id":"https://opack.dev/opack","version":{"opack":"v1.0.0"}}}}}`
	if diff := cmp.Diff(want, string(data)); diff != "" {
		t.Errorf("provenance (-want +got):\n%s", diff)
	}
}
