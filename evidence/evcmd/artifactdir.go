package evcmd

import (
	"os"
	"path/filepath"
)

// ArtifactDoc is the document of an artifact directory (what sieve distill
// prints as "dir"): its evidence/document.ethos.json, else its
// content.json. Any other path is returned as it is.
func ArtifactDoc(path string) string {
	if st, err := os.Stat(path); err != nil || !st.IsDir() {
		return path
	}
	for _, f := range []string{filepath.Join("evidence", "document.ethos.json"), "content.json"} {
		if _, err := os.Stat(filepath.Join(path, f)); err == nil {
			return filepath.Join(path, f)
		}
	}
	return path
}
