package crop

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"image/png"
	"os"
	"path/filepath"
	"strings"

	"github.com/tidwall/gjson"

	"github.com/sieve-dev/sieve/evidence/eef"
	"github.com/sieve-dev/sieve/evidence/ground"
	"github.com/sieve-dev/sieve/internal/blob"
	"github.com/sieve-dev/sieve/internal/c14n"
	"github.com/sieve-dev/sieve/verify"
)

// Pixels sources a command can name.
type Sources struct {
	Blobs      string // the capture's blob store (--blobs): PDF bytes by source fingerprint, screenshots by key
	PDF        string // the source PDF file
	Screenshot string // the screenshot PNG file
	// Bundle is the directory of the document (an evidence bundle): its
	// source.pdf is the source PDF when neither PDF nor Blobs is given.
	Bundle string
}

// Shot is the screenshot a document names: its blob key and whether the
// page was taller than the shot.
type Shot struct {
	Key     string
	Clipped bool
}

// docFacts reads what a document says about its pixels: whether it is a
// PDF, and the screenshot of its render. It reads document.ethos.json
// (source.media_type, source.screenshot) and sieve's graph records and
// content.json (pdf, provenance.screenshot).
func docFacts(doc []byte) (isPDF bool, shot Shot) {
	doc = firstLine(doc)
	r := gjson.ParseBytes(doc)
	if mt := r.Get("source.media_type"); mt.Exists() {
		isPDF = mt.String() == "application/pdf"
	} else {
		isPDF = r.Get("pdf").IsObject()
	}
	for _, p := range []string{"source.screenshot", "provenance.screenshot"} {
		if s := r.Get(p); s.IsObject() {
			shot = Shot{Key: s.Get("key").String(), Clipped: s.Get("clipped").Bool()}
		}
	}
	return isPDF, shot
}

// firstLine is a JSONL file's first record (a graph record file holds one
// per line; crops are of one document).
func firstLine(b []byte) []byte {
	b = bytes.TrimSpace(b)
	if i := bytes.IndexByte(b, '\n'); i >= 0 && gjson.ValidBytes(b[:i]) {
		return b[:i]
	}
	return b
}

// LoadRaster finds the pixels of the document: for a PDF the source bytes
// (pdfRaster), checked against the source fingerprint; for a web page the
// screenshot the document names (or the file given). When there are none,
// NoPixels says why, and every crop is descriptor_only.
func LoadRaster(doc []byte, src ground.Source, s Sources) (Raster, error) {
	isPDF, shot := docFacts(doc)
	ras := Raster{PDF: isPDF, ScreenshotClipped: shot.Clipped}
	var store *blob.Store
	if s.Blobs != "" {
		if st, err := os.Stat(s.Blobs); err != nil || !st.IsDir() {
			return ras, fmt.Errorf("--blobs %s is not a directory", s.Blobs)
		}
		store, _ = blob.Open(s.Blobs)
	}
	if isPDF {
		return pdfRaster(ras, gjson.ParseBytes(firstLine(doc)), src.SourceFingerprint(), store, s)
	}
	return shotRaster(ras, shot, store, s.Screenshot)
}

func fileExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}

// noSourcePDF is the reason when nothing names the source bytes.
const noSourcePDF = "no source PDF was given (--source FILE, --blobs DIR of the capture, or source.pdf in the document's bundle)"

// pdfRaster finds the source PDF's bytes: the file given (--source), else
// the first of the blob store's copy, the bundle's source.pdf and the local
// file the document was read from (findPDF), checked against the source
// fingerprint. Without them, NoPixels says why.
func pdfRaster(ras Raster, doc gjson.Result, fp string, store *blob.Store, s Sources) (Raster, error) {
	if s.PDF != "" {
		b, err := os.ReadFile(s.PDF)
		switch {
		case err != nil:
			return ras, err
		case fp == "":
			ras.NoPixels = "the document names no source fingerprint, so the PDF bytes cannot be checked against it"
		case c14n.Fingerprint(b) != fp:
			ras.NoPixels = "the given PDF is not the document's source: its bytes do not hash to the source fingerprint"
		default:
			ras.PDFBytes = b
		}
		return ras, nil
	}
	if fp == "" {
		ras.NoPixels = "the document names no source fingerprint, so no PDF bytes can be checked against it"
		return ras, nil
	}
	b, why, err := findPDF(doc, fp, store, s.Bundle)
	switch {
	case err != nil:
		return ras, err
	case b != nil:
		ras.PDFBytes = b
	case len(why) > 0:
		ras.NoPixels = strings.Join(why, "; ")
	default:
		ras.NoPixels = noSourcePDF
	}
	return ras, nil
}

