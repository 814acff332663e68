package capture

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strings"
	"time"

	"github.com/nlnwa/gowarc/v2"

	"github.com/sieve-dev/sieve/internal/record"
	"github.com/sieve-dev/sieve/internal/version"
)

// WARCPage is what one WARC record gave: a capture record, or Err when the
// record could not be read or failed its checks (an error record).
type WARCPage struct {
	No     int    // the WARC record's 1-based position in the file
	Offset int64  // where the record starts in the file
	URI    string // WARC-Target-URI, "" when unknown
	Record Record
	Err    error
}

// WARCStats counts what a WARC read did.
type WARCStats struct {
	Records int            // WARC records read, corrupt ones included
	Pages   int            // capture records
	Errors  int            // error records
	Skipped map[string]int // records passed over, by why
}

// String is the stats as one line for stderr, the reasons in sorted order.
func (s WARCStats) String() string {
	line := fmt.Sprintf("%d WARC records: %d pages, %d errors", s.Records, s.Pages, s.Errors)
	if len(s.Skipped) == 0 {
		return line
	}
	why := make([]string, 0, len(s.Skipped))
	for k := range s.Skipped {
		why = append(why, k)
	}
	sort.Strings(why)
	for i, k := range why {
		why[i] = fmt.Sprintf("%d %s", s.Skipped[k], k)
	}
	return line + "; passed over: " + strings.Join(why, ", ")
}

func (s *WARCStats) skip(why string) {
	if s.Skipped == nil {
		s.Skipped = map[string]int{}
	}
	s.Skipped[why]++
}

// warcOptions make gowarc check what a page needs (Content-Length against
// the block, the end-of-record marker, the block digest, the HTTP header)
// and let through what a lenient reader should (syntax slips, unknown
// record types). gowarc's repairs are off: they would rewrite the digests
// and lengths being checked. The payload digest is checked here, not by
// gowarc (checkPayload).
var warcOptions = []gowarc.WarcRecordOption{
	gowarc.WithSyntaxErrorPolicy(gowarc.ErrIgnore),
	gowarc.WithSpecViolationPolicy(gowarc.ErrWarn),
	gowarc.WithUnknownRecordTypePolicy(gowarc.ErrIgnore),
	gowarc.WithBlockErrorPolicy(gowarc.ErrWarn),
	gowarc.WithAddMissingRecordId(false),
	gowarc.WithAddMissingContentLength(false),
	gowarc.WithAddMissingDigest(false),
	gowarc.WithFixContentLength(false),
	gowarc.WithFixDigest(false),
	gowarc.WithFixSyntaxErrors(false),
}

// ReadWARC reads the WARC file at path (WARC 1.0 or 1.1, plain or gzip per
// record) and calls emit for every page in it: each response record of an
// HTML or PDF payload, and each revisit record resolved against an earlier
// response of the same file, becomes the capture record a fetch would have
// made. Nothing is fetched: no DNS, no connection, no robots.txt. emit's
// error stops the read.
func (c *Capturer) ReadWARC(ctx context.Context, path string, emit func(WARCPage) error) (WARCStats, error) {
	src, err := newWARCSource(path)
	if err != nil {
		return WARCStats{}, err
	}
	r := &warcRead{c: c, src: src, byDigest: map[string]int64{}, byID: map[string]int64{}}
	f, closer, err := src.reader(0)
	if err != nil {
		return r.stats, err
	}
	defer closer.Close()
	defer f.Close()
	inGap, lastBroken, lastOff := false, int64(-1), int64(0)
	for ctx.Err() == nil {
		wr, off, v, err := next(f)
		if errors.Is(err, errReaderFailed) {
			// The reader's state is unknown past a panic: the file ends
			// here, with an error record that says so.
			r.stats.Records++
			r.stats.Errors++
			return r.stats, emit(WARCPage{No: r.stats.Records, Offset: lastOff,
				Err: fmt.Errorf("unreadable WARC record after offset %d, the rest of the file not read: %w", lastOff, err)})
		}
		if err == io.EOF && wr == nil {
			return r.stats, nil
		}
		lastOff = off
		broken := err != nil
		if broken && off == lastBroken {
			return r.stats, fmt.Errorf("%s: stuck at offset %d: %w", path, off, err)
		}
		if broken {
			lastBroken = off
		}
		// After a corrupt record gowarc searches byte by byte for the next
		// one; what it trips over on the way is the same gap.
		folded := broken && inGap
		inGap = broken
		if folded {
			continue
		}
		r.stats.Records++
		page := r.page(wr, off, v, err)
		if wr != nil {
			wr.Close()
		}
		if page == nil {
			continue
		}
		if page.Err != nil {
			r.stats.Errors++
		} else {
			r.stats.Pages++
		}
		if err := emit(*page); err != nil {
			return r.stats, err
		}
	}
	return r.stats, ctx.Err()
}

