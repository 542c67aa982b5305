package crd

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	apiextv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/opack/opack/internal/crd/load"
)

// TestSeverityDecisionsOnRealPairs checks each severity decision of docs/crd-rules.md on the real CRD
// pair it was made for (testdata/real-pairs/README.md names where each pair comes from).
func TestSeverityDecisionsOnRealPairs(t *testing.T) {
	// semantic is what the change does to existing objects and clients; severity is what a standalone
	// command prints: at least a warning where OLM v1 refuses (every schema rule but enum-value-added).
	type want struct {
		rule               Rule
		semantic, severity Severity
	}
	info, warn, err := SeverityInfo, SeverityWarning, SeverityError
	for _, tc := range []struct {
		dir  string
		path string // the schema node the decision is about
		want []want
	}{
		{"map-type-flip", "^.status.controlledDaemonSet", []want{{RuleMapTypeChanged, info, warn}}},
		{"reference-name-default", "^.spec.driver.common.envs[*].valueFrom.secretKeyRef.name", []want{{RuleDefaultAdded, info, warn}}},
		{"reference-name-default", "^.spec.driver.common.vaultAddress", []want{{RuleFieldRemoved, err, err}}},
		{"status-removed-subresource", "^.status.restartRequired", []want{{RuleFieldRemoved, warn, warn}}},
		{"default-documented", "^.spec.accessStyle", []want{{RuleDefaultAdded, info, warn}, {RuleNullableRemoved, err, err}}},
		{"default-documented", "^.spec.host", []want{{RuleNullableRemoved, err, err}, {RuleRequiredAdded, err, err}}},
		{"required-with-default", "^.spec.skipTLSVerify", []want{{RuleDefaultAdded, warn, warn}, {RuleRequiredAdded, warn, warn}}},
		{"pattern-class-widened", "^.spec.version", []want{{RulePatternChanged, info, warn}}},
		{"core-volume-defaults", "^.spec.actorExecutor.additionalVolumes[*].azureDisk.fsType", []want{{RuleDefaultAdded, info, warn}}},
		{"core-volume-defaults", "^.spec.actorExecutor.additionalVolumes[*].rbd.keyring", []want{{RuleDefaultAdded, info, warn}}},
		{"core-volume-defaults", "^.spec.actorExecutor.additionalVolumes[*].iscsi.iscsiInterface", []want{{RuleDefaultAdded, info, warn}}},
		{"pvc-claims-removed", "^.spec.servers.podOverrides.spec.volumes[*].ephemeral.volumeClaimTemplate.spec.resources.claims", []want{{RuleFieldRemoved, info, warn}}},
		{"pvc-claims-by-structure", "^.spec.volume_claim_template.spec.resources.claims", []want{{RuleFieldRemoved, info, warn}}},
		{"dra-claim-source", "^.spec.app.podTemplateSpec.spec.resourceClaims[*].source", []want{{RuleFieldRemoved, info, warn}}},
		{"dra-claim-source", "^.spec.ui.podTemplateSpec.spec.resourceClaims[*].source", []want{{RuleFieldRemoved, info, warn}}},
		{"reference-name-default-removed", "^.spec.daemon.env[*].valueFrom.secretKeyRef.name", []want{{RuleDefaultRemoved, info, warn}}},
		{"reference-name-default-removed", "^.spec.daemon.envFrom[*].configMapRef.name", []want{{RuleDefaultRemoved, info, warn}}},
		{"reference-name-default-removed", "^.spec.daemon.resources.claims", []want{{RuleFieldRemoved, err, err}}},
		{"default-documented-dotted", "^.spec.multiSourceConfig.clusterGroupChartVersion", []want{{RuleDefaultRemoved, info, warn}}},
		{"default-documented-dotted", "^.spec.multiSourceConfig.helmRepoUrl", []want{{RuleDefaultRemoved, info, warn}}},
	} {
		t.Run(tc.dir+" "+tc.path, func(t *testing.T) {
			old, new := loadPair(t, tc.dir)
			var got []want
			for _, f := range Compare(old.CRDs, new.CRDs, WithAPIServerValidation(false)) {
				if f.Path == tc.path {
					got = append(got, want{f.Rule, f.Semantic, f.Severity})
					if err := agree(f, nil); err != nil {
						t.Error(err)
					}
				}
			}
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(want{})); diff != "" {
				t.Errorf("findings at %s (-want +got):\n%s", tc.path, diff)
			}
		})
	}
}

