package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/google/go-containerregistry/pkg/v1/remote/transport"
	"github.com/opack/opack/internal/image"
	"github.com/opack/opack/internal/sign"
	"github.com/spf13/cobra"
)

// newImageCmd returns `opack image` with its subcommands (assembled in root.go).
func newImageCmd(subcommands ...*cobra.Command) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "image",
		Short: "Build, push and inspect bundle and catalog images without a container daemon",
		Args:  cobra.NoArgs,
	}
	cmd.AddCommand(subcommands...)
	return cmd
}

// registryFlags are shared by every command that talks to a registry.
type registryFlags struct {
	insecure bool
	timeout  time.Duration
	verbose  bool
	verify   bool
}

func (f *registryFlags) addFlags(cmd *cobra.Command) {
	cmd.Flags().BoolVar(&f.insecure, "insecure", false, "allow plain HTTP and unverified TLS for any registry (loopback registries never need it)")
	cmd.Flags().DurationVar(&f.timeout, "timeout", 10*time.Minute, "give up (including retries) after this long; 0 means never")
	cmd.Flags().BoolVarP(&f.verbose, "verbose", "v", false, "log progress and retries to stderr")
}

// addPushFlags adds the flags of commands that push.
func (f *registryFlags) addPushFlags(cmd *cobra.Command) {
	f.addFlags(cmd)
	cmd.Flags().BoolVar(&f.verify, "verify", false, "after a push, read the manifest and every blob back by digest before reporting it pushed")
}

func (f *registryFlags) options(stderr io.Writer) []image.Option {
	opts := []image.Option{image.WithInsecure(f.insecure), image.WithVerify(f.verify)}
	if f.verbose {
		opts = append(opts, image.WithLogger(stderr))
	}
	return opts
}

// registryHint adds what to do to an authentication failure.
func registryHint(err error) error {
	var terr *transport.Error
	if errors.As(err, &terr) && (terr.StatusCode == http.StatusUnauthorized || terr.StatusCode == http.StatusForbidden) {
		return fmt.Errorf("%w\nhint: opack reads credentials from the docker config ($DOCKER_CONFIG/config.json or ~/.docker/config.json) and its credential helpers; log in with `docker login`, `podman login` or `skopeo login`", err)
	}
	return err
}

// withTimeout bounds ctx by d; d <= 0 means no limit.
func withTimeout(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	if d <= 0 {
		return context.WithCancel(ctx)
	}
	return context.WithTimeout(ctx, d)
}

// publishFlags choose where a built image goes and what it carries.
type publishFlags struct {
	registryFlags
	signFlags
	tag       string
	ociLayout string
	tarball   string
	labels    []string
	format    string
	version   string
	source    string
	revision  string
}

func (f *publishFlags) addFlags(cmd *cobra.Command) {
	f.registryFlags.addPushFlags(cmd)
	f.signFlags.addFlags(cmd)
	fl := cmd.Flags()
	fl.StringVarP(&f.tag, "tag", "t", "", "image reference to push to (REGISTRY/REPO:TAG); with --oci-layout its tag names the image in the layout and the whole reference is recorded for catalog render")
	fl.StringVar(&f.ociLayout, "oci-layout", "", "write an OCI image layout to this directory instead of pushing")
	fl.StringVar(&f.tarball, "tarball", "", "write a docker-save tarball to this file instead of pushing")
	fl.StringArrayVar(&f.labels, "label", nil, "extra config label key=value (repeatable)")
	fl.StringVar(&f.format, "format", "", "media types of a scratch image: oci (default) or docker")
	fl.StringVar(&f.version, "version", "", "org.opencontainers.image.version annotation (bundles default to the CSV version)")
	fl.StringVar(&f.source, "source", "", "org.opencontainers.image.source annotation (source repository URL)")
	fl.StringVar(&f.revision, "revision", "", "org.opencontainers.image.revision annotation (e.g. the git commit)")
	cmd.MarkFlagsMutuallyExclusive("oci-layout", "tarball")
}