// errReaderFailed is next's error for a panic of gowarc's.
var errReaderFailed = errors.New("the WARC reader failed on it")

// next is f.Next with a panic of gowarc's on malformed input made an
// error: v2.2.4 indexes a one-byte version line ("WARC/\n") at -1.
func next(f *gowarc.WarcFileReader) (wr gowarc.WarcRecord, off int64, v *gowarc.Validation, err error) {
	defer func() {
		if p := recover(); p != nil {
			wr, err = nil, fmt.Errorf("%w (%v)", errReaderFailed, p)
		}
	}()
	return f.Next()
}

// warcRead is one read of one WARC file.
type warcRead struct {
	c        *Capturer
	src      *warcSource
	stats    WARCStats
	byDigest map[string]int64 // response payload digest → record offset, for revisits
	byID     map[string]int64 // response WARC-Record-ID → record offset
}

// page turns one WARC record into a page, or nil when it is passed over.
func (r *warcRead) page(wr gowarc.WarcRecord, off int64, v *gowarc.Validation, err error) *WARCPage {
	p := &WARCPage{No: r.stats.Records, Offset: off}
	if wr != nil {
		p.URI = targetURI(wr)
		if p.URI == "" && wr.Type()&(gowarc.Response|gowarc.Revisit) != 0 {
			p.URI = unbracket(r.src.rawField(off, gowarc.WarcTargetURI))
		}
	}
	if err != nil {
		p.Err = fmt.Errorf("unreadable WARC record at offset %d: %w", off, err)
		return p
	}
	switch wr.Type() {
	case gowarc.Response:
		return r.response(p, wr, v)
	case gowarc.Revisit:
		return r.revisit(p, wr, v)
	}
	r.stats.skip(strings.ToLower(wr.Type().String()))
	return nil
}

func targetURI(wr gowarc.WarcRecord) string {
	return unbracket(wr.WarcHeader().Get(gowarc.WarcTargetURI))
}

// unbracket is a URI without the <> that WARC 1.0 writers put around
// WARC-Target-URI (wget does).
func unbracket(u string) string {
	u = strings.TrimSpace(u)
	return strings.TrimSuffix(strings.TrimPrefix(u, "<"), ">")
}

// response reads a response record; its offset is kept for the revisits
// that refer to it.
func (r *warcRead) response(p *WARCPage, wr gowarc.WarcRecord, v *gowarc.Validation) *WARCPage {
	hb, ok := wr.Block().(gowarc.HttpResponseBlock)
	if !ok {
		r.stats.skip("responses without HTTP")
		return nil
	}
	if d := wr.WarcHeader().Get(gowarc.WarcPayloadDigest); d != "" {
		r.byDigest[normalDigest(d)] = p.Offset
	}
	r.byID[wr.RecordId()] = p.Offset
	ex := exchange{uri: p.URI, date: warcDate(wr), digest: wr.WarcHeader().Get(gowarc.WarcPayloadDigest),
		truncated: wr.WarcHeader().Get(gowarc.WarcTruncated)}
	err := invalid(v)
	if err == nil && !ex.head(hb.ProtocolHeaderBytes()) {
		err = errors.New("corrupt WARC record: its HTTP response header does not parse")
	}
	if err != nil {
		p.Err = err
		return p
	}
	payload, err := hb.PayloadBytes()
	if err != nil {
		p.Err = err
		return p
	}
	return r.finish(p, ex, payload)
}

