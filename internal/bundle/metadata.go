package bundle

import (
	"bufio"
	"bytes"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"sigs.k8s.io/yaml"
)

// Bundle label keys (operator-registry, operator-sdk metrics and scorecard).
const (
	LabelMediaType      = "operators.operatorframework.io.bundle.mediatype.v1"
	LabelManifests      = "operators.operatorframework.io.bundle.manifests.v1"
	LabelMetadata       = "operators.operatorframework.io.bundle.metadata.v1"
	LabelPackage        = "operators.operatorframework.io.bundle.package.v1"
	LabelChannels       = "operators.operatorframework.io.bundle.channels.v1"
	LabelDefaultChannel = "operators.operatorframework.io.bundle.channel.default.v1"
	LabelMetricsBuilder = "operators.operatorframework.io.metrics.builder"
	LabelMetricsMedia   = "operators.operatorframework.io.metrics.mediatype.v1"
	LabelMetricsLayout  = "operators.operatorframework.io.metrics.project_layout"
	LabelTestMediaType  = "operators.operatorframework.io.test.mediatype.v1"
	LabelTestConfig     = "operators.operatorframework.io.test.config.v1"
)

// label is one key=value pair in template order.
type label struct{ key, value string }

// metadataInput holds what annotations.yaml and the Dockerfile are made of.
type metadataInput struct {
	pkg, channels, defaultChannel, builder, layout string
	scorecard                                      bool
	copyRoot                                       string // bundle folder relative to the Dockerfile's folder, slash-separated
	extra                                          []label
}

func (m metadataInput) core() []label {
	ls := []label{
		{LabelMediaType, "registry+v1"}, {LabelManifests, "manifests/"}, {LabelMetadata, "metadata/"},
		{LabelPackage, m.pkg}, {LabelChannels, m.channels},
	}
	if m.defaultChannel != "" {
		ls = append(ls, label{LabelDefaultChannel, m.defaultChannel})
	}
	return append(ls, label{LabelMetricsBuilder, m.builder}, label{LabelMetricsMedia, "metrics+v1"}, label{LabelMetricsLayout, m.layout})
}

func (m metadataInput) testing() []label {
	return []label{{LabelTestMediaType, "scorecard+v1"}, {LabelTestConfig, "tests/scorecard/"}}
}

// generatedKeys are the label keys opack owns; any other key found on disk is the user's.
func (m metadataInput) generatedKeys() map[string]bool {
	keys := map[string]bool{LabelDefaultChannel: true, LabelTestMediaType: true, LabelTestConfig: true}
	for _, l := range m.core() {
		keys[l.key] = true
	}
	return keys
}

// renderAnnotations renders metadata/annotations.yaml with operator-sdk's template, then the user's labels.
func renderAnnotations(m metadataInput) []byte {
	var b bytes.Buffer
	b.WriteString("annotations:\n")
	heads := [3]string{"  # Core bundle annotations.\n", "\n  # Annotations for testing.\n", "\n  # Other annotations.\n"}
	m.writeLabels(&b, heads, "  %s: %s\n", yamlScalar)
	return b.Bytes()
}

// writeLabels writes the core, testing (with scorecard) and other labels as operator-sdk's
// templates do: each group after its head, each label formatted with line (key, value); extra
// formats the values of the user's labels.
func (m metadataInput) writeLabels(b *bytes.Buffer, heads [3]string, line string, extra func(string) string) {
	same := func(v string) string { return v }
	groups := []struct {
		labels []label
		value  func(string) string
	}{{m.core(), same}, {nil, same}, {m.extra, extra}}
	if m.scorecard {
		groups[1].labels = m.testing()
	}
	for i, g := range groups {
		if i > 0 && len(g.labels) == 0 {
			continue
		}
		b.WriteString(heads[i])
		for _, l := range g.labels {
			fmt.Fprintf(b, line, l.key, g.value(l.value))
		}
	}
}

// renderDockerfile renders the bundle Dockerfile with operator-sdk's template, the user's labels
// before the COPY block.
func renderDockerfile(m metadataInput) []byte {
	var b bytes.Buffer
	b.WriteString("FROM scratch\n\n")
	m.writeLabels(&b, [3]string{"# Core bundle labels.\n", "\n# Labels for testing.\n", "\n# Other labels.\n"}, "LABEL %s=%s\n", dockerValue)
	root := m.copyRoot
	b.WriteString("\n# Copy files to locations specified by labels.\n")
	fmt.Fprintf(&b, "COPY %s /manifests/\n", root+"/manifests")
	fmt.Fprintf(&b, "COPY %s /metadata/\n", root+"/metadata")
	if m.scorecard {
		fmt.Fprintf(&b, "COPY %s /tests/scorecard/\n", root+"/tests/scorecard")
	}
	return b.Bytes()
}

// yamlScalar renders a value as a YAML scalar, quoted when needed.
func yamlScalar(v string) string {
	out, err := yaml.Marshal(v)
	if err != nil {
		return strconv.Quote(v)
	}
	return strings.TrimSuffix(string(out), "\n")
}

// dockerValue quotes a LABEL value that holds spaces or quotes.
func dockerValue(v string) string {
	if v == "" || strings.ContainsAny(v, " \t\"'\\$") {
		return strconv.Quote(v)
	}
	return v
}

// userLabels collects labels found in an existing annotations.yaml and Dockerfile whose keys opack
// does not generate, sorted by key (annotations.yaml wins on a conflict).
func userLabels(annotations map[string]string, dockerfile []byte, owned map[string]bool) []label {
	found := map[string]string{}
	for k, v := range dockerfileLabels(dockerfile) {
		found[k] = v
	}
	for k, v := range annotations {
		found[k] = v
	}
	var out []label
	for k, v := range found {
		if !owned[k] {
			out = append(out, label{k, v})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].key < out[j].key })
	return out
}

// dockerfileLabels reads `LABEL key=value` lines (one pair per line, as operator-sdk writes them).
func dockerfileLabels(data []byte) map[string]string {
	out := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		rest, ok := strings.CutPrefix(line, "LABEL ")
		if !ok {
			continue
		}
		k, v, ok := strings.Cut(strings.TrimSpace(rest), "=")
		if !ok {
			continue
		}
		if uq, err := strconv.Unquote(v); err == nil {
			v = uq
		}
		out[k] = v
	}
	return out
}

// parseAnnotations reads the annotations map of an annotations.yaml document.
func parseAnnotations(data []byte) (map[string]string, error) {
	var doc struct {
		Annotations map[string]string `json:"annotations"`
	}
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, err
	}
	return doc.Annotations, nil
}
