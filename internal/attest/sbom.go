package attest

import (
	"fmt"
	"net/url"
	"path"
	"sort"
	"strings"
	"time"

	"github.com/google/go-containerregistry/pkg/name"
)

// SBOM describes a bundle image: the files it holds and the images installing it makes a cluster
// pull.
type SBOM struct {
	// Subject is the bundle image; Name and Version the bundle's (its CSV's).
	Subject       Subject
	Name, Version string
	// Created is the document's creation time: the build's SOURCE_DATE_EPOCH, else the epoch, so the
	// same bundle gives the same document.
	Created      time.Time
	OpackVersion string
	// Files are the bundle's files (manifests/..., metadata/...) with their SHA-256.
	Files []File
	// Images are the images the bundle references.
	Images []Image
}

// File is a file of the bundle.
type File struct{ Path, SHA256 string }

// Image is an image the bundle references: Ref as the bundle names it, and Uses saying where
// (relatedImages entry NAME, the container C of deployment D).
type Image struct {
	Ref  string
	Uses []string
}

type spdxDocument struct {
	SPDXVersion       string             `json:"spdxVersion"`
	DataLicense       string             `json:"dataLicense"`
	SPDXID            string             `json:"SPDXID"`
	Name              string             `json:"name"`
	DocumentNamespace string             `json:"documentNamespace"`
	CreationInfo      spdxCreationInfo   `json:"creationInfo"`
	DocumentDescribes []string           `json:"documentDescribes"`
	Packages          []spdxPackage      `json:"packages"`
	Files             []spdxFile         `json:"files,omitempty"`
	Relationships     []spdxRelationship `json:"relationships"`
}

type spdxCreationInfo struct {
	Created  string   `json:"created"`
	Creators []string `json:"creators"`
}

type spdxPackage struct {
	Name                  string            `json:"name"`
	SPDXID                string            `json:"SPDXID"`
	VersionInfo           string            `json:"versionInfo,omitempty"`
	DownloadLocation      string            `json:"downloadLocation"`
	FilesAnalyzed         bool              `json:"filesAnalyzed"`
	PrimaryPackagePurpose string            `json:"primaryPackagePurpose,omitempty"`
	Checksums             []spdxChecksum    `json:"checksums,omitempty"`
	ExternalRefs          []spdxExternalRef `json:"externalRefs,omitempty"`
	Comment               string            `json:"comment,omitempty"`
	LicenseConcluded      string            `json:"licenseConcluded"`
	LicenseDeclared       string            `json:"licenseDeclared"`
	CopyrightText         string            `json:"copyrightText"`
}

type spdxFile struct {
	FileName         string         `json:"fileName"`
	SPDXID           string         `json:"SPDXID"`
	Checksums        []spdxChecksum `json:"checksums"`
	LicenseConcluded string         `json:"licenseConcluded"`
	CopyrightText    string         `json:"copyrightText"`
}

type spdxChecksum struct {
	Algorithm     string `json:"algorithm"`
	ChecksumValue string `json:"checksumValue"`
}

type spdxExternalRef struct {
	ReferenceCategory string `json:"referenceCategory"`
	ReferenceType     string `json:"referenceType"`
	ReferenceLocator  string `json:"referenceLocator"`
}

type spdxRelationship struct {
	Element string `json:"spdxElementId"`
	Type    string `json:"relationshipType"`
	Related string `json:"relatedSpdxElement"`
}

const noAssertion = "NOASSERTION"

// Statement is the in-toto statement of the SBOM, an SPDX 2.3 document as its predicate.
func (s SBOM) Statement() ([]byte, error) {
	doc, err := s.document()
	if err != nil {
		return nil, err
	}
	return marshalStatement([]Subject{s.Subject}, PredicateSPDX, doc)
}

