package capture

import (
	"mime"
	"strings"
	"testing"
)

// The shortcut for common extensions gives what the mime package gives.
func TestCommonTypesAsMime(t *testing.T) {
	for ext, want := range commonTypes {
		for _, e := range []string{ext, strings.ToUpper(ext)} {
			mt, _, err := mime.ParseMediaType(mime.TypeByExtension(e))
			if err != nil || mt != want {
				t.Errorf("%s: mime gives %q (%v), the shortcut %q", e, mt, err, want)
			}
			if got := fileContentType("/x/page" + e); got != want {
				t.Errorf("fileContentType(page%s) = %q, want %q", e, got, want)
			}
		}
	}
}
