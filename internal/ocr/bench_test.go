package ocr

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// make bench-ocr: a canvas read as capture does it (VisibleGray, then
// ReadImage) against `tesseract` alone on the same PNG with the same
// flags, taking turns so both see the same load: what sieve adds is the
// PNG decode, the faint-text erasure, finding the lines of text in the
// pixels and straightening the tilted ones, the crop to the ink, the BMP
// and the TSV parse; Tesseract runs once either way. Wall and CPU time
// (this process's and its Tesseract children's user+system) per canvas,
// and what each read right: lines read exactly and words (of the lines
// drawn, each read word counted once).
// testdata/lines.png is a 900 × 420 canvas shot at 2× (level lines),
// testdata/tilted.png a 900 × 560 one (lines turned 1–5°).

var benchCanvases = []string{"lines", "tilted"}

func BenchmarkOCRCanvasSieveVsTesseract(b *testing.B) {
	for _, name := range benchCanvases {
		b.Run(name, func(b *testing.B) {
			png := benchPNG(b, name)
			var sieve, alone spent
			var read *Result
			var bare []byte // parsed after the timing: Tesseract alone stops at its TSV
			for i := range b.N {
				one := func() { sieve.add(func() { read = readCanvas(b, png) }) }
				other := func() { alone.add(func() { bare = tesseractAlone(b, png) }) }
				if i%2 == 1 {
					one, other = other, one // neither always goes first
				}
				one()
				other()
			}
			n := float64(b.N)
			b.ReportMetric(sieve.wall.Seconds()*1000/n, "sieve-ms/canvas")
			b.ReportMetric(alone.wall.Seconds()*1000/n, "tess-ms/canvas")
			b.ReportMetric(sieve.cpu.Seconds()*1000/n, "sieve-cpu-ms/canvas")
			b.ReportMetric(alone.cpu.Seconds()*1000/n, "tess-cpu-ms/canvas")
			b.ReportMetric(sieve.wall.Seconds()/alone.wall.Seconds(), "wall-ratio")
			b.ReportMetric(sieve.cpu.Seconds()/alone.cpu.Seconds(), "cpu-ratio")
			want := benchWant(name)
			lines, words, all := score(read, want)
			b.ReportMetric(float64(lines), "sieve-lines-exact")
			b.ReportMetric(float64(words)/float64(all), "sieve-words")
			alone1, err := ParseTSV(bare, Options{Scale: 2})
			if err != nil {
				b.Fatal(err)
			}
			lines, words, _ = score(alone1, want)
			b.ReportMetric(float64(lines), "tess-lines-exact")
			b.ReportMetric(float64(words)/float64(all), "tess-words")
		})
	}
}

func readCanvas(b *testing.B, png []byte) *Result {
	pixels, err := VisibleGray(png)
	if err != nil {
		b.Fatal(err)
	}
	res, err := ReadImage(context.Background(), pixels, Options{Scale: 2})
	if err != nil {
		b.Fatal(err)
	}
	return res
}

func tesseractAlone(b *testing.B, png []byte) []byte {
	cmd := exec.Command(Command(), "stdin", "stdout", "-l", "eng", "--psm", "11", "tsv")
	cmd.Env = append(os.Environ(), "OMP_THREAD_LIMIT=1")
	cmd.Stdin = bytes.NewReader(png)
	out, err := cmd.Output()
	if err != nil {
		b.Fatal(err)
	}
	return out
}

// benchWant is the text drawn on a bench canvas, a line each.
func benchWant(name string) []string {
	var want []string
	if name == "tilted" {
		for _, l := range tiltedLines {
			want = append(want, l.text)
		}
		return want
	}
	for _, l := range fixtureLines {
		want = append(want, l.text)
	}
	return want
}

// score is how many lines of want a read has exactly, how many of their
// words it has (each read word counted once), and the words of want.
func score(r *Result, want []string) (lines, words, all int) {
	have := map[string]int{}
	got := map[string]bool{}
	for _, l := range r.Lines {
		got[l.Text] = true
		for _, w := range l.Words {
			have[w.Text]++
		}
	}
	for _, l := range want {
		if got[l] {
			lines++
		}
		for _, w := range strings.Fields(l) {
			all++
			if have[w] > 0 {
				have[w]--
				words++
			}
		}
	}
	return lines, words, all
}

// spent sums the wall time and the CPU time of this process and its
// waited-for children (Tesseract) over some calls.
type spent struct{ wall, cpu time.Duration }

func (s *spent) add(f func()) {
	c0, t0 := cpuTime(), time.Now()
	f()
	s.wall += time.Since(t0)
	s.cpu += cpuTime() - c0
}

func cpuTime() time.Duration {
	var self, kids syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &self)
	_ = syscall.Getrusage(syscall.RUSAGE_CHILDREN, &kids)
	return time.Duration(self.Utime.Nano() + self.Stime.Nano() + kids.Utime.Nano() + kids.Stime.Nano())
}

func benchPNG(b *testing.B, name string) []byte {
	if _, err := Version(); err != nil {
		b.Skip("OCR BENCH NOT RUN: ", err)
	}
	png, err := os.ReadFile("testdata/" + name + ".png")
	if err != nil {
		b.Fatal(err)
	}
	return png
}