func loadPair(t *testing.T, dir string) (old, new *load.Set) {
	t.Helper()
	load := func(side string) *load.Set {
		matches, _ := filepath.Glob(filepath.Join("testdata", "real-pairs", dir, side+".*"))
		if len(matches) != 1 {
			t.Fatalf("want one %s file in %s, found %v", side, dir, matches)
		}
		s, err := load.CRDs(context.Background(), matches[0])
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	return load("old"), load("new")
}

// TestStatusRemovalWithoutSubresource: without the status subresource, status is written with the object
// (by anyone, as spec is), so removing a status field loses data like a spec field: an error.
func TestStatusRemovalWithoutSubresource(t *testing.T) {
	status := func(props ...string) func(*apiextv1.CustomResourceDefinition) {
		return func(c *apiextv1.CustomResourceDefinition) {
			s := schemaOf("object")
			s.Properties = map[string]apiextv1.JSONSchemaProps{}
			for _, p := range props {
				s.Properties[p] = schemaOf("string")
			}
			c.Spec.Versions[0].Schema.OpenAPIV3Schema.Properties["status"] = s
		}
	}
	sub := func(c *apiextv1.CustomResourceDefinition) {
		c.Spec.Versions[0].Subresources = &apiextv1.CustomResourceSubresources{Status: &apiextv1.CustomResourceSubresourceStatus{}}
	}
	spec := specWith("size", schemaOf("integer"))
	for _, tc := range []struct {
		name     string
		old, new *apiextv1.CustomResourceDefinition
		want     Severity
	}{
		{"with status subresource", testCRD(spec, status("phase", "message"), sub), testCRD(spec, status("phase"), sub), SeverityWarning},
		{"without status subresource", testCRD(spec, status("phase", "message")), testCRD(spec, status("phase")), SeverityError},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs := Compare([]*apiextv1.CustomResourceDefinition{tc.old}, []*apiextv1.CustomResourceDefinition{tc.new}, WithAPIServerValidation(false))
			var got []string
			for _, f := range fs {
				got = append(got, string(f.Rule)+" "+f.Path+" "+f.Severity.String())
			}
			want := []string{string(RuleFieldRemoved) + " ^.status.message " + tc.want.String()}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestDescribesDefault(t *testing.T) {
	for _, tc := range []struct {
		desc, raw string
		want      bool
	}{
		{"Which access style to use. Defaults to virtual hosted-style as most of the data products out there.", `"VirtualHosted"`, true},
		{"fsType to mount. Default is ext4.", `"ext4"`, true},
		{"Replicas. Defaults to 10.", `1`, false},
		{"Replicas of the controller.", `2`, false},
		{"The pool. Defaults to rbd. More info: https://example.com/default-pool", `"rbd"`, true},
		{"Mode. The default is described elsewhere. Use fast for speed.", `"fast"`, false},
		{"", `""`, false},
		// Values with dots, slashes, colons and stars: the sentence does not end inside them.
		{"Chart repository. Defaults to https://charts.example.io/.", `"https://charts.example.io/"`, true},
		{"Chart repository.\nDefaults to https://charts.example.io/ when unset.", `"https://charts.example.io/"`, true},
		{"Chart repository. Defaults to https://charts.example.io/stable.", `"https://charts.example.io/"`, false},
		{"Version of the operand. Defaults to 1.2.3.", `"1.2.3"`, true},
		{"Version of the operand. Defaults to v1.2.3.", `"1.2.3"`, false},
		{"Version of the operand. Defaults to 0.8.1.", `"8.1"`, false},
		{"Versions to accept. Defaults to \"0.8.*\".", `"0.8.*"`, true},
		{"Versions to accept, \"0.8.*\" by default.", `"0.8.*"`, true},
		{"Versions to accept. Defaults to `0.8.*`; set it to pin a release.", `"0.8.*"`, true},
		{"Versions to accept. Defaults to 0.8.* (the latest patch).", `"0.8.*"`, true},
		{"Versions to accept. Defaults to 0.8.x.", `"0.8.*"`, false},
		{"Address to bind. Defaults to 0.0.0.0.", `"0.0.0.0"`, true},
		{"Address to bind. Defaults to '127.0.0.1'.", `"127.0.0.1"`, true},
		{"Address to bind. Defaults to 10.0.0.1.", `"0.0.1"`, false},
		{"Cluster domain. Defaults to cluster.local.", `"cluster.local"`, true},
		{"Ratio of the window. The default is 0.5.", `0.5`, true},
		{"Ratio of the window. The default is 0.55.", `0.5`, false},
		{"Whether to verify. Defaults to true.", `true`, true},
		// Documented in another sentence than the one about the default: not documented.
		{"Chart repository, e.g. https://charts.example.io/. Defaults to the operator's own.", `"https://charts.example.io/"`, false},
		{"Use 0.8.* for the latest patch. The default is set by the controller.", `"0.8.*"`, false},
		{"The address is 0.0.0.0.\nIt has a default.", `"0.0.0.0"`, false},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			if got := describesDefault(tc.desc, []byte(tc.raw)); got != tc.want {
				t.Errorf("describesDefault(%q, %s) = %v, want %v", tc.desc, tc.raw, got, tc.want)
			}
		})
	}
}

// TestRuleTableDocumented: docs/crd-rules.md lists every rule with its default severity and actor: the
// rule's own, or, for a schema rule, olm-v1 where its preflight refuses the change and clients otherwise.
func TestRuleTableDocumented(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "crd-rules.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range Rules() {
		actor := string(ActorOf(r))
		if _, static := actors[r]; !static {
			actor = "olm-v1 or clients"
		}
		row := fmt.Sprintf("| `%s` | %s | %s |", r, DefaultSeverity(r), actor)
		if !strings.Contains(string(doc), row) {
			t.Errorf("docs/crd-rules.md lacks the row %q", row)
		}
	}
}

