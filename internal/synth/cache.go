package synth

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// Version names the generator's output: bump it whenever a change makes Write produce other
// bytes, so that WriteCached never serves a catalog an older generator wrote.
const Version = 1

// completeMarker is written last into a cached catalog; a folder without it is rewritten.
const completeMarker = ".complete"

// WriteCached is Write into a folder of cacheDir named by cfg and Version, reusing it when an
// earlier call completed it. Benchmarks and hack/bench-process.sh share catalogs this way: 10,000
// bundles take minutes to write. The folder is written beside its final name and renamed into place.
func WriteCached(cacheDir string, cfg Config) (*Result, error) {
	cfg = cfg.Defaults()
	key, err := json.Marshal(cfg)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(key)
	root := filepath.Join(cacheDir, fmt.Sprintf("synth-%d-v%d-%s", cfg.Bundles, Version, hex.EncodeToString(sum[:4])))
	if _, err := os.Stat(filepath.Join(root, completeMarker)); err == nil {
		return Paths(root, cfg), nil
	}
	if err := os.MkdirAll(cacheDir, 0o755); err != nil {
		return nil, fmt.Errorf("creating the synthetic catalog cache: %w", err)
	}
	tmp, err := os.MkdirTemp(cacheDir, ".synth-tmp-")
	if err != nil {
		return nil, fmt.Errorf("creating the synthetic catalog cache: %w", err)
	}
	defer os.RemoveAll(tmp)
	if _, err := Write(tmp, cfg); err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(tmp, completeMarker), key, 0o644); err != nil {
		return nil, err
	}
	if err := os.Rename(tmp, root); err != nil {
		// root exists: complete (another process wrote it meanwhile: use it) or left incomplete
		// by an interrupted run (replace it).
		if _, serr := os.Stat(filepath.Join(root, completeMarker)); serr == nil {
			return Paths(root, cfg), nil
		}
		if err := os.RemoveAll(root); err != nil {
			return nil, err
		}
		if err := os.Rename(tmp, root); err != nil {
			return nil, fmt.Errorf("storing the synthetic catalog: %w", err)
		}
	}
	return Paths(root, cfg), nil
}