func (s SBOM) document() (*spdxDocument, error) {
	bundle, err := imagePackage("SPDXRef-Bundle", s.Subject.Repository+"@"+s.Subject.Digest)
	if err != nil {
		return nil, err
	}
	bundle.Name, bundle.VersionInfo = s.Name, s.Version
	bundle.Comment = "the bundle image " + s.Subject.Repository + "@" + s.Subject.Digest
	doc := &spdxDocument{
		SPDXVersion: "SPDX-2.3", DataLicense: "CC0-1.0", SPDXID: "SPDXRef-DOCUMENT",
		Name:              s.Name + " bundle",
		DocumentNamespace: "https://opack.dev/spdx/" + url.PathEscape(s.Subject.Repository) + "/" + s.Subject.Digest,
		CreationInfo:      spdxCreationInfo{Created: s.Created.UTC().Format(time.RFC3339), Creators: []string{"Tool: opack-" + s.OpackVersion}},
		DocumentDescribes: []string{bundle.SPDXID},
		Packages:          []spdxPackage{*bundle},
	}
	files := append([]File(nil), s.Files...)
	sort.Slice(files, func(i, j int) bool { return files[i].Path < files[j].Path })
	for i, f := range files {
		id := fmt.Sprintf("SPDXRef-File-%d", i+1)
		doc.Files = append(doc.Files, spdxFile{FileName: "./" + path.Clean(f.Path), SPDXID: id,
			Checksums:        []spdxChecksum{{Algorithm: "SHA256", ChecksumValue: f.SHA256}},
			LicenseConcluded: noAssertion, CopyrightText: noAssertion})
		doc.Relationships = append(doc.Relationships, spdxRelationship{bundle.SPDXID, "CONTAINS", id})
	}
	images := append([]Image(nil), s.Images...)
	sort.Slice(images, func(i, j int) bool { return images[i].Ref < images[j].Ref })
	for i, im := range images {
		p, err := imagePackage(fmt.Sprintf("SPDXRef-Image-%d", i+1), im.Ref)
		if err != nil {
			return nil, err
		}
		p.Comment = strings.Join(im.Uses, "; ")
		doc.Packages = append(doc.Packages, *p)
		doc.Relationships = append(doc.Relationships, spdxRelationship{bundle.SPDXID, "DEPENDS_ON", p.SPDXID})
	}
	doc.Relationships = append([]spdxRelationship{{"SPDXRef-DOCUMENT", "DESCRIBES", bundle.SPDXID}}, doc.Relationships...)
	return doc, nil
}

// imagePackage is the SPDX package of an image reference: its purl (pkg:oci) and, when it is
// named by digest, its SHA-256; a tag is kept as the version (the SBOM cannot say what it points
// at).
func imagePackage(id, ref string) (*spdxPackage, error) {
	r, err := name.ParseReference(ref)
	if err != nil {
		return nil, fmt.Errorf("SBOM: image %q: %w", ref, err)
	}
	repo := r.Context()
	p := &spdxPackage{Name: repo.Name(), SPDXID: id, DownloadLocation: noAssertion, PrimaryPackagePurpose: "CONTAINER",
		LicenseConcluded: noAssertion, LicenseDeclared: noAssertion, CopyrightText: noAssertion}
	last := path.Base(repo.RepositoryStr())
	q := url.Values{"repository_url": {repo.Name()}}
	version := r.Identifier()
	if d, ok := r.(name.Digest); ok {
		alg, hex, _ := strings.Cut(d.DigestStr(), ":")
		p.Checksums = []spdxChecksum{{Algorithm: strings.ToUpper(alg), ChecksumValue: hex}}
		p.VersionInfo = d.DigestStr()
	} else {
		q.Set("tag", version)
		p.VersionInfo = version
		version = ""
	}
	purl := "pkg:oci/" + url.PathEscape(strings.ToLower(last))
	if version != "" {
		purl += "@" + strings.ReplaceAll(url.PathEscape(version), ":", "%3A")
	}
	p.ExternalRefs = []spdxExternalRef{{ReferenceCategory: "PACKAGE-MANAGER", ReferenceType: "purl", ReferenceLocator: purl + "?" + q.Encode()}}
	return p, nil
}
