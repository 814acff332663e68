package capture

import (
	"io"
	"os"
)

// readFile is io.ReadAll(io.LimitReader(f, limit)) into one buffer sized
// from the file's length: io.ReadAll grows its buffer step by step,
// copying and clearing each time (a few per cent of a one-page `sieve
// distill`). A file whose size is not known, or grows while read, is
// read all the same.
func readFile(f *os.File, limit int64) ([]byte, error) {
	size := int64(512)
	if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
		size = fi.Size() + 1 // one byte more: the read that sees the end does not grow it
	}
	buf := make([]byte, 0, min(size, limit))
	for int64(len(buf)) < limit {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := f.Read(buf[len(buf):min(int64(cap(buf)), limit)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
	}
	return buf, nil
}
