package project

import (
	"context"
	"crypto"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/google/go-containerregistry/pkg/name"

	"github.com/opack/opack/internal/attest"
	"github.com/opack/opack/internal/bundle"
	"github.com/opack/opack/internal/catalog/check"
	"github.com/opack/opack/internal/emit"
	"github.com/opack/opack/internal/fbc"
	"github.com/opack/opack/internal/finding"
	"github.com/opack/opack/internal/gitrepo"
	"github.com/opack/opack/internal/image"
	"github.com/opack/opack/internal/project/config"
	"github.com/opack/opack/internal/rootfs"
	"github.com/opack/opack/internal/sign"
	"github.com/opack/opack/internal/version"
)

// StepSignatures is the signature gate: every image installing the catalogs' channel heads makes a
// node pull is signed as the project's image policy requires (opack check, and build before it
// pushes).
const StepSignatures = "signatures"

// BuildSign makes a build that pushes sign its images with the key of opack.yaml's signing, or
// with key when it is not empty (--key).
func BuildSign(on bool, key string) BuildOption {
	return func(o *buildOptions) { o.sign, o.signKey = on, key }
}

// signingPlan is what opack.yaml's signing means for one bundle's run: the policy it emits and
// enforces, and the signer of a build that signs.
type signingPlan struct {
	entries []emit.PolicyEntry
	policy  *sign.Policy
	// key is the signing key being decrypted while the build runs (nil: this run does not sign);
	// signer is it once loaded and checked (loadSigner).
	key     chan keyResult
	keyFile string
	signer  sign.Signer
	mu      sync.Mutex // guards the statements, made once for every image signed at once
	// statements are the attestations of the release, made once its images are built.
	provenance []byte
	sbom       []byte
}

// resolveSigning reads opack.yaml's signing (nil when there is none) and, for a build that signs,
// loads the key: before anything is built, a missing key or password stops the build.
func (r *run) resolveSigning() error {
	s := r.p.Signing
	switch {
	case s == nil && r.o.sign:
		return stepErr(StepConfig, r.p.File, errors.New("--sign: opack.yaml has no signing section"), "add signing.publicKey (the public half of the signing key, e.g. cosign.pub) to "+r.p.File)
	case s == nil:
		return nil
	case r.o.sign && !r.o.push && !r.check:
		return stepErr(StepConfig, r.p.File, errors.New("--sign signs the images --push pushes"), "pass --push too")
	case r.o.push && !r.o.sign:
		return stepErr(StepConfig, r.p.File, errors.New("opack.yaml signs its releases (signing), and the deploy manifests' image policy requires the signatures: pushing unsigned images would make every cluster enforcing it refuse them"),
			"pass --sign (the key comes from --key, signing.key or $OPACK_SIGNING_KEY)")
	}
	entries, policy, err := imagePolicy(r.p, r.version)
	if err != nil {
		return stepErr(StepConfig, r.p.File, err, "fix signing in "+r.p.File)
	}
	r.signing = &signingPlan{entries: entries, policy: policy}
	if !r.o.sign || r.check {
		return nil
	}
	key := r.o.signKey
	if key == "" {
		key = s.Key
	}
	if key == "" {
		key = config.DefaultSigningKey
	}
	load, err := sign.PrepareKey(key, sign.PasswordFromEnv(s.PasswordEnv))
	if err != nil {
		return stepErr(StepConfig, r.p.File, err, "give the signing key with --key, signing.key or $OPACK_SIGNING_KEY (and its password in $"+passwordEnv(s)+")")
	}
	// Decrypting a cosign key is scrypt, a tenth of a second or more by design: it runs while the
	// build does, and push waits for it before pushing anything.
	r.signing.key, r.signing.keyFile = make(chan keyResult, 1), s.PublicKey
	go func() {
		signer, err := load()
		r.signing.key <- keyResult{signer, err}
	}()
	return nil
}

type keyResult struct {
	signer *sign.KeySigner
	err    error
}

// loadSigner waits for the signing key and checks it is the key of signing.publicKey, before the
// first push.
func (r *run) loadSigner() error {
	sp := r.signing
	if sp == nil || sp.key == nil || sp.signer != nil {
		return nil
	}
	k := <-sp.key
	sp.key = nil
	if k.err != nil {
		return stepErr(StepPush, r.p.File, k.err, "give the signing key with --key, signing.key or $OPACK_SIGNING_KEY (and its password in $"+passwordEnv(r.p.Signing)+")")
	}
	if !sameKey(k.signer.PublicKey(), sp.policy, sp.entries[0].Scopes[0]) {
		return stepErr(StepPush, r.p.File, fmt.Errorf("the signing key (%s) is not the key of signing.publicKey %s: a cluster enforcing the policy would refuse its signatures", k.signer, sp.keyFile), "sign with the key whose public half is "+sp.keyFile)
	}
	sp.signer = k.signer
	return nil
}

