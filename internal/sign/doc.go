// Package sign signs and verifies images in the sigstore format that containers/image (CRI-O,
// podman, skopeo) and cosign both verify: the simple-signing payload of the image's manifest
// digest and reference, signed with a key and attached as the sha256-<hex>.sig tag of its
// repository (use-sigstore-attachments), and, where the registry serves the OCI 1.1 referrers API,
// as a referrer too. Attestations (in-toto statements in DSSE envelopes) go to sha256-<hex>.att as
// cosign attest writes them.
//
// Keys are cosign's encrypted keys or PEM keys, from a file or an environment variable (never
// logged, never written anywhere). Signer is the seam for keyless signing (Fulcio, Rekor), which
// needs the network opack's signing does not assume.
//
// Verify checks an image against a Policy read from a containers policy.json (its docker scopes,
// sigstoreSigned with keys, every signedIdentity) or made of keys, as a node does: what a node
// refuses, Verify refuses for the same reason. Registry I/O goes through image.Puller and
// image.Attach; this package only signs and checks.
package sign
