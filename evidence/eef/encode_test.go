package eef

import (
	"bytes"
	"io"
	"slices"
	"testing"

	"github.com/sieve-dev/sieve/internal/c14n"
)

// The payload is canonicalized once, by Build, and its bytes are written
// into document.ethos.json: the file equals a fresh encoding of the whole
// document, and it is the cached bytes that land in it (issue 17).
func TestFilesCanonicalizesThePayloadOnce(t *testing.T) {
	for _, name := range []string{"article", "hidden"} {
		b, files := build(t, load(t, name))
		fresh, err := c14n.Marshal(b.Document)
		if err != nil {
			t.Fatal(err)
		}
		if got := files[FileDocument]; !bytes.Equal(got, append(fresh, '\n')) {
			t.Fatalf("%s: document.ethos.json differs from the document's canonical bytes", name)
		}
		if c14n.Fingerprint(b.payload) != b.Document.PayloadSHA256 {
			t.Fatalf("%s: cached payload bytes are not what payload_sha256 covers", name)
		}
		b.payload = []byte(`"cached"`)
		files, err = b.Files()
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(files[FileDocument], []byte(`"payload":"cached"`)) {
			t.Fatalf("%s: Files encoded the payload again instead of reusing Build's bytes", name)
		}
		// A document whose payload is no longer the one Build stamped is encoded afresh.
		d := *b.Document
		b.Document = &d
		files, _ = b.Files()
		if !bytes.Equal(files[FileDocument], append(fresh, '\n')) {
			t.Fatalf("%s: a replaced document was written with stale payload bytes", name)
		}
	}
}

// BuildLean writes the same files as Build, whether the payload's
// canonical bytes were kept or (past keepPayload) encoded again, and its
// document.ethos.json goes out in pieces, never whole.
func TestBuildLeanWritesBuildsFiles(t *testing.T) {
	defer func(k int) { keepPayload = k }(keepPayload)
	for _, name := range []string{"article", "hidden"} {
		rec := load(t, name)
		_, want := build(t, rec)
		for _, keep := range []int{8 << 20, 0} {
			keepPayload = keep
			b, err := BuildLean(rec, DefaultConfig())
			if err != nil {
				t.Fatal(err)
			}
			if b.Chunks != nil || (keep == 0) != (b.payload == nil) {
				t.Fatalf("%s keep %d: chunks %d, payload kept %v", name, keep, len(b.Chunks), b.payload != nil)
			}
			var order []string
			err = b.Write(func(n string, write func(io.Writer) error) error {
				var buf bytes.Buffer
				if err := write(&buf); err != nil {
					return err
				}
				if !bytes.Equal(buf.Bytes(), want[n]) {
					t.Errorf("%s keep %d: %s differs from Build's", name, keep, n)
				}
				order = append(order, n)
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(order, FileNames) || len(want) != len(FileNames) {
				t.Fatalf("%s: wrote %v, Build's files %d", name, order, len(want))
			}
		}
	}
}