func passwordEnv(s *config.Signing) string {
	if s.PasswordEnv != "" {
		return s.PasswordEnv
	}
	return sign.DefaultPasswordEnv
}

// sameKey reports whether pub is the key the policy trusts for scope.
func sameKey(pub crypto.PublicKey, policy *sign.Policy, scope string) bool {
	want, err := sign.PublicKeyPEM(pub)
	if err != nil {
		return false
	}
	for _, req := range policy.Scopes[scope] {
		for _, k := range req.Keys {
			if kv, ok := k.(*sign.KeyVerifier); ok {
				if got, err := sign.PublicKeyPEM(kv.PublicKey()); err == nil && string(got) == string(want) {
					return true
				}
			}
		}
	}
	return false
}

// imagePolicy makes the policy entries of p's signing: the bundle and catalog repositories signed
// by signing.publicKey, then each trust entry; and the policy a node enforcing them applies
// (images of no scope are accepted, as a node's default keeps them).
func imagePolicy(p *config.Project, version string) ([]emit.PolicyEntry, *sign.Policy, error) {
	s := p.Signing
	own, err := ownRepositories(p, version)
	if err != nil {
		return nil, nil, err
	}
	pem, err := readPublicKey(p, s.PublicKey)
	if err != nil {
		return nil, nil, fmt.Errorf("signing.publicKey: %w", err)
	}
	entries := []emit.PolicyEntry{{Name: p.Package, Scopes: own, PublicKey: pem, MatchPolicy: emit.MatchRepoDigestOrExact}}
	for i, t := range s.Trust {
		pem, err := readPublicKey(p, t.PublicKey)
		if err != nil {
			return nil, nil, fmt.Errorf("signing.trust[%d].publicKey: %w", i, err)
		}
		match := emit.MatchRepoDigestOrExact
		if t.SignedIdentity == config.IdentityMatchRepository {
			match = emit.MatchRepository
		}
		entries = append(entries, emit.PolicyEntry{Name: fmt.Sprintf("%s-trust-%d", p.Package, i+1), Scopes: t.Scopes, PublicKey: pem, MatchPolicy: match})
	}
	policy := &sign.Policy{Default: []sign.Requirement{{Type: sign.ReqAcceptAnything}}, Scopes: map[string][]sign.Requirement{}, Source: "the image policy of " + p.File}
	for _, e := range entries {
		k, err := sign.ParsePublicKey([]byte(e.PublicKey))
		if err != nil {
			return nil, nil, err
		}
		v, err := sign.NewKeyVerifier(k)
		if err != nil {
			return nil, nil, err
		}
		id := sign.IdentityMatchRepoDigestOrExact
		if e.MatchPolicy == emit.MatchRepository {
			id = sign.IdentityMatchRepository
		}
		for _, sc := range e.Scopes {
			if _, dup := policy.Scopes[sc]; dup {
				return nil, nil, fmt.Errorf("scope %s is listed twice (signing.trust, or the bundle and catalog repositories): one key per scope", sc)
			}
			policy.Scopes[sc] = []sign.Requirement{{Type: sign.ReqSigstoreSigned, Keys: []sign.Verifier{v}, Identity: sign.Identity{Type: id}}}
		}
	}
	return entries, policy, nil
}

// ownRepositories are the repositories of the bundle and catalog images, each once, in order.
func ownRepositories(p *config.Project, version string) ([]string, error) {
	refs := []string{}
	b, err := p.BundleImage(version)
	if err != nil {
		return nil, err
	}
	refs = append(refs, b)
	for _, c := range p.Catalogs {
		ref, err := p.CatalogImage(c, version)
		if err != nil {
			return nil, err
		}
		refs = append(refs, ref)
	}
	var out []string
	for _, ref := range refs {
		named, err := sign.PolicyReference(ref)
		if err != nil {
			return nil, err
		}
		if repo := named.Name(); !slices.Contains(out, repo) {
			out = append(out, repo)
		}
	}
	return out, nil
}

// readPublicKey reads a public key file of the project (confined, bounded) and checks it.
func readPublicKey(p *config.Project, rel string) (string, error) {
	data, err := rootfs.ReadFile(p.Dir, rel)
	if err != nil {
		return "", err
	}
	k, err := sign.ParsePublicKey(data)
	if err != nil {
		return "", fmt.Errorf("%s: %w", rel, err)
	}
	pem, err := sign.PublicKeyPEM(k)
	return string(pem), err
}

