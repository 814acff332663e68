package eef

import (
	"bufio"
	"bytes"
	"io"

	"github.com/sieve-dev/sieve/internal/c14n"
)

// Files are the bundle's files in canonical form, in the order written.
// JSON files end with a newline after the canonical bytes; the hashes
// never cover files, only canonical values. They are Write's bytes.
func (b *Bundle) Files() (map[string][]byte, error) {
	m := map[string][]byte{}
	err := b.Write(func(name string, write func(io.Writer) error) error {
		var buf bytes.Buffer
		if err := write(&buf); err != nil {
			return err
		}
		m[name] = buf.Bytes()
		return nil
	})
	if err != nil {
		return nil, err
	}
	return m, nil
}

// FileNames are the files Write writes, in its order.
var FileNames = []string{FileDocument, FileChunks, FileSecurityReport, FileText, FileProfile}

// Write gives each of the bundle's files (FileNames, in order) to put, to
// be written through the function it is handed: nothing is encoded
// whole. The payload, most of the document, is not encoded again when
// Build kept its canonical bytes (while Document.Payload is still the one
// Build made); the chunk lines of a BuildLean bundle are made one at a
// time as they are written.
func (b *Bundle) Write(put func(name string, write func(io.Writer) error) error) error {
	err := put(FileDocument, func(w io.Writer) error {
		var err error
		if b.payload != nil && b.payloadOf == &b.Document.Payload {
			err = c14n.EncodeReusing(w, b.Document, &b.Document.Payload, b.payload)
		} else {
			err = c14n.Encode(w, b.Document)
		}
		if err != nil {
			return err
		}
		_, err = w.Write([]byte{'\n'})
		return err
	})
	if err != nil {
		return err
	}
	if err := put(FileChunks, b.writeChunks); err != nil {
		return err
	}
	err = put(FileSecurityReport, func(w io.Writer) error {
		sec, err := c14n.Marshal(b.Security)
		if err != nil {
			return err
		}
		_, err = w.Write(append(sec, '\n'))
		return err
	})
	if err != nil {
		return err
	}
	err = put(FileText, func(w io.Writer) error {
		_, err := io.WriteString(w, b.Text)
		return err
	})
	if err != nil {
		return err
	}
	return put(FileProfile, func(w io.Writer) error {
		_, err := w.Write(append(append([]byte{}, c14n.Profile()...), '\n'))
		return err
	})
}

// writeChunks writes chunks.jsonl, one canonical line per chunk.
func (b *Bundle) writeChunks(w io.Writer) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	line := func(c Chunk) error {
		buf, err := c14n.Marshal(c)
		if err != nil {
			return err
		}
		bw.Write(buf)
		return bw.WriteByte('\n')
	}
	if b.Chunks != nil || b.groups == nil {
		for _, c := range b.Chunks {
			if err := line(c); err != nil {
				return err
			}
		}
	} else {
		for i, g := range b.groups {
			if err := line(b.chunk(i, g)); err != nil {
				return err
			}
		}
	}
	return bw.Flush()
}