// revisit resolves a revisit record against the earlier response of the
// same payload digest (or the one WARC-Refers-To names) in this file: the
// page is that response's payload under the revisit's URI, date and, when
// the revisit has them, HTTP status and headers.
func (r *warcRead) revisit(p *WARCPage, wr gowarc.WarcRecord, v *gowarc.Validation) *WARCPage {
	if e := invalid(v); e != nil {
		p.Err = e
		return p
	}
	ex := exchange{uri: p.URI, date: warcDate(wr), digest: wr.WarcHeader().Get(gowarc.WarcPayloadDigest)}
	if hb, ok := wr.Block().(gowarc.ProtocolHeaderBlock); ok {
		ex.head(hb.ProtocolHeaderBytes())
	}
	if ex.header != nil && r.passOver(ex, nil) {
		return nil
	}
	off, found := r.byDigest[normalDigest(ex.digest)]
	if !found || ex.digest == "" {
		off, found = r.byID[wr.WarcHeader().GetId(gowarc.WarcRefersTo)]
	}
	if !found {
		p.Err = fmt.Errorf("revisit of %s (payload digest %q): no earlier response in %s has that payload", p.URI, ex.digest, r.src.path)
		return p
	}
	payload, err := r.original(&ex, off)
	if err != nil {
		p.Err = fmt.Errorf("revisit of %s: the response it refers to (offset %d) cannot be read: %v", p.URI, off, err)
		return p
	}
	return r.finish(p, ex, payload)
}

// original reads the response at off for a revisit: its payload, and its
// HTTP status and headers when the revisit has none of its own (or is a
// 304, whose headers are the validation's).
func (r *warcRead) original(ex *exchange, off int64) (io.Reader, error) {
	f, closer, err := r.src.reader(off)
	if err != nil {
		return nil, err
	}
	defer closer.Close()
	defer f.Close()
	wr, _, v, err := next(f)
	if err != nil {
		return nil, err
	}
	defer wr.Close()
	if err := invalid(v); err != nil {
		return nil, err
	}
	hb, ok := wr.Block().(gowarc.HttpResponseBlock)
	if !ok {
		return nil, errors.New("no HTTP response")
	}
	if ex.header == nil || ex.status == http.StatusNotModified {
		if !ex.head(hb.ProtocolHeaderBytes()) {
			return nil, errors.New("its HTTP response header does not parse")
		}
	}
	ex.truncated = wr.WarcHeader().Get(gowarc.WarcTruncated)
	payload, err := hb.PayloadBytes()
	if err != nil {
		return nil, err
	}
	// The record is closed on return: the payload is read now.
	b, err := io.ReadAll(payload)
	return bytes.NewReader(b), err
}

// invalid is gowarc's findings on a record's bytes as one error; nil when
// there are none. A header field it finds fault with (WARC 1.0's <uri>,
// say) is no fault in the bytes and is let through. Payload digests are
// left to checkPayload, which also accepts a de-chunked payload's.
func invalid(v *gowarc.Validation) error {
	if v == nil {
		return nil
	}
	var msgs []string
	for _, e := range *v {
		var field *gowarc.HeaderFieldError
		if !errors.As(e, &field) && !strings.HasPrefix(e.Error(), "payload: ") {
			msgs = append(msgs, e.Error())
		}
	}
	if len(msgs) == 0 {
		return nil
	}
	return fmt.Errorf("corrupt WARC record: %s", strings.Join(msgs, "; "))
}