// verifySignatures is the signature gate: the images installing each catalog's channel heads
// makes a node pull, checked against the project's image policy as a node would (read from their
// registries); the images this build pushes are signed when it pushes them. It runs in check and
// in a build that pushes, before anything is pushed.
func (r *run) verifySignatures(ctx context.Context) error {
	if r.signing == nil || (!r.check && !r.o.push) {
		return nil
	}
	pending := map[string]string{r.res.Bundle.Digest: "this release's bundle"}
	for _, c := range r.res.Catalogs {
		pending[c.Digest] = "this release's catalog"
	}
	puller := image.NewPuller(r.o.imageOpts...)
	// What the registry holds decides the result: a check that read it is never remembered as passing.
	r.o.remote.Store(true)
	seen := map[string]bool{}
	var fs []finding.Finding
	for i, dir := range r.catalogDirs {
		cfg, err := fbc.LoadDir(ctx, dir)
		if err != nil {
			return stepErr(StepSignatures, r.p.Catalogs[i].Rendered(), err, "")
		}
		imgs := check.NodeImages(cfg, "")
		for _, f := range check.VerifySignatures(ctx, puller, imgs, r.signing.policy, check.SignedAtPush(pending), check.SignatureFile(r.p.Catalogs[i].Source()), check.WarnNotCovered()) {
			if !seen[f.Message] {
				seen[f.Message] = true
				fs = append(fs, f)
			}
		}
	}
	return r.splitFindings(StepSignatures, fs, "image(s) a node enforcing the image policy would refuse",
		"sign each image with the key its scope trusts (signing.trust in "+r.p.File+"), and name it by digest")
}

// signRelease signs an image the build just pushed (REPO@DIGEST, pushed as tag) and attaches its
// attestations (the bundle: provenance and SBOM; a catalog: provenance), read back and verified.
func (r *run) signRelease(ctx context.Context, tag, ref string, isBundle bool, ready func() error) error {
	if r.signing == nil || r.signing.signer == nil {
		return nil
	}
	req := sign.Request{Image: ref, Identity: tag, Ready: ready}
	if r.p.Signing.Attests() {
		r.signing.mu.Lock()
		err := r.attestations(ctx)
		r.signing.mu.Unlock()
		if err != nil {
			return stepErr(StepPush, r.p.File, err, "")
		}
		req.Attestations = []sign.Statement{{PredicateType: attest.PredicateSLSAProvenance, Data: r.signing.provenance}}
		if isBundle {
			req.Attestations = append(req.Attestations, sign.Statement{PredicateType: attest.PredicateSPDX, Data: r.signing.sbom})
		}
	}
	signed, err := sign.Sign(ctx, r.signing.signer, req, r.o.imageOpts...)
	if err != nil {
		return stepErr(StepPush, r.p.File, err, "check that the registry accepts the signature tags (sha256-<digest>.sig, .att) with your credentials")
	}
	r.signing.mu.Lock()
	r.res.Signed = append(r.res.Signed, *signed)
	r.signing.mu.Unlock()
	r.o.logf("signed %s (%s)", ref, signed.Signature)
	return nil
}

// releaseSigner signs the images a push pushes while they are pushed (signing is a dozen requests
// in turn to the registry, mostly waiting).
type releaseSigner struct {
	r    *run
	ctx  context.Context
	wg   sync.WaitGroup
	mu   sync.Mutex
	errs []error
	refs []string // push order
}

func (r *run) newReleaseSigner(ctx context.Context) *releaseSigner {
	return &releaseSigner{r: r, ctx: ctx}
}

// sign starts signing an image being pushed; pushed says when its push ended and how.
func (rs *releaseSigner) sign(p pushedImage, pushed <-chan error) {
	if rs.r.signing == nil || rs.r.signing.signer == nil {
		return
	}
	isBundle := len(rs.refs) == 0
	rs.refs = append(rs.refs, p.ref)
	rs.wg.Add(1)
	go func() {
		defer rs.wg.Done()
		if err := rs.r.signRelease(rs.ctx, p.tag, p.ref, isBundle, func() error { return <-pushed }); err != nil {
			rs.mu.Lock()
			rs.errs = append(rs.errs, err)
			rs.mu.Unlock()
		}
	}()
}

// wait waits for every signature and reports them in push order.
func (rs *releaseSigner) wait() error {
	rs.wg.Wait()
	order := map[string]int{}
	for i, ref := range rs.refs {
		order[ref] = i
	}
	signed := rs.r.res.Signed
	sort.SliceStable(signed, func(i, j int) bool { return order[signed[i].Image] < order[signed[j].Image] })
	return errors.Join(rs.errs...)
}

// pushedImage is an image push pushed: its tag and its reference by digest.
type pushedImage struct{ tag, ref string }