// publisher validates the flags and returns the publisher and build options they ask for.
func (f *publishFlags) publisher(stderr io.Writer) (image.Publisher, []image.Option, error) {
	opts, err := f.buildOptions()
	if err != nil {
		return nil, nil, err
	}
	opts = append(opts, f.registryFlags.options(stderr)...)
	switch {
	case f.ociLayout != "":
		p, err := image.NewLayoutPublisher(f.ociLayout, f.tag)
		return p, opts, err
	case f.tag == "":
		return nil, nil, fmt.Errorf("--tag is required (or write an OCI layout with --oci-layout)")
	case f.tarball != "":
		p, err := image.NewTarballPublisher(f.tarball, f.tag)
		return p, opts, err
	}
	p, err := image.NewRegistryPublisher(f.tag, opts...)
	return p, opts, err
}

func (f *publishFlags) buildOptions() ([]image.Option, error) {
	created, err := sourceDateEpoch(os.Getenv("SOURCE_DATE_EPOCH"))
	if err != nil {
		return nil, err
	}
	labels := map[string]string{}
	for _, l := range f.labels {
		k, v, ok := strings.Cut(l, "=")
		if !ok || k == "" {
			return nil, fmt.Errorf("--label %q: want key=value", l)
		}
		labels[k] = v
	}
	return []image.Option{
		image.WithCreated(created), image.WithLabels(labels), image.WithFormat(image.Format(f.format)),
		image.WithVersion(f.version), image.WithSource(f.source), image.WithRevision(f.revision),
	}, nil
}

// sourceDateEpoch parses SOURCE_DATE_EPOCH (https://reproducible-builds.org/specs/source-date-epoch/);
// unset means the Unix epoch.
func sourceDateEpoch(v string) (time.Time, error) {
	if v == "" {
		return time.Unix(0, 0).UTC(), nil
	}
	s, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return time.Time{}, fmt.Errorf("the environment variable SOURCE_DATE_EPOCH should be the number of seconds since January 1st 1970, 00:00 UTC, got: %w", err)
	}
	return time.Unix(s, 0).UTC(), nil
}

// signFlags sign what a command pushes.
type signFlags struct {
	sign        bool
	key         string
	passwordEnv string
}

func (f *signFlags) addFlags(cmd *cobra.Command) {
	cmd.Flags().BoolVar(&f.sign, "sign", false, "sign the pushed image (sigstore format, as cosign sign and skopeo --sign-by-sigstore-private-key; read back and verified before it is reported)")
	cmd.Flags().StringVar(&f.key, "key", "", "with --sign: the private key, a cosign key or a PEM key, as a file or env://VAR (default: the key in $OPACK_SIGNING_KEY)")
	cmd.Flags().StringVar(&f.passwordEnv, "key-password-env", sign.DefaultPasswordEnv, "with --sign: the environment variable holding the password of a cosign key")
}

// signer loads the signing key when --sign is set (before anything is built or pushed).
func (f *signFlags) signer(pf *publishFlags) (sign.Signer, error) {
	if !f.sign {
		return nil, nil
	}
	if pf.ociLayout != "" || pf.tarball != "" {
		return nil, errors.New("--sign signs images pushed to a registry: drop --oci-layout or --tarball")
	}
	if f.key == "" && os.Getenv("OPACK_SIGNING_KEY") != "" {
		f.key = "env://OPACK_SIGNING_KEY"
	}
	if f.key == "" {
		return nil, errors.New("--sign needs a key: --key cosign.key, --key env://VAR or $OPACK_SIGNING_KEY")
	}
	return sign.LoadPrivateKey(f.key, sign.PasswordFromEnv(f.passwordEnv))
}

// signPushed signs ref (REPO@sha256:..., pushed as tag) with s, when s is set, and says so on w.
func signPushed(ctx context.Context, w io.Writer, s sign.Signer, ref, tag string, opts []image.Option) error {
	if s == nil {
		return nil
	}
	signed, err := sign.Sign(ctx, s, sign.Request{Image: ref, Identity: tag}, opts...)
	if err != nil {
		return registryHint(err)
	}
	fmt.Fprintf(w, "signed %s as %s with %s (%s)\n", signed.Image, signed.Identity, signed.Key, signed.Signature)
	if signed.SignatureReferrer != "" {
		fmt.Fprintf(w, "signature referrer %s\n", signed.SignatureReferrer)
	}
	return nil
}
