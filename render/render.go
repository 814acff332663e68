package render

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/sieve-dev/sieve/graph"
	"github.com/sieve-dev/sieve/internal/jsonl"
	"github.com/sieve-dev/sieve/internal/record"
)

// Options configure the render stage.
type Options struct {
	// Out is the directory artifacts are written under.
	Out string
	// NoEvidence leaves out the EEF bundle (evidence/).
	NoEvidence bool
	// Text also writes index.txt, the main content as plain text
	// (--format text; see Text).
	Text bool
	// Blobs is the capture's blob store (capture --blobs): the source
	// bytes it holds under the page's source fingerprint go into the
	// bundle as evidence/source.html or source.pdf.
	Blobs string
}

// Artifact is the record the stage prints for each artifact it wrote.
type Artifact struct {
	Record        string `json:"record"` // "artifact"
	SchemaVersion string `json:"schema_version"`
	URL           string `json:"url"`
	Dir           string `json:"dir"`     // Out joined with Dir(url)
	Outcome       string `json:"outcome"` // the outcome's status
	ContentHash   string `json:"content_hash"`
	// Evidence is the document fingerprint of evidence/document.ethos.json;
	// absent with --no-evidence.
	Evidence string `json:"evidence,omitempty"`
}

// Artifact file names.
const (
	FileManifest = "manifest.json"
	FileContent  = "content.json"
	FileMarkdown = "index.md"
	FileHTML     = "index.html"
)

type file struct {
	name string
	data []byte
}

// Write renders rec and writes its artifact directory under opts.Out,
// replacing an earlier artifact of the same URL atomically.
func Write(opts Options, rec *graph.Record) (Artifact, error) {
	return WriteContext(context.Background(), opts, rec)
}

// WriteContext is Write for a line of a jsonl run (ctx): when the run
// holds the same URL twice, the artifact directory is the later line's,
// however the two lines' work overlapped (jsonl.Latest); the earlier
// line's artifact line is written all the same, as when the lines are
// rendered one after the other.
func WriteContext(ctx context.Context, opts Options, rec *graph.Record) (Artifact, error) {
	if opts.Out == "" {
		return Artifact{}, errors.New("render: no output directory")
	}
	if rec.URL == "" {
		return Artifact{}, errors.New("render: graph record has no url")
	}
	rel, err := Dir(rec.URL)
	if err != nil {
		return Artifact{}, err
	}
	// Each file goes to disk as soon as it is rendered, so a long page's
	// files are not all held at once (issue 17).
	target := filepath.Join(opts.Out, rel)
	var fingerprint string
	err = writeAtomic(ctx, target, func(put func(...file) error, stream func(string, func(io.Writer) error) error) error {
		manifest, fields, err := recordFields(rec)
		if err != nil {
			return err
		}
		if err := put(file{FileManifest, manifest}); err != nil {
			return err
		}
		// The evidence bundle is made beside the other files on a page
		// small enough that holding both costs little; a large page makes
		// them one after the other, so that its memory peak is one
		// file's, not two (issue 17).
		evidence := func() error {
			if opts.NoEvidence {
				return nil
			}
			fp, err := writeEvidence(rec, opts.Blobs, put, stream)
			fingerprint = fp
			return err
		}
		if !opts.NoEvidence && len(rec.Blocks)+len(rec.Latent) <= concurrentEvidence {
			write, done := evidence, make(chan error, 1)
			go func() {
				defer func() {
					if p := recover(); p != nil {
						done <- fmt.Errorf("internal error: %v", p)
					}
				}()
				done <- write()
			}()
			evidence = func() error { return <-done }
		}
		// content.json straight to the file, block by block: no copy of
		// the whole in memory.
		err = stream(FileContent, func(w io.Writer) error { return writeContent(w, fields) })
		fields = nil
		if err == nil {
			err = put(file{FileMarkdown, Markdown(rec)})
		}
		if err == nil {
			err = put(file{FileHTML, HTML(rec)})
		}
		if err == nil && opts.Text {
			err = put(file{FileText, Text(rec)})
		}
		// Always waited for: the bundle's goroutine is writing into the
		// directory that a failure removes.
		if everr := evidence(); err == nil {
			err = everr
		}
		return err
	})
	if err != nil {
		return Artifact{}, err
	}
	return Artifact{
		Record:        record.KindArtifact,
		SchemaVersion: record.SchemaVersion,
		URL:           rec.URL,
		Dir:           target,
		Outcome:       rec.Outcome.Status,
		ContentHash:   rec.ContentHash,
		Evidence:      fingerprint,
	}, nil
}