func TestPatternWidened(t *testing.T) {
	host := `^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`
	for _, tc := range []struct {
		old, new string
		want     bool
	}{
		{host, strings.TrimSuffix(host, "$") + `(:\d+)?$`, true}, // appian-operator 0.171.0 -> 0.184.0, kafka.mirrorMakerListeners
		{"^a$", "^a(b)?$", true},
		{"^a$", "^a(b)$", false},
		{"^a$", "^a(b)|(c)?$", false},
		{"^a$", "^ab(c)?$", false},
		{`^a\$`, `^a\(b)?$`, false},
		{"^a", "^a(b)?$", false},
	} {
		t.Run(tc.new, func(t *testing.T) {
			if got := patternWidened(tc.old, tc.new); got != tc.want {
				t.Errorf("patternWidened(%q, %q) = %v, want %v", tc.old, tc.new, got, tc.want)
			}
		})
	}
}

// TestDefaultRemovedDocumented: a default removed while the new description still documents that very
// value is info, the mirror of default-added the old description documented. The pair is
// testdata/real-pairs/default-documented rolled back (stackable commons-operator v24.11.1 -> v24.7.0,
// s3connections.s3.stackable.tech spec.accessStyle: default "VirtualHosted", "Defaults to virtual
// hosted-style ..."); without that sentence, or with another value documented, it stays an error.
func TestDefaultRemovedDocumented(t *testing.T) {
	const path = "^.spec.accessStyle"
	setDescription := func(desc string) func(*apiextv1.JSONSchemaProps) {
		return func(p *apiextv1.JSONSchemaProps) { p.Description = desc }
	}
	for _, tc := range []struct {
		name     string
		edit     func(*apiextv1.JSONSchemaProps) // applied to NEW's accessStyle
		severity Severity
		message  string
	}{
		{"documented", nil, SeverityWarning, "default removed that the new description still documents; objects that omit the field keep the meaning the controller gives them"},
		{"not documented", setDescription("Which access style to use."), SeverityError, "default removed; objects that omit the field change meaning"},
		{"another value documented", setDescription("Which access style to use. Defaults to path-style."), SeverityError, "default removed; objects that omit the field change meaning"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			to, from := loadPair(t, "default-documented") // rolled back: the pair's new side is OLD here
			if tc.edit != nil {
				for _, v := range to.CRDs[0].Spec.Versions {
					spec := v.Schema.OpenAPIV3Schema.Properties["spec"]
					p := spec.Properties["accessStyle"]
					tc.edit(&p)
					spec.Properties["accessStyle"] = p
					v.Schema.OpenAPIV3Schema.Properties["spec"] = spec
				}
			}
			type got struct {
				Severity Severity
				Old, New string
				Message  string
			}
			var gots []got
			for _, f := range Compare(from.CRDs, to.CRDs, WithAPIServerValidation(false)) {
				if f.Path == path && f.Rule == RuleDefaultRemoved {
					gots = append(gots, got{f.Severity, f.Old, f.New, f.Message})
				}
			}
			want := []got{{tc.severity, `"VirtualHosted"`, "", tc.message}}
			if diff := cmp.Diff(want, gots); diff != "" {
				t.Errorf("default-removed findings at %s (-want +got):\n%s", path, diff)
			}
		})
	}
}

