package adopt

// initTemplate is the opack.yaml opack init writes for one bundle; every line it leaves commented
// out shows a default.
const initTemplate = `# opack.yaml: what opack build and opack check do for this operator.
# Reference: docs/migrating.md. Paths are relative to this file.
apiVersion: opack.dev/v1alpha1
kind: Project
{{ template "bundle" . }}
# previous:        # the release the CRD upgrade check compares against
#   version: 1.2.3 # default: the highest version below this one in the catalog's channels
outputs:
  dir: _output     # images (OCI layouts)
  deploy: {{ .DeployDir }}   # OLM manifests: {{ .DeployDir }}/olmv0, {{ .DeployDir }}/olmv1
deploy:
  olm: {{ .OLM }}        # v0, v1 or both
  olmv0:
{{- with .Namespace }}
    namespace: {{ quote . }}
{{- end }}
    createNamespace: true    # emit the Namespace (false: it is managed elsewhere)
    # minOLMVersion: v0.26.0 # the oldest OLM v0 of your clusters
    # targetNamespaces: []   # empty: the operator watches all namespaces
    approval: Automatic
    catalogSource:
      namespace: olm         # openshift-marketplace on OpenShift
      pollInterval: 10m
  olmv1:
    extension:
{{- with .Namespace }}
      namespace: {{ quote . }}
{{- end }}
      upgradeConstraintPolicy: CatalogProvided
    createNamespace: true
    catalog:
      pollIntervalMinutes: 10
    # minOLMVersion: v1.6.0  # the oldest operator-controller of your clusters: v1.6.0+ installs webhooks;
    #                        # unset or below v1.4.0, what v1.0-v1.3's CRD upgrade preflight refuses fails too
    # serviceAccount:        # operator-controller v1.0.0 to v1.10 require one (optional from v1.11.0):
    #   name: {{ .Package }}-installer   # RBAC derived from the bundle's CSV (not cluster-admin)
# waivers:             # accept a reviewed finding
# - rule: <rule id>
#   crd: widgets.example.com
#   path: spec.size
#   reason: why it is safe
# migrations:          # storedVersions of a CRD were migrated off a version
# - crd: widgets.example.com
#   version: v1alpha1
`

// bundleTemplate is the part of opack.yaml that describes one bundle.
const bundleTemplate = `{{ define "bundle" -}}
package: {{ quote .Package }}
{{- if .Version }}
# The release being built; opack build --version overrides it and saves the new version here.
version: {{ quote .Version }}
{{- else }}
# The release being built: the highest v<semver> git tag on HEAD; opack build --version overrides it.
versionFrom:
  gitTag:
    prefix: v
{{- end }}
{{- with .Channels }}
channels:
{{- range . }}
- {{ quote . }}
{{- end }}
{{- else }}
# channels: [alpha]
{{- end }}
{{- with .DefaultChannel }}
defaultChannel: {{ quote . }}
{{- end }}
kustomizeDir: {{ quote .KustomizeDir }}
{{- with .KustomizeManifests }}
# operator-sdk generate kustomize manifests, as the Makefile runs it (in memory; config/ is not edited).
kustomizeManifests:
{{- if .Skip }}
  skip: true
{{- end }}
{{- with .APIsDir }}
  apisDir: {{ quote . }}
{{- end }}
{{- with .InputDir }}
  inputDir: {{ quote . }}
{{- end }}
{{- with .OutputDir }}
  outputDir: {{ quote . }}
{{- end }}
{{- end }}
bundle:
  dir: {{ quote .BundleDir }}
  # Tagged v<version>; a template such as repo:{{"{{"}}.Version{{"}}"}} works too.
  image: {{ quote .BundleImage }}
{{- with .ExtraServiceAccounts }}
  # Service accounts besides the deployments' whose roles go into the CSV.
  extraServiceAccounts:
{{- range . }}
  - {{ quote . }}
{{- end }}
{{- end }}
catalogs:
{{- range .Catalogs }}
- name: {{ quote .Name }}
{{- if eq .Mode "fbc" }}
  # {{ .Found }}. An existing file-based catalog, kept as it is: build adds each
  # release to it (its olm.bundle and a new head of each channel) and changes nothing else.
  mode: fbc
  dir: {{ quote .Dir }}
{{- with .BundleFile }}
  bundleFile: {{ quote . }}   # where a new release's olm.bundle goes, in dir
{{- end }}
{{- else }}
{{- with .Found }}
  # {{ . }}.
{{- end }}
  # The catalog template the bundle is added to, and the rendered file-based catalog.
  template: {{ quote .Template }}
{{- if .File }}
  file: {{ quote .File }}
{{- else }}
  dir: {{ quote .Dir }}
{{- end }}
{{- end }}
  image: {{ quote .Image }}
  # scratch: the image holds the catalog and opm's serve cache; OLM v0 (v0.26.0+) serves them with
  # its own opm (extractContent), OLM v1 unpacks the catalog. An opm image serves itself (any OLM).
  base: scratch
  serveCache: true   # false: a smaller image, slower starts; scratch then needs deploy.olmv0.minOLMVersion: v0.35.0
{{- end }}
{{- with .Images }}
# Image overrides applied to the kustomize input, from the Makefile's kustomize edit set image.
images:
{{- range . }}
- name: {{ quote .Name }}
{{- with .Dir }}
  dir: {{ quote . }}   # the kustomization make bundle edits
{{- end }}
{{- with .NewName }}
  newName: {{ quote . }}
{{- end }}
{{- with .NewTag }}
  newTag: {{ quote . }}
{{- end }}
{{- with .Digest }}
  digest: {{ quote . }}
{{- end }}
{{- end }}
{{- end }}
{{- end }}`

// partsTemplate is the opack.yaml opack init writes for a Makefile that builds several bundles.
const partsTemplate = `# opack.yaml: what opack build and opack check do for this operator.
# Reference: docs/migrating.md. Paths are relative to this file.
apiVersion: opack.dev/v1alpha1
kind: Project
# {{ len .Parts }} bundles, as the Makefile builds them ({{ .From }}): built, checked and released
# together. Each entry holds the fields of one bundle (over the top-level ones); its outputs go to
# _output/<name>, deploy/<name> unless it sets them.
bundles:
{{- range .Parts }}
- name: {{ quote .Name }}
{{ indent (include "bundle" .) }}
  deploy:
    olm: {{ .OLM }}
{{- with .Namespace }}
    olmv0:
      namespace: {{ quote . }}
    olmv1:
      extension:
        namespace: {{ quote . }}
{{- end }}
{{- end }}
`
