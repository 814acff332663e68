package capture

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"io"
	"net/textproto"
	"os"
	"strconv"

	"github.com/nlnwa/gowarc/v2"
)

// warcSource is a WARC file opened at a record's offset. Offsets are in
// the file, except for a file gzipped as one stream (wholeGzip), where
// they are in the decompressed stream: gowarc reads gzip member by member
// and would stop after the first record of such a file.
type warcSource struct {
	path      string
	wholeGzip bool
}

func newWARCSource(path string) (*warcSource, error) {
	whole, err := wholeGzip(path)
	return &warcSource{path: path, wholeGzip: whole}, err
}

// reader is a gowarc reader from off on.
func (s *warcSource) reader(off int64) (*gowarc.WarcFileReader, io.Closer, error) {
	rc, err := s.open(off)
	if err != nil {
		return nil, nil, err
	}
	wf, err := gowarc.NewWarcFileReaderFromStream(rc, off, warcOptions...)
	if err != nil {
		rc.Close()
		return nil, nil, err
	}
	return wf, rc, nil
}

// open is the file, or its decompressed stream, from off on.
func (s *warcSource) open(off int64) (io.ReadCloser, error) {
	f, err := os.Open(s.path)
	if err != nil {
		return nil, err
	}
	if !s.wholeGzip {
		if _, err := f.Seek(off, io.SeekStart); err != nil {
			f.Close()
			return nil, err
		}
		return f, nil
	}
	zr, err := gzip.NewReader(bufio.NewReader(f))
	if err == nil {
		_, err = io.CopyN(io.Discard, zr, off)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return struct {
		io.Reader
		io.Closer
	}{zr, f}, nil
}

// rawField reads one header field of the record at off as it is written:
// gowarc blanks a value it does not accept, such as wget's <uri>.
func (s *warcSource) rawField(off int64, name string) string {
	rc, err := s.open(off)
	if err != nil {
		return ""
	}
	defer rc.Close()
	h, err := firstHeader(rc)
	if err != nil {
		return ""
	}
	return h.Get(name)
}

// firstHeader reads the WARC header of the record r starts with, in a
// gzip member of its own or not.
func firstHeader(r io.Reader) (textproto.MIMEHeader, error) {
	br := bufio.NewReader(r)
	var rr io.Reader = br
	if magic, _ := br.Peek(2); bytes.Equal(magic, []byte{0x1f, 0x8b}) {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, err
		}
		zr.Multistream(false)
		rr = zr
	}
	tp := textproto.NewReader(bufio.NewReader(rr))
	if _, err := tp.ReadLine(); err != nil { // the version line
		return nil, err
	}
	return tp.ReadMIMEHeader()
}

// wholeGzip reports a file gzipped as one stream: its first gzip member
// holds more than its first record.
func wholeGzip(path string) (bool, error) {
	f, err := os.Open(path)
	if err != nil {
		return false, err
	}
	defer f.Close()
	br := bufio.NewReader(f)
	if magic, _ := br.Peek(2); !bytes.Equal(magic, []byte{0x1f, 0x8b}) {
		return false, nil
	}
	zr, err := gzip.NewReader(br)
	if err != nil {
		return false, nil // a corrupt first member is the reader's to report
	}
	zr.Multistream(false)
	member := bufio.NewReader(zr)
	tp := textproto.NewReader(member)
	if _, err := tp.ReadLine(); err != nil {
		return false, nil
	}
	h, err := tp.ReadMIMEHeader()
	n, _ := strconv.ParseInt(h.Get("Content-Length"), 10, 64)
	if err != nil || n < 0 {
		return false, nil
	}
	if _, err := io.CopyN(io.Discard, member, n+4); err != nil { // the block and CRLF CRLF
		return false, nil
	}
	_, err = member.ReadByte()
	return err == nil, nil
}
