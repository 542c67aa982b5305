package config

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

const header = "apiVersion: opack.dev/v1alpha1\nkind: Project\n"

// minimal is the smallest valid project file.
const minimal = header + `package: memcached-operator
bundle:
  image: quay.io/example/memcached-operator-bundle
catalogs:
- image: quay.io/example/memcached-operator-catalog:latest
`

func TestDecodeErrors(t *testing.T) {
	tests := []struct {
		name string
		yaml string
		want []string // each problem, as FieldError.Error() prints it
	}{
		{"empty", "", []string{"opack.yaml: the file is empty: start it with apiVersion: opack.dev/v1alpha1 and kind: Project"}},
		{"not a mapping", "- a\n- b\n", []string{"opack.yaml:1: the document must be a mapping (apiVersion, kind, package, ...)"}},
		{"syntax", header + "package: a: b\n", []string{"opack.yaml:3: mapping values are not allowed in this context"}},
		{"no header", "package: x\n", []string{"opack.yaml: apiVersion: missing: add apiVersion: opack.dev/v1alpha1", "opack.yaml: kind: missing: add kind: Project"}},
		{"newer version", "apiVersion: opack.dev/v1\nkind: Project\n", []string{`opack.yaml:1: apiVersion: unsupported apiVersion "opack.dev/v1": this opack reads opack.dev/v1alpha1 (upgrade opack to read newer project files)`}},
		{"other kind", "apiVersion: opack.dev/v1alpha1\nkind: Catalog\n", []string{`opack.yaml:2: kind: unsupported kind "Catalog": must be Project`}},
		{"unknown top-level field", minimal + "chanels: [alpha]\n", []string{`opack.yaml:8: unknown field "chanels" in the top level (check its spelling and indentation)`}},
		{"unknown nested field", strings.Replace(minimal, "  image: quay.io/example/memcached-operator-bundle\n", "  image: quay.io/example/memcached-operator-bundle\n  tag: v1\n", 1),
			[]string{`opack.yaml:6: unknown field "tag" in bundle (check its spelling and indentation)`}},
		{"unknown deep field", minimal + "deploy:\n  olmv0:\n    catalogSource:\n      grpcPodConfig:\n        extract: true\n",
			[]string{`opack.yaml:12: unknown field "extract" in deploy.olmv0.catalogSource.grpcPodConfig (check its spelling and indentation)`}},
		{"wrong type", minimal + "channels: alpha\n", []string{"opack.yaml:8: str `alpha` is not a valid list"}},
		{"wrong scalar type", minimal + "deploy:\n  olmv1:\n    catalog:\n      pollIntervalMinutes: often\n", []string{"opack.yaml:11: str `often` is not a valid integer"}},
		{"two documents", minimal + "---\n" + minimal, []string{"opack.yaml:8: a second YAML document: opack.yaml holds exactly one"}},
		{"duplicate key", minimal + "package: again\n", []string{`opack.yaml:8: mapping key "package" already defined at line 3`}},
		{"missing required", header, []string{
			"opack.yaml: package: must be set: the OLM package name (operator-sdk's projectName)",
			"opack.yaml: bundle.image: must be set: the bundle image repository, e.g. quay.io/me/-bundle (tagged v<version>)",
			"opack.yaml: catalogs: list at least one catalog, e.g. - image: quay.io/me/-catalog:latest",
		}},
		{"bad values", header + `package: memcached-operator
version: v1.0.0
channels: [alpha, alpha]
defaultChannel: stable
bundle:
  image: quay.io/example/bundle:v1
catalogs:
- name: a
  image: quay.io/example/catalog:latest
- name: a
  image: "quay.io/example/Catalog"
  dir: ../elsewhere
  base: "not an image"
deploy:
  olm: v2
  olmv0:
    approval: Sometimes
    catalogSource:
      pollInterval: often
  olmv1:
    extension:
      upgradeConstraintPolicy: Always
waivers:
- rule: crd/field-removed
`, []string{
			`opack.yaml:4: version: version "v1.0.0": write it without the leading v (1.0.0)`,
			`opack.yaml:5: channels[1]: channel "alpha" is listed twice`,
			`opack.yaml:6: defaultChannel: "stable" is not one of channels [alpha alpha]`,
			`opack.yaml:8: bundle.image: "quay.io/example/bundle:v1" has a tag or digest: give the repository (it is tagged v<version>) or a template such as quay.io/example/bundle:{{.Version}}`,
			`opack.yaml:12: catalogs[1].name: catalog "a" is listed twice`,
			`opack.yaml:13: catalogs[1].image: "quay.io/example/Catalog" is not an image reference: could not parse reference: quay.io/example/Catalog`,
			`opack.yaml:14: catalogs[1].dir: "../elsewhere" must be a relative path inside the project`,
			`opack.yaml:15: catalogs[1].base: must be scratch or an image holding opm: could not parse reference: not an image`,
			`opack.yaml:17: deploy.olm: unknown OLM target "v2": use v0, v1 or both`,
			`opack.yaml:19: deploy.olmv0.approval: "Sometimes" is not one of Automatic, Manual`,
			`opack.yaml:21: deploy.olmv0.catalogSource.pollInterval: "often" is not a positive duration such as 10m or 1h (0 disables polling)`,
			`opack.yaml:24: deploy.olmv1.extension.upgradeConstraintPolicy: "Always" is not one of CatalogProvided, SelfCertified`,
			`opack.yaml:26: waivers[0].reason: must be set: say why the finding was reviewed and accepted`,
		}},
		{"overlapping outputs", minimal + "outputs:\n  dir: bundle/images\n  deploy: .\n", []string{
			`opack.yaml:9: outputs.dir: "bundle/images" overlaps bundle.dir "bundle": outputs are replaced as a whole and must not nest`,
			`opack.yaml:10: outputs.deploy: must be a folder below the project, not the project itself`,
		}},
		// catalogs[0].dir: config would replace the whole kustomize tree with the catalog.
		{"outputs over inputs", strings.Replace(minimal, "catalog:latest\n", "catalog:latest\n  dir: config\n", 1) + "outputs:\n  dir: api/out\n  deploy: config/manifests/deploy\n", []string{
			`opack.yaml:8: catalogs[0].dir: "config" overlaps kustomizeDir "config/manifests": an output is replaced as a whole and must not hold, or lie inside, an input; choose a folder of its own`,
			`opack.yaml:10: outputs.dir: "api/out" overlaps the project's source "api": an output is replaced as a whole and must not hold, or lie inside, an input; choose a folder of its own`,
			`opack.yaml:11: outputs.deploy: "config/manifests/deploy" overlaps kustomizeDir "config/manifests": an output is replaced as a whole and must not hold, or lie inside, an input; choose a folder of its own`,
		}},
		{"service account", minimal + "deploy:\n  olmv1:\n    serviceAccount:\n      name: installer\n      rules:\n      - resources: [pods]\n", []string{
			"opack.yaml:13: deploy.olmv1.serviceAccount.rules[0].verbs: list at least one verb",
		}},
		{"service account without name", minimal + "deploy:\n  olmv1:\n    serviceAccount:\n      clusterRole: x\n", []string{
			"opack.yaml:10: deploy.olmv1.serviceAccount.name: must be set",
		}},
		{"version and versionFrom", minimal + "version: 1.0.0\nversionFrom:\n  file: VERSION\n", []string{"opack.yaml:9: versionFrom: set either version or versionFrom, not both"}},
		{"several catalogs need names", strings.Replace(minimal, "catalogs:\n", "catalogs:\n- image: quay.io/example/other:latest\n", 1), []string{
			"opack.yaml:7: catalogs[0].name: must be set when there are several catalogs",
			"opack.yaml:8: catalogs[1].name: must be set when there are several catalogs",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Decode([]byte(tt.yaml), "opack.yaml")
			var ce *ConfigError
			if !errors.As(err, &ce) {
				t.Fatalf("error %v (%T) is not a *ConfigError", err, err)
			}
			var got []string
			for _, fe := range ce.Errs {
				got = append(got, fe.Error())
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
		})
	}
}

func TestDefaults(t *testing.T) {
	p, err := Decode([]byte(minimal), "opack.yaml")
	if err != nil {
		t.Fatal(err)
	}
	ten, yes := 10, true
	want := &Project{
		APIVersion: APIVersion, Kind: Kind, Package: "memcached-operator", File: "opack.yaml",
		Channels: []string{"alpha"}, DefaultChannel: "alpha", KustomizeDir: "config/manifests",
		KustomizeManifests: KustomizeManifests{APIsDir: "api", InputDir: "config/manifests", OutputDir: "config/manifests"},
		Bundle:             Bundle{Dir: "bundle", Image: "quay.io/example/memcached-operator-bundle", Dockerfile: "bundle.Dockerfile"},
		Catalogs: []Catalog{{Name: "memcached-operator-catalog", Template: "catalog-template.yaml", Dir: "catalog",
			Image: "quay.io/example/memcached-operator-catalog:latest", Mode: "template", Base: "scratch"}},
		Outputs: Outputs{Dir: "_output", Deploy: "deploy"},
		Deploy: Deploy{
			OLM: "both", Catalog: "memcached-operator-catalog",
			OLMv0: OLMv0{Namespace: "memcached-operator-system", OperatorGroup: "memcached-operator", Subscription: "memcached-operator",
				Channel: "alpha", Approval: "Automatic",
				CatalogSource: CatalogSource{Name: "memcached-operator-catalog", Namespace: "olm", PollInterval: "10m",
					GRPCPodConfig: GRPCPodConfig{SecurityContextConfig: "restricted"}}},
			OLMv1: OLMv1{
				Catalog:   ClusterCatalog{Name: "memcached-operator-catalog", PollIntervalMinutes: &ten},
				Extension: ClusterExtension{Name: "memcached-operator", Namespace: "memcached-operator-system", UpgradeConstraintPolicy: "CatalogProvided", SelectCatalog: &yes},
			},
		},
	}
	if diff := cmp.Diff(want, p, cmpopts.IgnoreUnexported(Project{})); diff != "" {
		t.Errorf("defaults (-want +got):\n%s", diff)
	}
}

func TestDefaultsSeveralCatalogs(t *testing.T) {
	y := strings.Replace(minimal, "catalogs:\n- image: quay.io/example/memcached-operator-catalog:latest\n",
		"catalogs:\n- name: v4-17\n  image: quay.io/example/c:v4.17\n  base: registry.redhat.io/openshift4/ose-operator-registry-rhel9:v4.17\n- name: v4-18\n  image: quay.io/example/c:v4.18\n", 1)
	y += "deploy:\n  catalog: v4-18\n  olmv1:\n    serviceAccount:\n      name: installer\n      rules:\n      - apiGroups: ['']\n        resources: [pods]\n        verbs: [get]\n"
	p, err := Decode([]byte(y), "opack.yaml")
	if err != nil {
		t.Fatal(err)
	}
	want := []Catalog{
		{Name: "v4-17", Template: "catalog-templates/v4-17.yaml", Dir: "catalogs/v4-17", Image: "quay.io/example/c:v4.17", Mode: "template", Base: "registry.redhat.io/openshift4/ose-operator-registry-rhel9:v4.17"},
		{Name: "v4-18", Template: "catalog-templates/v4-18.yaml", Dir: "catalogs/v4-18", Image: "quay.io/example/c:v4.18", Mode: "template", Base: "scratch"},
	}
	if diff := cmp.Diff(want, p.Catalogs); diff != "" {
		t.Errorf("catalogs (-want +got):\n%s", diff)
	}
	if p.Deploy.OLMv0.CatalogSource.Name != "v4-18" || p.Deploy.OLMv1.Catalog.Name != "v4-18" {
		t.Errorf("deploy catalog names = %q, %q; want v4-18", p.Deploy.OLMv0.CatalogSource.Name, p.Deploy.OLMv1.Catalog.Name)
	}
	if got := p.Deploy.OLMv1.ServiceAccount.ClusterRole; got != "installer-installer" {
		t.Errorf("service account cluster role = %q", got)
	}
}

func TestLoadSetsDir(t *testing.T) {
	dir := t.TempDir()
	path := dir + "/opack.yaml"
	if err := writeFile(path, minimal); err != nil {
		t.Fatal(err)
	}
	p, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if p.Dir != dir || p.File != path {
		t.Errorf("Dir, File = %q, %q", p.Dir, p.File)
	}
	if _, err := Load(dir + "/missing.yaml"); err == nil || !strings.Contains(err.Error(), "no project file: looked for") {
		t.Errorf("missing file: %v", err)
	}
}