// findPDF is the first source of bytes that hash to fp, or why each one
// there is was not used.
func findPDF(doc gjson.Result, fp string, store *blob.Store, bundle string) ([]byte, []string, error) {
	var why []string
	if store != nil {
		if b, err := store.Get(fp); err == nil && c14n.Fingerprint(b) == fp {
			return b, nil, nil
		}
		why = append(why, "the source PDF is not in the blob store (capture with --blobs keeps it)")
	}
	if p := filepath.Join(bundle, eef.FileSourcePDF); bundle != "" && fileExists(p) {
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, nil, err
		}
		if c14n.Fingerprint(b) == fp {
			return b, nil, nil
		}
		why = append(why, "the bundle's source.pdf is not the document's source: its bytes do not hash to the source fingerprint")
	}
	if l, ok, reason := localOf(doc); ok {
		var b []byte
		if reason == "" {
			b, reason = readLocal(l, fp)
		}
		if reason == "" {
			return b, nil, nil
		}
		why = append(why, reason+" (give the PDF with --source FILE or --blobs DIR)")
	}
	return nil, why, nil
}

func shotRaster(ras Raster, shot Shot, store *blob.Store, file string) (Raster, error) {
	var b []byte
	var err error
	switch {
	case file != "":
		if b, err = os.ReadFile(file); err != nil {
			return ras, err
		}
	case shot.Key == "":
		ras.NoPixels = "the page has no screenshot: only a render-tier read with a blob store (capture --blobs) takes one"
		return ras, nil
	case store == nil:
		ras.NoPixels = "the screenshot " + shot.Key + " is in the capture's blob store: give it with --blobs DIR"
		return ras, nil
	default:
		if b, err = store.Get(shot.Key); err != nil {
			ras.NoPixels = "the screenshot " + shot.Key + " is not in the blob store"
			return ras, nil
		}
	}
	if shot.Key != "" && blob.Key(b) != shot.Key {
		ras.NoPixels = "the given screenshot is not the one the document names (" + shot.Key + ")"
		return ras, nil
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		return ras, fmt.Errorf("the screenshot is not a PNG: %w", err)
	}
	ras.Screenshot = img
	return ras, nil
}

// Report identities ReadCites knows besides the verification report.
const anchorReportType = "ethos.evidence_anchor_report.v1"

// ReadCites reads what to crop: a verification report (its grounded
// checks), an evidence anchor report (its bound anchors), or the JSONL lines
// sieve-verify ("check") and sieve-anchor ("anchor") write.
func ReadCites(b []byte) ([]Cite, error) {
	b = bytes.TrimSpace(b)
	if len(b) == 0 {
		return nil, errors.New("the report is empty")
	}
	first := gjson.ParseBytes(firstLine(b))
	if first.IsArray() || (first.Get("page_ref").Exists() && !first.Get("record").Exists()) {
		return boxCites(b)
	}
	switch kind := first.Get("record").String(); kind {
	case "check", "anchor":
		var out []Cite
		sc := bufio.NewScanner(bytes.NewReader(b))
		sc.Buffer(make([]byte, 0, 1<<16), 1<<30)
		for sc.Scan() {
			line := bytes.TrimSpace(sc.Bytes())
			if len(line) == 0 {
				continue
			}
			if !gjson.ValidBytes(line) {
				return nil, fmt.Errorf("a %s line is not JSON", kind)
			}
			r := gjson.ParseBytes(line)
			if r.Get("record").String() != kind {
				continue // passed-through records of other kinds
			}
			if c, ok, err := citeOf(r, kind); err != nil {
				return nil, err
			} else if ok {
				out = append(out, c)
			}
		}
		return out, sc.Err()
	}
	if !gjson.ValidBytes(b) {
		return nil, errors.New("not JSON")
	}
	r := gjson.ParseBytes(b)
	var list, kind string
	switch r.Get("artifact_type").String() {
	case verify.ReportType:
		list, kind = "checks", "check"
	case anchorReportType:
		list, kind = "anchors", "anchor"
	default:
		return nil, fmt.Errorf("not a verification or evidence anchor report (artifact_type %q)", r.Get("artifact_type").String())
	}
	var out []Cite
	for _, item := range r.Get(list).Array() {
		c, ok, err := citeOf(item, kind)
		if err != nil {
			return nil, err
		}
		if ok {
			out = append(out, c)
		}
	}
	return out, nil
}