// attestations makes the release's provenance and the bundle's SBOM, once.
func (r *run) attestations(ctx context.Context) error {
	if r.signing.provenance != nil {
		return nil
	}
	subjects := []attest.Subject{}
	for _, ref := range append([]string{r.res.Bundle.Digest}, catalogDigests(r.res.Catalogs)...) {
		s, err := attest.SubjectOf(ref)
		if err != nil {
			return err
		}
		subjects = append(subjects, s)
	}
	prov, err := r.provenance(subjects).Statement()
	if err != nil {
		return err
	}
	sbom, err := r.sbom(ctx, subjects[0])
	if err != nil {
		return err
	}
	if r.signing.sbom, err = sbom.Statement(); err != nil {
		return err
	}
	r.signing.provenance = prov
	return nil
}

func catalogDigests(cs []CatalogRef) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.Digest)
	}
	return out
}

func (r *run) provenance(subjects []attest.Subject) attest.Provenance {
	p := attest.Provenance{Subjects: subjects, OpackVersion: version.String(), Package: r.p.Package, Version: r.version,
		ProjectFile: filepath.Base(r.p.File), SourceDateEpoch: r.o.sourceDateEpoch}
	if data, err := os.ReadFile(r.p.File); err == nil {
		sum := sha256.Sum256(data)
		p.ProjectDigest = "sha256:" + hex.EncodeToString(sum[:])
	}
	p.Source = gitSource(r.p.Dir)
	for _, c := range r.p.Catalogs {
		if c.Base != "" && c.Base != config.BaseScratch {
			p.Inputs = append(p.Inputs, attest.Input{Name: "base of catalog " + c.Name, URI: c.Base})
		}
	}
	return p
}

// gitSource is the commit the project is checked out at and its origin, when it is a git
// checkout.
func gitSource(dir string) *attest.Source {
	repo, err := gitrepo.Open(dir)
	if err != nil {
		return nil
	}
	head, err := repo.Head()
	if err != nil {
		return nil
	}
	s := &attest.Source{Commit: head.Hash().String()}
	if remote, err := repo.Remote("origin"); err == nil && len(remote.Config().URLs) > 0 {
		s.Repository = redactURL(remote.Config().URLs[0])
	}
	return s
}

// redactURL drops credentials from a remote URL (https://user:token@host/...).
func redactURL(u string) string {
	scheme, rest, ok := strings.Cut(u, "://")
	if !ok {
		return u
	}
	if at := strings.LastIndex(rest, "@"); at >= 0 && at < strings.Index(rest+"/", "/") {
		rest = rest[at+1:]
	}
	return scheme + "://" + rest
}

// sbom describes the staged bundle: its files and the images its CSV references.
func (r *run) sbom(ctx context.Context, subject attest.Subject) (*attest.SBOM, error) {
	b, err := bundle.Load(ctx, r.bundleDir)
	if err != nil {
		return nil, err
	}
	created := time.Unix(0, 0)
	if t, err := parseEpoch(r.o.sourceDateEpoch); err == nil {
		created = t
	}
	s := &attest.SBOM{Subject: subject, Name: b.CSV.Name, Version: b.CSV.Spec.Version.String(), Created: created, OpackVersion: version.String()}
	for _, f := range b.Files {
		data, err := rootfs.ReadFile(r.bundleDir, f)
		if err != nil {
			return nil, err
		}
		sum := sha256.Sum256(data)
		s.Files = append(s.Files, attest.File{Path: f, SHA256: hex.EncodeToString(sum[:])})
	}
	uses := map[string][]string{}
	for _, ri := range b.CSV.Spec.RelatedImages {
		uses[ri.Image] = append(uses[ri.Image], fmt.Sprintf("relatedImage %q", ri.Name))
	}
	for _, d := range b.CSV.Spec.InstallStrategy.StrategySpec.DeploymentSpecs {
		for _, c := range append(d.Spec.Template.Spec.InitContainers, d.Spec.Template.Spec.Containers...) {
			uses[c.Image] = append(uses[c.Image], fmt.Sprintf("container %q of deployment %q", c.Name, d.Name))
		}
	}
	refs := make([]string, 0, len(uses))
	for ref := range uses {
		refs = append(refs, ref)
	}
	sort.Strings(refs)
	for _, ref := range refs {
		if _, err := name.ParseReference(ref); err != nil {
			continue // validate reported it
		}
		s.Images = append(s.Images, attest.Image{Ref: ref, Uses: uses[ref]})
	}
	return s, nil
}

func parseEpoch(s string) (time.Time, error) {
	var secs int64
	if _, err := fmt.Sscanf(s, "%d", &secs); err != nil || s == "" {
		return time.Time{}, errors.New("no SOURCE_DATE_EPOCH")
	}
	return time.Unix(secs, 0).UTC(), nil
}
