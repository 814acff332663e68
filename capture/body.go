package capture

import (
	"bufio"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/andybalholm/brotli"

	"github.com/sieve-dev/sieve/internal/record"
)

// acceptEncoding is what capture asks for and decodes itself.
const acceptEncoding = "gzip, deflate, br"

// readBody reads at most max bytes of r after undoing contentEncoding, and
// reports whether there was more. On a read error the bytes so far are kept.
func readBody(r io.Reader, contentEncoding string, max int64) (body []byte, truncated bool, err error) {
	dr, err := decodeContent(r, contentEncoding)
	if err != nil {
		return nil, false, err
	}
	body, err = io.ReadAll(io.LimitReader(dr, max+1))
	if int64(len(body)) > max {
		return body[:max], true, nil
	}
	if err != nil && contentEncoding != "" {
		err = fmt.Errorf("decoding %s body: %w", contentEncoding, err)
	}
	return body, false, err
}

// decodeContent wraps r in decoders for a Content-Encoding list, undoing the
// last-applied coding first.
func decodeContent(r io.Reader, contentEncoding string) (io.Reader, error) {
	br := bufio.NewReader(r)
	if _, err := br.Peek(1); errors.Is(err, io.EOF) {
		return br, nil // an empty body has nothing to decode
	}
	codings := strings.Split(contentEncoding, ",")
	r = br
	for i := len(codings) - 1; i >= 0; i-- {
		coding := strings.ToLower(strings.TrimSpace(codings[i]))
		var err error
		if r, err = decoder(r, coding); err != nil {
			return nil, fmt.Errorf("decoding %s body: %w", coding, err)
		}
	}
	return r, nil
}

func decoder(r io.Reader, coding string) (io.Reader, error) {
	switch coding {
	case "", "identity":
		return r, nil
	case "gzip", "x-gzip":
		return gzip.NewReader(r)
	case "deflate":
		return inflater(r)
	case "br":
		return brotli.NewReader(r), nil
	}
	return nil, fmt.Errorf("unsupported content-encoding %q", coding)
}

// inflater reads "deflate", which servers send both as zlib (RFC 1950, as
// specified) and as raw deflate (RFC 1951, as some servers do).
func inflater(r io.Reader) (io.Reader, error) {
	br := bufio.NewReader(r)
	if h, err := br.Peek(2); err == nil && isZlibHeader(h[0], h[1]) {
		return zlib.NewReader(br)
	}
	return flate.NewReader(br), nil
}

// isZlibHeader reports a zlib header: method deflate, a valid check sum and
// no preset dictionary.
func isZlibHeader(cmf, flg byte) bool {
	return cmf&0x0f == 8 && (uint16(cmf)<<8|uint16(flg))%31 == 0 && flg&0x20 == 0
}

// keptHeaders are the response headers later stages read.
var keptHeaders = []string{
	"content-type", "content-language", "content-length", "location",
	"retry-after", "www-authenticate", "server", "x-robots-tag",
	"cf-mitigated", "cf-ray", "x-frame-options", "content-security-policy",
}

// pickHeaders keeps keptHeaders, joining repeated values with ", " and
// cutting each value at maxHeaderValue bytes.
func pickHeaders(h http.Header) map[string]string {
	out := map[string]string{}
	for _, name := range keptHeaders {
		if vs := h.Values(name); len(vs) > 0 {
			out[name] = record.Excerpt([]byte(strings.Join(vs, ", ")), maxHeaderValue)
		}
	}
	return out
}