// boxCites reads a plain list of boxes to crop: a JSON array or JSONL of
// {"id", "page_ref", "bbox" or "element_refs", "text"} (ids go to
// evidence_ids; text is marked within the box). Nothing in it was checked:
// it is the caller's list.
func boxCites(b []byte) ([]Cite, error) {
	var items []gjson.Result
	if r := gjson.ParseBytes(b); r.IsArray() {
		items = r.Array()
	} else {
		for _, l := range bytes.Split(b, []byte("\n")) {
			if l = bytes.TrimSpace(l); len(l) > 0 {
				if !gjson.ValidBytes(l) {
					return nil, errors.New("a box line is not JSON")
				}
				items = append(items, gjson.ParseBytes(l))
			}
		}
	}
	var out []Cite
	for i, it := range items {
		c := Cite{EvidenceID: it.Get("id").String()}
		if err := json.Unmarshal([]byte(it.Raw), &c.Evidence); err != nil {
			return nil, fmt.Errorf("box %d: %w", i+1, err)
		}
		if c.Evidence.PageRef == "" || (len(c.Evidence.BBox) != 4 && len(c.Evidence.ElementRefs) == 0) {
			return nil, fmt.Errorf("box %d: needs page_ref and a bbox [x, y, w, h] or element_refs", i+1)
		}
		c.Quote = c.Evidence.Text // the caller's text is what to mark
		out = append(out, c)
	}
	return out, nil
}

// citeOf reads one check or anchor; ok is false when it is not grounded
// (bound), so there is nothing to show.
func citeOf(r gjson.Result, kind string) (Cite, bool, error) {
	var c Cite
	if kind == "check" {
		if r.Get("status").String() != verify.StatusGrounded || !r.Get("evidence").IsObject() {
			return c, false, nil
		}
		c.CheckID, c.ClaimID = r.Get("check_id").String(), r.Get("claim_id").String()
		err := json.Unmarshal([]byte(r.Get("evidence").Raw), &c.Evidence)
		return c, err == nil && c.Evidence.PageRef != "", err
	}
	b := r.Get("binding")
	if r.Get("status").String() != "bound" || !b.IsObject() {
		return c, false, nil
	}
	c.EvidenceID = r.Get("evidence_id").String()
	c.Evidence.PageRef, c.Evidence.Text = b.Get("page_ref").String(), b.Get("text").String()
	for _, e := range b.Get("element_refs").Array() {
		c.Evidence.ElementRefs = append(c.Evidence.ElementRefs, e.String())
	}
	if box := b.Get("bbox").Array(); len(box) == 4 {
		for _, v := range box {
			c.Evidence.BBox = append(c.Evidence.BBox, int(v.Int()))
		}
	}
	return c, c.Evidence.PageRef != "", nil
}

// Write puts the set into bundle/crops/: crop_descriptors.jsonl
// (canonical JSON, one descriptor a line) and the PNGs, each written to a
// temporary file and renamed, so a killed run leaves no half file.
func Write(bundle string, set Set) error {
	dir := filepath.Join(bundle, Dir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for ref, b := range set.PNGs {
		if !strings.HasPrefix(ref, "crop_") || strings.ContainsAny(ref, `/\.`) {
			return fmt.Errorf("bad crop ref %q", ref)
		}
		if err := atomicWrite(filepath.Join(dir, ref+".png"), b); err != nil {
			return err
		}
	}
	lines, err := Lines(set)
	if err != nil {
		return err
	}
	return atomicWrite(filepath.Join(dir, FileDescriptors), lines)
}

// Lines is crop_descriptors.jsonl: each distinct crop once, in target
// order, as canonical JSON.
func Lines(set Set) ([]byte, error) {
	var buf bytes.Buffer
	seen := map[string]bool{}
	for _, d := range set.Descriptors {
		if seen[d.CropRef] {
			continue
		}
		seen[d.CropRef] = true
		b, err := c14n.Marshal(d)
		if err != nil {
			return nil, err
		}
		buf.Write(b)
		buf.WriteByte('\n')
	}
	return buf.Bytes(), nil
}

func atomicWrite(path string, b []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), ".tmp-*")
	if err != nil {
		return err
	}
	_, werr := f.Write(b)
	cerr := f.Close()
	if err := errors.Join(werr, cerr); err != nil {
		os.Remove(f.Name())
		return err
	}
	if err := os.Chmod(f.Name(), 0o644); err != nil {
		os.Remove(f.Name())
		return err
	}
	if err := os.Rename(f.Name(), path); err != nil {
		os.Remove(f.Name())
		return err
	}
	return nil
}
