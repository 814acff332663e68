// Package bench holds the static pipeline's Go benchmarks (make bench-go)
// and the helpers that load the shared evaluation pages. The pages stay in
// ../shared/bench; nothing here copies them into the repository.
package bench

import (
	"compress/gzip"
	"context"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/sieve-dev/sieve/capture"
)

// Dir is where the shared benchmark pages live, relative to this package,
// unless $SIEVE_BENCH_DIR says otherwise.
func Dir() string {
	if d := os.Getenv("SIEVE_BENCH_DIR"); d != "" {
		return d
	}
	return filepath.Join("..", "..", "shared", "bench")
}

// LoadCaptures gunzips every *.gz page under set/html into tmp and captures
// it as a local file (so charset detection runs exactly as in production),
// returning capture records sorted by file name. limit ≤ 0 means all.
func LoadCaptures(set, tmp string, limit int) ([]*capture.Record, error) {
	files, err := filepath.Glob(filepath.Join(Dir(), set, "html", "*.gz"))
	if err != nil {
		return nil, err
	}
	sort.Strings(files)
	if limit > 0 && len(files) > limit {
		files = files[:limit]
	}
	opts := capture.DefaultOptions()
	opts.Tier = capture.TierStatic // the static pipeline is measured here
	cp := capture.New(opts)
	defer cp.Close()
	var recs []*capture.Record
	for _, f := range files {
		path := filepath.Join(tmp, strings.TrimSuffix(filepath.Base(f), ".gz"))
		if !strings.HasSuffix(path, ".html") && !strings.HasSuffix(path, ".htm") {
			path += ".html"
		}
		if err := Gunzip(f, path); err != nil {
			return nil, err
		}
		t, err := capture.ParseTarget([]byte(path))
		if err != nil {
			return nil, err
		}
		rec := cp.Capture(context.Background(), t)
		recs = append(recs, &rec)
	}
	return recs, nil
}

// Gunzip writes the gunzipped bytes of the file src to the file dst.
func Gunzip(src, dst string) error {
	f, err := os.Open(src)
	if err != nil {
		return err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return err
	}
	out, err := os.Create(dst)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, zr); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// ReadGzip returns the gunzipped bytes of the file path.
func ReadGzip(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, err
	}
	return io.ReadAll(zr)
}
