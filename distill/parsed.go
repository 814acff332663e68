package distill

import "github.com/sieve-dev/sieve/capture"

// captureAsDecoded is asDecoded for a capture record that keeps the parse
// tree capture's tier decision built (an unexported field, which asDecoded
// zeroes as a JSON round trip would): normalize takes that tree instead of
// parsing the page a second time. When asDecoded changed the body (an
// invalid UTF-8 byte became U+FFFD) the tree is of another body and is let
// go, and normalize parses what the pipe would have given it.
func captureAsDecoded(rec *capture.Record) {
	body, doc := rec.Body, rec.ParsedBody()
	asDecoded(rec)
	if doc != nil && rec.Body == body {
		rec.KeepParsedBody(doc)
	}
}
