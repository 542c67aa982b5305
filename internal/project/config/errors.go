package config

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// FieldError is one problem in opack.yaml, located by line and field path.
type FieldError struct {
	File  string
	Line  int    // 1-based; 0 when unknown (a field that is missing from the file)
	Field string // e.g. "catalogs[1].image"; empty for a problem with the document as a whole
	Msg   string
}

func (e *FieldError) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		b.WriteString(":" + strconv.Itoa(e.Line))
	}
	b.WriteString(": ")
	if e.Field != "" {
		b.WriteString(e.Field + ": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// ConfigError lists every problem found in opack.yaml, in file order.
type ConfigError struct {
	Errs []*FieldError
}

func (e *ConfigError) Error() string {
	msgs := make([]string, len(e.Errs))
	for i, fe := range e.Errs {
		msgs[i] = fe.Error()
	}
	return strings.Join(msgs, "\n")
}

// Unwrap exposes the individual problems to errors.As.
func (e *ConfigError) Unwrap() []error {
	out := make([]error, len(e.Errs))
	for i, fe := range e.Errs {
		out[i] = fe
	}
	return out
}

var (
	lineRE    = regexp.MustCompile(`^(?:yaml: )?line (\d+): (.*)$`)
	unknownRE = regexp.MustCompile(`^field (\S+) not found in type config\.(\w+)$`)
	intoRE    = regexp.MustCompile(`^cannot unmarshal (\S+) (.*) into (\S+)$`)
)

// sections names where in opack.yaml each Go type is used, for decode errors.
var sections = map[string]string{
	"Project": "the top level", "VersionFrom": "versionFrom", "GitTag": "versionFrom.gitTag",
	"Bundle": "bundle", "Catalog": "a catalogs entry", "Previous": "previous", "Outputs": "outputs",
	"Waiver": "a waivers entry", "Migration": "a migrations entry", "ImageAlias": "an images entry",
	"Deploy": "deploy", "OLMv0": "deploy.olmv0", "CatalogSource": "deploy.olmv0.catalogSource",
	"GRPCPodConfig": "deploy.olmv0.catalogSource.grpcPodConfig", "OLMv1": "deploy.olmv1",
	"ClusterCatalog": "deploy.olmv1.catalog", "ClusterExtension": "deploy.olmv1.extension",
	"ServiceAccount": "deploy.olmv1.serviceAccount", "PolicyRule": "a deploy.olmv1.serviceAccount.rules entry",
}

// decodeError turns one yaml.v3 message ("line 3: field x not found in type config.Bundle") into a
// FieldError with the line and a message in opack.yaml's own terms.
func decodeError(file, msg string) *FieldError {
	fe := &FieldError{File: file, Msg: msg}
	if m := lineRE.FindStringSubmatch(msg); m != nil {
		fe.Line, _ = strconv.Atoi(m[1])
		fe.Msg = m[2]
	}
	if m := unknownRE.FindStringSubmatch(fe.Msg); m != nil {
		where := sections[m[2]]
		if where == "" {
			where = m[2]
		}
		fe.Msg = fmt.Sprintf("unknown field %q in %s (check its spelling and indentation)", m[1], where)
	} else if m := intoRE.FindStringSubmatch(fe.Msg); m != nil {
		fe.Msg = fmt.Sprintf("%s %s is not a valid %s", strings.TrimPrefix(m[1], "!!"), m[2], goTypeName(m[3]))
	}
	return fe
}

func goTypeName(t string) string {
	switch {
	case strings.HasPrefix(t, "[]"):
		return "list"
	case strings.HasPrefix(t, "map["), strings.HasPrefix(t, "config."):
		return "mapping"
	case strings.HasPrefix(t, "int"):
		return "integer"
	case t == "bool":
		return "boolean (true or false)"
	}
	return t
}
