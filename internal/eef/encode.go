package eef

import (
	"bytes"

	"github.com/sieve-dev/sieve/internal/c14n"
)

// Files are the bundle's files in canonical form, in the order written.
// JSON files end with a newline after the canonical bytes; the hashes
// never cover files, only canonical values. The payload, most of the
// document, is not encoded again: Build's canonical bytes of it are
// written in place (while Document.Payload is still the one Build made).
func (b *Bundle) Files() (map[string][]byte, error) {
	var doc []byte
	var err error
	if b.payload != nil && b.payloadOf == &b.Document.Payload {
		doc, err = c14n.MarshalReusing(b.Document, &b.Document.Payload, b.payload)
	} else {
		doc, err = c14n.Marshal(b.Document)
	}
	if err != nil {
		return nil, err
	}
	sec, err := c14n.Marshal(b.Security)
	if err != nil {
		return nil, err
	}
	var chunks bytes.Buffer
	for _, c := range b.Chunks {
		line, err := c14n.Marshal(c)
		if err != nil {
			return nil, err
		}
		chunks.Write(line)
		chunks.WriteByte('\n')
	}
	return map[string][]byte{
		FileDocument:       append(doc, '\n'),
		FileSecurityReport: append(sec, '\n'),
		FileChunks:         chunks.Bytes(),
		FileText:           []byte(b.Text),
		FileProfile:        append(append([]byte{}, c14n.Profile()...), '\n'),
	}, nil
}
