package emit

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"

	"github.com/opack/opack/internal/manifest"
	"github.com/opack/opack/internal/safetemplate"
	"github.com/opack/opack/internal/sign"
	"github.com/opack/opack/templates"
)

// Folders of the image policy, emitted when the project signs its images.
const (
	// DirPolicyOpenShift holds OpenShift's ClusterImagePolicy objects (config.openshift.io/v1).
	DirPolicyOpenShift = "imagepolicy-openshift"
	// DirPolicySigstore holds sigstore policy-controller's ClusterImagePolicy objects, for plain
	// Kubernetes.
	DirPolicySigstore = "imagepolicy-sigstore"
	// DirPolicyNodes holds a containers policy.json and a registries.d file for nodes configured by
	// hand (/etc/containers/).
	DirPolicyNodes = "imagepolicy-nodes"
)

// Signed-identity match policies, as OpenShift's ClusterImagePolicy spells them.
const (
	MatchRepoDigestOrExact = "MatchRepoDigestOrExact"
	MatchRepository        = "MatchRepository"
)

// ImagePolicy is what a cluster must enforce for the images of a release: one entry per key.
type ImagePolicy struct {
	Entries []PolicyEntry
}

// PolicyEntry is the images of Scopes (repositories, namespaces or registries, as
// containers-policy.json scopes) signed by PublicKey (PEM).
type PolicyEntry struct {
	// Name names the entry's objects (a DNS label): the package for the project's own images.
	Name        string
	Scopes      []string
	PublicKey   string
	MatchPolicy string // MatchRepoDigestOrExact (default) or MatchRepository
}

// policyView is what the image policy templates execute on: one entry, with the values each
// format needs.
type policyView struct {
	Package string
	PolicyEntry
	// Globs are policy-controller's image globs for the scopes (a scope and what is below it, by tag
	// or digest; docker.io as index.docker.io, as policy-controller names images).
	Globs []string
	// KeyData is PublicKey in base64 (OpenShift's keyData); KeyBlock is PublicKey without its
	// final newline (a YAML literal block adds it back).
	KeyData, KeyBlock string
	// Identity is the containers-policy.json signedIdentity type.
	Identity string
}

// policyDirs are the image policy folders, each rendered once per entry from its templates except
// the nodes' (one file for every entry).
var policyDirs = []string{DirPolicyOpenShift, DirPolicySigstore}

// renderImagePolicy renders the image policy folders of spec.ImagePolicy.
func renderImagePolicy(ctx context.Context, o options, spec Spec) ([]File, error) {
	ip := spec.ImagePolicy
	views := make([]policyView, 0, len(ip.Entries))
	for _, e := range ip.Entries {
		views = append(views, newPolicyView(spec.Package, e))
	}
	var out []File
	for _, dir := range policyDirs {
		var files []File
		for _, v := range views {
			f, err := renderPolicyFile(ctx, o, dir+"/clusterimagepolicy.yaml.tmpl", dir+"/"+v.Name+".yaml", v)
			if err != nil {
				return nil, err
			}
			files = append(files, *f)
		}
		out = append(out, append(files, kustomization(dir, files))...)
	}
	nodes, err := renderNodePolicy(o, spec.Package, views)
	if err != nil {
		return nil, err
	}
	return append(out, nodes...), nil
}

func newPolicyView(pkg string, e PolicyEntry) policyView {
	if e.MatchPolicy == "" {
		e.MatchPolicy = MatchRepoDigestOrExact
	}
	v := policyView{Package: pkg, PolicyEntry: e, KeyData: b64(e.PublicKey), KeyBlock: strings.TrimRight(e.PublicKey, "\n"), Identity: sign.IdentityMatchRepoDigestOrExact}
	if e.MatchPolicy == MatchRepository {
		v.Identity = sign.IdentityMatchRepository
	}
	for _, s := range e.Scopes {
		g := s
		if strings.HasPrefix(g, "docker.io/") {
			g = "index." + g
		}
		v.Globs = append(v.Globs, g+":*", g+"@*", g+"/**")
	}
	return v
}

// renderPolicyFile executes one object template on v and validates the object.
func renderPolicyFile(ctx context.Context, o options, tmpl, out string, v policyView) (*File, error) {
	data, err := execute(o, tmpl, v)
	if err != nil {
		return nil, err
	}
	docs, err := manifest.Decode(bytes.NewReader(data), out)
	if err != nil {
		return nil, fmt.Errorf("template %s rendered invalid YAML: %w", tmpl, err)
	}
	if len(docs) != 1 {
		return nil, fmt.Errorf("template %s rendered %d objects; it must render exactly one", tmpl, len(docs))
	}
	if err := validateObject(ctx, o.schemas, docs[0].Object); err != nil {
		return nil, fmt.Errorf("%s: %w", docs[0], err)
	}
	return &File{Path: out, Data: data, Object: docs[0].Object}, nil
}

// renderNodePolicy renders the nodes' policy.json (checked by reading it as opack verify --policy
// does) and registries.d file.
func renderNodePolicy(o options, pkg string, views []policyView) ([]File, error) {
	data := struct {
		Package string
		Entries []policyView
		Scopes  []string
	}{Package: pkg, Entries: views}
	for _, v := range views {
		data.Scopes = append(data.Scopes, v.Scopes...)
	}
	sort.Strings(data.Scopes)
	policy, err := execute(o, DirPolicyNodes+"/policy.json.tmpl", data)
	if err != nil {
		return nil, err
	}
	if _, err := sign.ParsePolicy(policy, DirPolicyNodes+"/policy.json"); err != nil {
		return nil, fmt.Errorf("template %s/policy.json.tmpl rendered a policy containers/image would refuse: %w", DirPolicyNodes, err)
	}
	regs, err := execute(o, DirPolicyNodes+"/registries.d.yaml.tmpl", data)
	if err != nil {
		return nil, err
	}
	if _, err := manifest.Decode(bytes.NewReader(regs), "registries.d.yaml"); err != nil {
		return nil, fmt.Errorf("template %s/registries.d.yaml.tmpl rendered invalid YAML: %w", DirPolicyNodes, err)
	}
	return []File{
		{Path: DirPolicyNodes + "/policy.json", Data: policy},
		{Path: DirPolicyNodes + "/" + pkg + ".yaml", Data: regs},
	}, nil
}

// execute runs the template name (from o's templates, else the built-in ones) on data, within the
// template budgets.
func execute(o options, name string, data any) ([]byte, error) {
	src, err := fs.ReadFile(o.templates, name)
	if err != nil {
		if src, err = fs.ReadFile(templates.FS, name); err != nil {
			return nil, err
		}
	}
	t, err := safetemplate.Parse(path.Base(name), string(src), funcs)
	if err != nil {
		return nil, fmt.Errorf("parsing template %s: %w", name, err)
	}
	var buf bytes.Buffer
	if err := t.Execute(&buf, data); err != nil {
		return nil, fmt.Errorf("executing template %s: %w", name, err)
	}
	return append(bytes.TrimSpace(buf.Bytes()), '\n'), nil
}