// TestDefaultMovedToDescription: a release that moves a default from the schema into the description
// (or back) keeps the meaning of objects that omit the field, whatever characters the value holds: a
// URL, a version, a version pattern, an IP address, quoted or not. The same value documented in another
// sentence than the one about the default, or another value documented, does not count.
func TestDefaultMovedToDescription(t *testing.T) {
	for _, tc := range []struct {
		name, raw, desc string
		documented      bool
	}{
		{"url", `"https://charts.example.io/"`, "Chart repository. Defaults to https://charts.example.io/.", true},
		{"quoted version pattern", `"0.8.*"`, `Versions to accept. Defaults to "0.8.*".`, true},
		{"unquoted version", `"1.25.3"`, "Version of the operand. Defaults to 1.25.3.", true},
		{"ip address", `"0.0.0.0"`, "Address to bind. Defaults to 0.0.0.0 (every interface).", true},
		{"number", `0.5`, "Share of the budget, 0.5 by default.", true},
		{"dotless value", `"VirtualHosted"`, "Access style. Defaults to VirtualHosted.", true},
		{"another sentence", `"https://charts.example.io/"`, "Chart repository, such as https://charts.example.io/.\nThe default is the operator's own.", false},
		{"another value", `"0.8.*"`, `Versions to accept. Defaults to "0.9.*".`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			withDefault := testCRD(specWith("field", schemaOf("string", func(p *apiextv1.JSONSchemaProps) {
				p.Default = raw(tc.raw)
			})))
			described := testCRD(specWith("field", schemaOf("string", func(p *apiextv1.JSONSchemaProps) { p.Description = tc.desc })))
			// Documented: the meaning is kept (info), but OLM v1 refuses any default added or removed,
			// so a standalone check warns, and never errs.
			semantic, want := SeverityError, SeverityError
			if tc.documented {
				semantic, want = SeverityInfo, SeverityWarning
			}
			for _, dir := range []struct {
				rule     Rule
				old, new *apiextv1.CustomResourceDefinition
			}{{RuleDefaultRemoved, withDefault, described}, {RuleDefaultAdded, described, withDefault}} {
				fs := Compare([]*apiextv1.CustomResourceDefinition{dir.old}, []*apiextv1.CustomResourceDefinition{dir.new}, WithAPIServerValidation(false))
				if len(fs) != 1 || fs[0].Rule != dir.rule || fs[0].Semantic != semantic || fs[0].Severity != want {
					t.Fatalf("%s: findings %v, want one %s %s (semantic %s)", dir.rule, fs, want, dir.rule, semantic)
				}
				if err := agree(fs[0], nil); err != nil {
					t.Error(err)
				}
			}
		})
	}
}
