package capture

import (
	"crypto/sha1"
	"crypto/sha256"
	"encoding/base32"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"net/http/httputil"
	"strings"
)

// payloadSums are the digests of a payload as archived and, when it was
// sent chunked, of the de-chunked bytes: archivers differ in which one
// WARC-Payload-Digest covers (wget the first, Common Crawl the second).
type payloadSums struct {
	raw, dechunked hash.Hash
	algorithm      string // "sha1" or "sha256"; "" when no digest is checked
}

// readPayload reads an archived HTTP payload as a live fetch reads a body
// (readBody: content decoding, the --max-bytes cap), after undoing a
// chunked transfer coding, which net/http undoes for a fetch. The rest of
// the payload past the cap is still read, for its digests.
func readPayload(payload io.Reader, contentEncoding string, chunked bool, max int64) (*response, payloadSums) {
	sums := payloadSums{raw: sha1.New(), dechunked: sha1.New(), algorithm: "sha1"}
	raw := io.TeeReader(payload, sums.raw)
	var body io.Reader = raw
	if chunked {
		body = io.TeeReader(httputil.NewChunkedReader(raw), sums.dechunked)
	}
	resp := &response{}
	var err error
	resp.body, resp.truncated, err = readBody(body, contentEncoding, max)
	if err != nil {
		resp.readErr = &Error{Kind: ErrRead, Message: err.Error()}
	}
	_, _ = io.Copy(io.Discard, body)
	_, _ = io.Copy(io.Discard, raw) // past a broken chunked coding too
	return resp, sums
}

// errPayloadDigest is a payload whose bytes are not the ones the record's
// WARC-Payload-Digest names.
var errPayloadDigest = errors.New("payload digest mismatch")

// checkPayload compares WARC-Payload-Digest ("sha1:" + base32 as Common
// Crawl and wget write it, or base16) with the payload's digests. A record
// without one passes; an algorithm other than sha1 is not checked.
func checkPayload(field string, sums payloadSums) error {
	if field == "" {
		return nil
	}
	algorithm, value, _ := strings.Cut(strings.TrimSpace(field), ":")
	algorithm = strings.ToLower(strings.ReplaceAll(algorithm, "-", ""))
	if algorithm != sums.algorithm {
		return nil
	}
	want, err := decodeDigest(value, sums.raw.Size())
	if err != nil {
		return fmt.Errorf("%w: WARC-Payload-Digest %q: %v", errPayloadDigest, field, err)
	}
	got := sums.raw.Sum(nil)
	if string(got) == string(want) || string(sums.dechunked.Sum(nil)) == string(want) {
		return nil
	}
	return fmt.Errorf("%w: WARC-Payload-Digest says %s, the payload is sha1:%s",
		errPayloadDigest, field, base32.StdEncoding.EncodeToString(got))
}

// decodeDigest reads a digest value of size bytes in base32 or base16.
func decodeDigest(v string, size int) ([]byte, error) {
	switch len(v) {
	case base32.StdEncoding.EncodedLen(size):
		return base32.StdEncoding.DecodeString(strings.ToUpper(v))
	case hex.EncodedLen(size):
		return hex.DecodeString(v)
	}
	return nil, fmt.Errorf("a %d-byte digest is %d base32 or %d hex characters, not %d",
		size, base32.StdEncoding.EncodedLen(size), hex.EncodedLen(size), len(v))
}

// normalDigest is a WARC digest field as a map key: the algorithm lower
// case, the value as bytes in base32 (so that the base16 and base32
// spellings of one digest meet); the field as it came when it cannot be
// read.
func normalDigest(field string) string {
	algorithm, value, _ := strings.Cut(strings.TrimSpace(field), ":")
	algorithm = strings.ToLower(strings.ReplaceAll(algorithm, "-", ""))
	size := map[string]int{"sha1": sha1.Size, "sha256": sha256.Size}[algorithm]
	b, err := decodeDigest(value, size)
	if size == 0 || err != nil {
		return field
	}
	return algorithm + ":" + base32.StdEncoding.EncodeToString(b)
}