// concurrentEvidence is the size of a page, in blocks and latent entries,
// up to which its evidence bundle is written concurrently with its other
// files: on two cores that hides most of the bundle's cost (render with
// evidence 1.5x the time of --no-evidence when made in turn; make
// bench-stream).
var concurrentEvidence = 20000 // a var for tests

// failPut, in tests, makes the writing of a whole file fail.
var failPut func(name string) error

// writeAtomic has fill write the files, through put (whole files) and
// stream (a file written by a function), into a fresh directory beside
// target, and swaps it into place when fill succeeds, unless a later line
// of ctx's run has already swapped its own in (jsonl.Latest).
func writeAtomic(ctx context.Context, target string, fill func(put func(...file) error, stream func(string, func(io.Writer) error) error) error) (err error) {
	parent := filepath.Dir(target)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return fmt.Errorf("render: %w", err)
	}
	tmp, err := os.MkdirTemp(parent, ".tmp-")
	if err != nil {
		return fmt.Errorf("render: %w", err)
	}
	defer func() {
		if err != nil {
			os.RemoveAll(tmp)
		}
	}()
	if err := os.Chmod(tmp, 0o755); err != nil {
		return fmt.Errorf("render: %w", err)
	}
	put := func(files ...file) error {
		for _, f := range files {
			if failPut != nil {
				if err := failPut(f.name); err != nil {
					return err
				}
			}
			name := filepath.Join(tmp, filepath.FromSlash(f.name))
			if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
				return fmt.Errorf("render: %w", err)
			}
			if err := os.WriteFile(name, f.data, 0o644); err != nil {
				return fmt.Errorf("render: %w", err)
			}
		}
		return nil
	}
	stream := func(rel string, write func(io.Writer) error) error {
		name := filepath.Join(tmp, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			return fmt.Errorf("render: %w", err)
		}
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
		if err != nil {
			return fmt.Errorf("render: %w", err)
		}
		w := bufio.NewWriterSize(f, 64<<10)
		err = write(w)
		if err == nil {
			err = w.Flush()
		}
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return fmt.Errorf("render: %w", err)
		}
		return nil
	}
	if err := fill(put, stream); err != nil {
		return err
	}
	var old string
	swapped, err := jsonl.Latest(ctx, target, func() error {
		var err error
		old, err = swap(tmp, target)
		return err
	})
	switch {
	case err != nil:
		return err
	case !swapped:
		// A later line of the run wrote this URL's artifact: it stands.
		os.RemoveAll(tmp)
		return nil
	case old != "":
		return removeOld(old)
	}
	return nil
}

// swap renames dir to target, moving an existing target aside first, and
// returns where the old one went ("" when there was none) for the caller
// to remove. Another process writing the same target can win the race
// between the two renames; swap then tries again, so the last writer wins.
func swap(dir, target string) (string, error) {
	old := filepath.Join(filepath.Dir(dir), ".old-"+strings.TrimPrefix(filepath.Base(dir), ".tmp-"))
	var err error
	for attempt := 0; attempt < 5; attempt++ {
		moved := false
		if err = os.Rename(target, old); err == nil {
			moved = true
		} else if !errors.Is(err, os.ErrNotExist) {
			return "", fmt.Errorf("render: moving old artifact aside: %w", err)
		}
		if err = os.Rename(dir, target); err == nil {
			if moved {
				return old, nil
			}
			return "", nil
		}
		if moved {
			// Put the old artifact back, unless another writer took its place.
			if os.Rename(old, target) != nil {
				os.RemoveAll(old)
			}
		}
	}
	return "", fmt.Errorf("render: %w", err)
}

func removeOld(old string) error {
	if err := os.RemoveAll(old); err != nil {
		return fmt.Errorf("render: removing old artifact: %w", err)
	}
	return nil
}
