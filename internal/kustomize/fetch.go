package kustomize

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/opack/opack/internal/manifest"
)

// With --allow-remote opack fetches a kustomization's URLs itself (Go's HTTP client, the file
// size limit) and hands kustomize a local copy beside the kustomization, so that kustomize never
// falls back to cloning the URL with git when the content does not suit it.

// localize fetches the URLs of the kustomization file p and returns data with each URL replaced
// by the name of its copy, kept in s.fetched.
func (s *sandbox) localize(ctx context.Context, p string, data []byte, urls []string) ([]byte, error) {
	for _, u := range urls {
		sum := sha256.Sum256([]byte(u))
		name := ".opack-remote-" + hex.EncodeToString(sum[:6]) + filepath.Ext(strings.SplitN(u, "?", 2)[0])
		body, err := fetchURL(ctx, s.client, u)
		if err != nil {
			return nil, fmt.Errorf("%s: fetching %q: %w", display(p), u, err)
		}
		s.fetched[filepath.Join(filepath.Dir(p), name)] = body
		data = []byte(strings.ReplaceAll(string(data), u, name))
	}
	return data, nil
}

func fetchURL(ctx context.Context, c *http.Client, u string) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, err
	}
	resp, err := c.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("HTTP %s", strconv.Itoa(resp.StatusCode))
	}
	limit := manifest.DefaultLimits().MaxFileSize
	body, err := io.ReadAll(io.LimitReader(resp.Body, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(body)) > limit {
		return nil, &manifest.LimitError{File: u, What: "file size", Limit: limit}
	}
	return body, nil
}
