package crop

import (
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/sieve-dev/sieve/internal/c14n"
)

// Local is the file a document says it was read from: a PDF read from the
// local disk (sieve distill FILE, or a file:// URL) names it as a file://
// URL in both source.url and source.final_url (content.json and graph
// records: url and final_url), with its size. A web page's document names
// http(s) URLs, and capture never turns a URL found on the web into a
// local read (capture.ErrLocalTarget), so only a document of a local read
// names one.
type Local struct {
	Path  string
	Bytes int64 // the source's size as the document records it; -1 when it does not
}

// maxLocalRead caps what is read of a named file whose size the document
// does not record: the fingerprint check needs the bytes, and no PDF sieve
// reads is near this.
const maxLocalRead = 1 << 30

// localOf is the local source a document names, when it names one: both
// URLs file://, equal (a local read has no redirects), on this machine,
// with an absolute path. A document.ethos.json's source URLs are outside
// its fingerprint, but its pages' URLs (final_url#page=N) are inside:
// when they name another file, the source URL was edited, and refused
// says so.
func localOf(r gjson.Result) (l Local, ok bool, refused string) {
	raw, final := r.Get("source.url"), r.Get("source.final_url")
	size := r.Get("source.bytes")
	if !raw.Exists() {
		raw, final, size = r.Get("url"), r.Get("final_url"), r.Get("stats.original_bytes")
	}
	if raw.Type != gjson.String || final.Type != gjson.String || raw.Str != final.Str {
		return Local{}, false, ""
	}
	u, err := url.Parse(raw.Str)
	if err != nil || u.Scheme != "file" || (u.Host != "" && u.Host != "localhost") || u.Path == "" {
		return Local{}, false, ""
	}
	p := filepath.FromSlash(u.Path)
	if !filepath.IsAbs(p) {
		return Local{}, false, ""
	}
	l = Local{Path: filepath.Clean(p), Bytes: -1}
	if size.Type == gjson.Number && size.Int() >= 0 {
		l.Bytes = size.Int()
	}
	for _, pg := range r.Get("payload.pages.#.url").Array() {
		if from, _, _ := strings.Cut(pg.String(), "#"); from != final.Str {
			return l, true, "the document names a file (" + l.Path + ") its pages were not read from (" + from + "): not read"
		}
	}
	return l, true, ""
}

// readLocal reads the named source file when it can be the document's
// source, and says why not otherwise. A file is opened only when it is a
// regular file of the size the document records (a file of another size
// is not the source, so its bytes are never read); its bytes are used
// only when they hash to the source fingerprint, so whatever a document
// names, sieve renders nothing but the bytes the document was read from.
func readLocal(l Local, fp string) ([]byte, string) {
	st, err := os.Stat(l.Path)
	switch {
	case os.IsNotExist(err):
		return nil, "the file the document was read from (" + l.Path + ") is not found"
	case err != nil:
		return nil, fmt.Sprintf("the file the document was read from (%s) cannot be read: %v", l.Path, err)
	case !st.Mode().IsRegular():
		return nil, "the file the document names (" + l.Path + ") is not a regular file, so it is not the source"
	case l.Bytes >= 0 && st.Size() != l.Bytes:
		return nil, fmt.Sprintf("the source file changed since it was read: %s is %d bytes, the document's source was %d", l.Path, st.Size(), l.Bytes)
	case st.Size() > maxLocalRead:
		return nil, fmt.Sprintf("the file the document names (%s) is larger than %d bytes: not read", l.Path, maxLocalRead)
	}
	f, err := os.Open(l.Path)
	if err != nil {
		return nil, fmt.Sprintf("the file the document was read from (%s) cannot be read: %v", l.Path, err)
	}
	defer f.Close()
	if now, err := f.Stat(); err != nil || !os.SameFile(st, now) {
		return nil, "the source file changed since it was read: " + l.Path + " was replaced while it was opened"
	}
	b, err := io.ReadAll(io.LimitReader(f, maxLocalRead+1))
	if err != nil {
		return nil, fmt.Sprintf("the file the document was read from (%s) cannot be read: %v", l.Path, err)
	}
	if c14n.Fingerprint(b) != fp {
		return nil, "the source file changed since it was read: the bytes of " + l.Path + " do not hash to the document's source fingerprint"
	}
	return b, ""
}
