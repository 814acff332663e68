package capture

import (
	"bytes"
	"testing"

	"github.com/sieve-dev/sieve/internal/blob"
)

// TestHTMLSourceInBlobs: with a blob store, a web page's served bytes (the
// bytes source_fingerprint covers, before transcoding) are kept under the
// fingerprint, as a PDF's are, so that the evidence bundle can carry them.
func TestHTMLSourceInBlobs(t *testing.T) {
	latin1 := []byte("<html><head><meta charset=\"iso-8859-1\"><title>Caf\xe9</title></head><body><p>Caf\xe9 cr\xe8me</p></body></html>")
	dir := t.TempDir()
	o := testOptions()
	o.Browser.Blobs = dir
	rec := captureURL(t, newCapturer(t, o), servePDF(t, latin1, "text/html; charset=iso-8859-1"))
	if rec.SourceFingerprint != blob.Key(latin1) {
		t.Fatalf("source_fingerprint %s, want the served bytes' %s", rec.SourceFingerprint, blob.Key(latin1))
	}
	store, err := blob.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	got, err := store.Get(rec.SourceFingerprint)
	if err != nil || !bytes.Equal(got, latin1) {
		t.Errorf("blob %s: %q, %v; want the served bytes", rec.SourceFingerprint, got, err)
	}
}
