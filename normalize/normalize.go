package normalize

import (
	"errors"
	"fmt"
	"net/http"
	"strings"

	capture "github.com/sieve-dev/sieve/capture/caprec"
	"github.com/sieve-dev/sieve/internal/record"
	"github.com/sieve-dev/sieve/internal/textnorm"
)

// SourceStatic marks nodes read from the served HTML.
const SourceStatic = "static"

// bodyKind is how a capture's body is read.
type bodyKind int

const (
	bodyNone bodyKind = iota // nothing to read: a failed fetch or an empty body
	bodyHTML
	bodyText
)

// ErrUnsupported is wrapped by the error Normalize returns for a content
// type it does not read.
var ErrUnsupported = errors.New("sieve reads HTML, plain text and PDF")

// Normalize turns one capture record into a normalized record. A failed
// fetch or an empty body gives a valid record with no nodes (the failure is
// data for the graph); a PDF is read from capture's pdf facts; another
// content type is an error.
func Normalize(rec *capture.Record) (*Record, error) {
	return NormalizeWith(rec, Limits{})
}

// DefaultMaxNodes is the node budget of a page: the most nodes its node
// list holds. 10 MiB of served HTML (capture's default size cap) can hold
// 3.5 million empty elements; the budget keeps the stages after the
// parser in bounded memory whatever the markup.
const DefaultMaxNodes = 3_000_000

// Limits are normalize's per-page budgets. A page over one is read up to
// it; Stats.CutNodes says how much was left, and the graph reads the page
// as partial with a gap.
type Limits struct {
	// Nodes is the most nodes of the node list (elements and text, in
	// document order); the rest of the document is not read. 0 is
	// DefaultMaxNodes.
	Nodes int
}

func (l Limits) nodes() int {
	if l.Nodes > 0 {
		return l.Nodes
	}
	return DefaultMaxNodes
}

// NormalizeWith is Normalize under the budgets of lim.
func NormalizeWith(rec *capture.Record, lim Limits) (*Record, error) {
	out := newRecord(rec)
	if rec.PDF != nil { // also beside a size-cap error: the pages read are kept
		readPDF(out, rec.PDF)
		return out, nil
	}
	kind, err := kindOf(rec)
	if err != nil {
		return nil, err
	}
	switch kind {
	case bodyText:
		readPlainText(out, rec.Body)
	case bodyHTML:
		if err := readHTML(out, rec, lim); err != nil {
			return nil, err
		}
	}
	if len(rec.DOM) > 0 {
		readDOM(out, rec, lim.nodes()) // render tier: the rendered nodes replace the served ones
	}
	return out, nil
}

func newRecord(rec *capture.Record) *Record {
	redirects := rec.Redirects
	if redirects == nil {
		redirects = []capture.Redirect{}
	}
	headers := rec.Headers
	if headers == nil {
		headers = map[string]string{}
	}
	var pdfInfo *capture.PDFInfo
	if rec.PDF != nil {
		pdfInfo = rec.PDF.Info()
	}
	return &Record{
		Record:            record.KindNormalized,
		SchemaVersion:     record.SchemaVersion,
		URL:               rec.URL,
		FinalURL:          rec.FinalURL,
		NormalizerVersion: textnorm.Version,
		Capture: CaptureInfo{
			Tier:              rec.Tier,
			Status:            rec.Status,
			Redirects:         redirects,
			Headers:           headers,
			ContentType:       rec.ContentType,
			Charset:           rec.Charset,
			BodyBytes:         rec.BodyBytes,
			SourceFingerprint: rec.SourceFingerprint,
			Truncated:         rec.Truncated,
			BodyOmitted:       rec.BodyOmitted,
			Robots:            rec.Robots,
			Error:             rec.Error,
			Timing:            rec.Timing,
			Trace:             rec.Trace,
			TierScore:         rec.TierScore,
			TierReason:        rec.TierReason,
			TierFellBack:      rec.TierFellBack,
			Render:            rec.Render,
			PDF:               pdfInfo,
		},
		Doc:   Doc{Lang: contentLanguage(headers)},
		Nodes: []Node{},
	}
}

// kindOf decides how to read the body from the capture's content type,
// sniffing the body when the type is missing or generic.
func kindOf(rec *capture.Record) (bodyKind, error) {
	if rec.Error != nil {
		return bodyNone, nil
	}
	ct := mediaType(rec.ContentType)
	if rec.BodyOmitted != "" {
		return 0, unsupported(ct)
	}
	if rec.Body == "" {
		return bodyNone, nil
	}
	switch ct {
	case "text/html", "application/xhtml+xml":
		return bodyHTML, nil
	case "text/plain":
		return bodyText, nil
	case "", "application/octet-stream", "binary/octet-stream", "unknown":
		return sniff(rec.Body, ct)
	}
	return 0, unsupported(ct)
}

func sniff(body, ct string) (bodyKind, error) {
	head := body
	if len(head) > 512 {
		head = head[:512]
	}
	switch mediaType(http.DetectContentType([]byte(head))) {
	case "text/html":
		return bodyHTML, nil
	case "text/plain":
		return bodyText, nil
	}
	return 0, unsupported(ct)
}

func unsupported(ct string) error {
	if ct == "" {
		ct = "(none)"
	}
	return fmt.Errorf("unsupported content type %s: %w", ct, ErrUnsupported)
}

// mediaType returns the lower-case media type without parameters.
func mediaType(ct string) string {
	ct, _, _ = strings.Cut(ct, ";")
	return strings.ToLower(strings.TrimSpace(ct))
}

func contentLanguage(headers map[string]string) string {
	v, _, _ := strings.Cut(headers["content-language"], ",")
	return strings.TrimSpace(v)
}

// readPlainText gives a text/plain body the shape of one <pre>.
func readPlainText(out *Record, body string) {
	out.Nodes = append(out.Nodes,
		Node{ID: 0, Parent: -1, Tag: "pre", Path: "pre", Source: SourceStatic},
		Node{ID: 1, Parent: 0, Tag: textTag, Text: textnorm.Pre(body), Pre: true, Source: SourceStatic},
	)
	out.Stats.Elements = 1
	out.Stats.TextNodes = 1
}
