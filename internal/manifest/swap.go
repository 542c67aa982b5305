package manifest

import "os"

// swapRenames moves the old folder aside, then the new one in: two renames, with a short
// window in which dir is missing (the old version is then at tmp+".old").
func swapRenames(tmp, dir string) error {
	old := tmp + ".old"
	if err := os.Rename(dir, old); err != nil {
		return err
	}
	if err := os.Rename(tmp, dir); err != nil {
		_ = os.Rename(old, dir)
		return err
	}
	return os.Rename(old, tmp)
}
