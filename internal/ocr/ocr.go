// Package ocr reads the words of an image with Tesseract, run as a
// process (Debian's tesseract-ocr and tesseract-ocr-eng), the way capture
// runs Chromium. It knows nothing of pages: a caller gives it a PNG and
// the scale the PNG was taken at, and gets lines of words with boxes in
// the caller's units (CSS px for a canvas, points for a PDF page).
package ocr

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// MinConfidence is the confidence (0–100, Tesseract's word confidence)
// below which a word is not content: under it, Tesseract's guesses on
// chart strokes, textures and anti-aliasing noise outnumber real words.
const MinConfidence = 60

// Command is the Tesseract binary: SIEVE_TESSERACT, else "tesseract" on PATH.
func Command() string {
	return cmp.Or(os.Getenv("SIEVE_TESSERACT"), "tesseract")
}

// ErrMissing is returned when Tesseract cannot be run.
var ErrMissing = errors.New("tesseract is not installed (apt-get install tesseract-ocr tesseract-ocr-eng)")

// Box is a top-left box in the caller's units.
type Box struct {
	X, Y, W, H float64
}

// Word is one word Tesseract read, at or above the confidence floor.
type Word struct {
	Text string
	Conf float64
	Box  Box
}

// Line is the words of one line Tesseract found, in reading order.
type Line struct {
	Text  string
	Conf  float64 // the mean of its words' confidences
	Box   Box
	Words []Word
}

// Options shape one read.
type Options struct {
	// Scale is image pixels per caller unit (2 when a canvas was shot at
	// twice its CSS size); boxes are divided by it. 0 means 1.
	Scale float64
	// MinConf overrides MinConfidence when above 0.
	MinConf float64
	// Lang is Tesseract's language (default "eng").
	Lang string
	// PSM is Tesseract's page segmentation mode: 0 means 11 (sparse
	// text, a chart's scattered labels); a scanned page reads better
	// with 3 (a page of columns and paragraphs).
	PSM int
	// DPI is the image's resolution when known (a rendered PDF page):
	// Tesseract otherwise guesses it from the text's size.
	DPI int
}

// Result is a read: the lines kept, and what was dropped.
type Result struct {
	Lines   []Line
	Dropped int // words under the confidence floor
}

// versionWait bounds `tesseract --version`.
const versionWait = 10 * time.Second

// versions caches Version per command (SIEVE_TESSERACT may change in tests).
var versions sync.Map // command → versionOf

type versionOf struct {
	once sync.Once
	v    string
	err  error
}

// Version is Tesseract's version line ("tesseract 5.3.0"), or ErrMissing.
func Version() (string, error) {
	cmd := Command()
	e, _ := versions.LoadOrStore(cmd, &versionOf{})
	vo := e.(*versionOf)
	vo.once.Do(func() {
		// Not the caller's context: a page's render timeout running out
		// during this first call must not be cached as "not installed"
		// for the process's life.
		vctx, cancel := context.WithTimeout(context.Background(), versionWait)
		defer cancel()
		out, err := exec.CommandContext(vctx, cmd, "--version").CombinedOutput()
		if err != nil {
			vo.err = fmt.Errorf("%w: %v", ErrMissing, err)
			return
		}
		line, _, _ := strings.Cut(strings.TrimSpace(string(out)), "\n")
		vo.v = strings.TrimSpace(line)
	})
	return vo.v, vo.err
}

// Read runs Tesseract on png (any image Leptonica reads: PNG, or a BMP)
// and returns its lines. Tesseract runs with
// one thread (OMP_THREAD_LIMIT=1): callers already read pages in
// parallel, and its own threads only fight them for the cores.
func Read(ctx context.Context, png []byte, o Options) (*Result, error) {
	if _, err := Version(); err != nil {
		return nil, err
	}
	in, done := inputFile(png)
	defer done()
	psm := strconv.Itoa(cmp.Or(o.PSM, 11))
	args := []string{in, "stdout", "-l", cmp.Or(o.Lang, "eng"), "--psm", psm}
	if o.DPI > 0 {
		args = append(args, "--dpi", strconv.Itoa(o.DPI))
	}
	cmd := exec.CommandContext(ctx, Command(), append(args, "tsv")...)
	if in == "stdin" {
		cmd.Stdin = bytes.NewReader(png)
	}
	cmd.Env = append(os.Environ(), "OMP_THREAD_LIMIT=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("tesseract: %v: %s", err, strings.TrimSpace(stderr.String()))
	}
	return ParseTSV(out, o)
}

