package shard

import (
	"archive/tar"
	"bufio"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// Writer writes a shard: NAME.tar.gz and NAME.index.jsonl, made under
// temporary names and renamed into place by Close, so a shard whose run
// was killed leaves no archive that looks finished and is simply made
// again.
type Writer struct {
	archive, index string
	f, idx         *os.File
	bw             *bufio.Writer
	cw             *countWriter
	iw             *bufio.Writer
	n              int
}

// Create starts the shard named name (Names).
func Create(name string) (*Writer, error) {
	w := &Writer{}
	w.archive, w.index = Names(name)
	if err := os.MkdirAll(filepath.Dir(w.archive), 0o755); err != nil {
		return nil, fmt.Errorf("shard: %w", err)
	}
	var err error
	if w.f, err = os.Create(w.archive + ".tmp"); err != nil {
		return nil, fmt.Errorf("shard: %w", err)
	}
	if w.idx, err = os.Create(w.index + ".tmp"); err != nil {
		w.f.Close()
		os.Remove(w.archive + ".tmp")
		return nil, fmt.Errorf("shard: %w", err)
	}
	w.bw = bufio.NewWriterSize(w.f, 256<<10)
	w.cw = &countWriter{w: w.bw}
	w.iw = bufio.NewWriter(w.idx)
	return w, nil
}

// Archive is the archive's file name once the shard is closed.
func (w *Writer) Archive() string { return w.archive }

// Len is the number of artifacts added.
func (w *Writer) Len() int { return w.n }

// epoch is every member's modification time: the archive's bytes depend
// on the artifacts' bytes only.
var epoch = time.Unix(0, 0).UTC()

// Add packs the files under dir, the artifact of e, as one gzip member
// whose tar entries are named e.Path/… ; it fills in e's Offset, Length,
// Size and Files, writes its index line and returns it.
func (w *Writer) Add(e Entry, dir string) (Entry, error) {
	if _, err := cleanMember(e.Path+"/x", e.Path); err != nil || e.Path == "" {
		return e, fmt.Errorf("shard: bad artifact path %q", e.Path)
	}
	e.Offset, e.Size, e.Files = w.cw.n, 0, 0
	gz, err := gzip.NewWriterLevel(w.cw, gzip.DefaultCompression)
	if err != nil {
		return e, err
	}
	tw := tar.NewWriter(gz)
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if !d.Type().IsRegular() {
			return fmt.Errorf("%s: not a regular file", p)
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		n, err := addFile(tw, e.Path+"/"+filepath.ToSlash(rel), p)
		e.Size += n
		e.Files++
		return err
	})
	if err == nil {
		err = tw.Flush() // no end-of-archive blocks: Close writes them once
	}
	if err == nil {
		err = gz.Close()
	}
	if err != nil {
		return e, fmt.Errorf("shard: packing %s: %w", dir, err)
	}
	e.Length = w.cw.n - e.Offset
	line, err := json.Marshal(e)
	if err != nil {
		return e, err
	}
	if _, err := w.iw.Write(append(line, '\n')); err != nil {
		return e, fmt.Errorf("shard: %w", err)
	}
	w.n++
	return e, nil
}

func addFile(tw *tar.Writer, name, src string) (int64, error) {
	f, err := os.Open(src)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return 0, err
	}
	h := &tar.Header{Typeflag: tar.TypeReg, Name: name, Mode: 0o644, Size: fi.Size(), ModTime: epoch}
	if err := tw.WriteHeader(h); err != nil {
		return 0, err
	}
	return io.Copy(tw, f)
}

// Close ends the archive (its end-of-archive blocks, a gzip member of
// their own), syncs both files and renames them into place.
func (w *Writer) Close() error {
	gz := gzip.NewWriter(w.cw)
	_, err := gz.Write(make([]byte, 2*512))
	if err == nil {
		err = gz.Close()
	}
	if err == nil {
		err = w.bw.Flush()
	}
	if err == nil {
		err = w.iw.Flush()
	}
	for _, f := range []*os.File{w.f, w.idx} {
		if err == nil {
			err = f.Sync()
		}
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err == nil {
		err = os.Rename(w.archive+".tmp", w.archive)
	}
	if err == nil {
		err = os.Rename(w.index+".tmp", w.index)
	}
	if err != nil {
		w.Abort()
		return fmt.Errorf("shard: %w", err)
	}
	return nil
}

// Abort removes what an unfinished shard wrote.
func (w *Writer) Abort() {
	w.f.Close()
	w.idx.Close()
	os.Remove(w.archive + ".tmp")
	os.Remove(w.index + ".tmp")
}

// countWriter counts the bytes written through it: the members' offsets.
type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}