func warcDate(wr gowarc.WarcRecord) time.Time {
	t, _ := wr.Date()
	return t
}

// exchange is an archived HTTP response: what a fetch would have seen.
type exchange struct {
	uri       string
	date      time.Time
	status    int
	header    http.Header
	chunked   bool   // sent with Transfer-Encoding: chunked, which the payload still has
	digest    string // WARC-Payload-Digest
	truncated string // WARC-Truncated: length, time, disconnect, unspecified
}

// head reads an archived HTTP response header into ex; false when it does
// not parse. net/http takes Transfer-Encoding out of the header, so it is
// read here and not later from ex.header.
func (ex *exchange) head(raw []byte) bool {
	resp, err := http.ReadResponse(bufio.NewReader(bytes.NewReader(raw)), nil)
	if err != nil {
		return false
	}
	ex.status, ex.header = resp.StatusCode, resp.Header
	ex.chunked = len(resp.TransferEncoding) > 0 && resp.TransferEncoding[0] == "chunked"
	return true
}

// finish reads the payload as a live fetch reads a body and makes the page,
// or passes it over when it is no HTML or PDF.
func (r *warcRead) finish(p *WARCPage, ex exchange, payload io.Reader) *WARCPage {
	resp, sums := readPayload(payload, ex.header.Get("Content-Encoding"), ex.chunked, r.c.opts.MaxBytes)
	resp.status, resp.header = ex.status, ex.header
	if r.passOver(ex, resp.body) {
		return nil
	}
	if ex.uri == "" {
		p.Err = errors.New("corrupt WARC record: no WARC-Target-URI that reads as a URL")
		return p
	}
	if err := checkPayload(ex.digest, sums); err != nil {
		p.Err = fmt.Errorf("%s: %w", ex.uri, err)
		return p
	}
	switch ex.truncated {
	case "":
	case "disconnect":
		resp.readErr = &Error{Kind: ErrRead, Message: "the archived body broke off (WARC-Truncated: disconnect)"}
	default:
		resp.truncated = true // the archiving crawler's cap, as --max-bytes is ours
	}
	p.Record = r.c.warcRecord(ex, resp)
	return p
}

// passOver reports (and counts) an exchange that is no page: a redirect,
// whose target is a record of its own, or a payload that is neither HTML
// nor PDF. body nil decides from the headers alone.
func (r *warcRead) passOver(ex exchange, body []byte) bool {
	if ex.status >= 300 && ex.status < 400 && ex.header.Get("Location") != "" {
		r.stats.skip("redirects")
		return true
	}
	mt, _ := mediaType(ex.header.Get("Content-Type"), body)
	if body == nil && mt == "" {
		return false // sniffed once the payload is read
	}
	if isHTML(mt) || isPDF(mt, body) {
		return false
	}
	r.stats.skip("responses of other types")
	return true
}

// warcRecord is the capture record of an archived exchange, made by the
// code that makes a fetched one (fillResponse).
func (c *Capturer) warcRecord(ex exchange, resp *response) Record {
	rec := Record{
		Record:        record.KindCapture,
		SchemaVersion: record.SchemaVersion,
		URL:           ex.uri,
		FinalURL:      ex.uri,
		Tier:          TierStatic,
		Redirects:     []Redirect{},
		Headers:       map[string]string{},
		Timing:        Timing{StartedAt: ex.date.UTC().Format(time.RFC3339), Attempts: 1},
		Trace:         c.trace,
	}
	rec.Trace.Robots = false // nothing was fetched, robots.txt was not asked
	rec.Trace.Libraries = append(rec.Trace.Libraries[:len(rec.Trace.Libraries):len(rec.Trace.Libraries)],
		version.Of("github.com/nlnwa/gowarc/v2")...)
	c.fillResponse(&rec, resp)
	c.readScans(context.Background(), &rec) // within the OCR budgets
	return rec
}