// inputFile is the image as Tesseract's input argument: a temporary file
// (a page read from standard input took some 6 % more of Tesseract's CPU
// time than from a file, measured on a 200 dpi scan), or "stdin" when no
// file can be written; done removes the file.
func inputFile(img []byte) (string, func()) {
	f, err := os.CreateTemp("", "sieve-ocr-*")
	if err != nil {
		return "stdin", func() {}
	}
	name := f.Name()
	_, err = f.Write(img)
	if cerr := f.Close(); err != nil || cerr != nil {
		os.Remove(name)
		return "stdin", func() {}
	}
	return name, func() { os.Remove(name) }
}

// tsvWord is one level-5 row of Tesseract's TSV.
type tsvWord struct {
	block, par, line int
	Word
}

// ParseTSV turns Tesseract's TSV output into lines in reading order.
func ParseTSV(tsv []byte, o Options) (*Result, error) {
	scale := o.Scale
	if scale <= 0 {
		scale = 1
	}
	floor := float64(MinConfidence)
	if o.MinConf > 0 {
		floor = o.MinConf
	}
	res := &Result{}
	var words []tsvWord
	for i, row := range strings.Split(string(tsv), "\n") {
		f := strings.Split(strings.TrimRight(row, "\r"), "\t")
		if i == 0 || len(f) < 12 || f[0] != "5" {
			continue // the header, and page/block/paragraph/line rows
		}
		n, err := atoi(f[2], f[3], f[4], f[6], f[7], f[8], f[9])
		if err != nil {
			return nil, fmt.Errorf("tesseract tsv line %d: %v", i+1, err)
		}
		conf, err := strconv.ParseFloat(f[10], 64)
		if err != nil {
			return nil, fmt.Errorf("tesseract tsv line %d: %v", i+1, err)
		}
		text := strings.TrimSpace(f[11])
		if text == "" {
			continue
		}
		if conf < floor {
			res.Dropped++
			continue
		}
		b := Box{X: float64(n[3]) / scale, Y: float64(n[4]) / scale, W: float64(n[5]) / scale, H: float64(n[6]) / scale}
		words = append(words, tsvWord{block: n[0], par: n[1], line: n[2], Word: Word{Text: text, Conf: conf, Box: b}})
	}
	res.Lines = lines(words)
	return res, nil
}

func atoi(ss ...string) ([]int, error) {
	out := make([]int, len(ss))
	for i, s := range ss {
		v, err := strconv.Atoi(s)
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

// lines groups words by Tesseract's (block, paragraph, line) and sorts the
// lines top to bottom, then left to right: sparse-text mode (--psm 11)
// finds a chart's scattered labels but numbers its blocks in no
// particular order.
func lines(words []tsvWord) []Line {
	type key struct{ block, par, line int }
	idx := map[key]int{}
	var out []Line
	for _, w := range words {
		k := key{w.block, w.par, w.line}
		i, ok := idx[k]
		if !ok {
			i = len(out)
			idx[k] = i
			out = append(out, Line{})
		}
		out[i].Words = append(out[i].Words, w.Word)
	}
	for i := range out {
		finish(&out[i])
	}
	return sortLines(out)
}

// sortLines sorts lines top to bottom, then left to right.
func sortLines(out []Line) []Line {
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i].Box, out[j].Box
		if sameRow(a, b) {
			return a.X < b.X
		}
		return a.Y < b.Y
	})
	return out
}

// sameRow reports whether two line boxes overlap vertically by more than
// half the shorter one.
func sameRow(a, b Box) bool {
	overlap := math.Min(a.Y+a.H, b.Y+b.H) - math.Max(a.Y, b.Y)
	return overlap > 0.5*math.Min(a.H, b.H)
}

// finish sets a line's text, box and confidence from its words.
func finish(l *Line) {
	sort.SliceStable(l.Words, func(i, j int) bool { return l.Words[i].Box.X < l.Words[j].Box.X })
	texts := make([]string, len(l.Words))
	x0, y0, x1, y1 := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	sum := 0.0
	for i, w := range l.Words {
		texts[i] = w.Text
		x0, y0 = math.Min(x0, w.Box.X), math.Min(y0, w.Box.Y)
		x1, y1 = math.Max(x1, w.Box.X+w.Box.W), math.Max(y1, w.Box.Y+w.Box.H)
		sum += w.Conf
	}
	l.Text = strings.Join(texts, " ")
	l.Box = Box{X: x0, Y: y0, W: x1 - x0, H: y1 - y0}
	l.Conf = sum / float64(len(l.Words))
}
