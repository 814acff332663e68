package graph

import (
	"crypto/sha256"
	"encoding/hex"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// ContentHash is sha256 over the normalised semantic graph: for every
// content block in order, its type, level and text. Chrome, latent text,
// ids, URLs (asset or link), the outcome and all timing are outside it, and
// date-times and clock times inside the text are masked, so re-reading an
// unchanged page — or one whose only change is a rendered timestamp — gives
// the same hash. The inputs are fixed for schema 1.x.
func ContentHash(blocks []Block) string {
	h := sha256.New()
	var buf []byte
	for i := range blocks {
		b := &blocks[i]
		if b.Role != "content" {
			continue
		}
		buf = buf[:0]
		buf = append(buf, b.Type...)
		buf = append(buf, 0x1f)
		buf = strconv.AppendInt(buf, int64(b.Level), 10)
		buf = append(buf, 0x1f)
		buf = append(buf, maskTimes(b.Text)...)
		buf = append(buf, 0x1e)
		h.Write(buf)
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
}

// timePattern matches ISO 8601 date-times and clock times (10:42, 10:42:07,
// with optional fraction, am/pm and zone).
var timePattern = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(\d{4}-\d{2}-\d{2}[T ])?\d{1,2}:\d{2}(:\d{2}(\.\d+)?)?(\s?[ap]\.?m\.?)?(Z|[+-]\d{2}:?\d{2}|\s?UTC|\s?GMT)?\b`)
})

func maskTimes(s string) string {
	if strings.IndexByte(s, ':') < 0 { // every time the pattern matches has one
		return s
	}
	return timePattern().ReplaceAllString(s, "<time>")
}
