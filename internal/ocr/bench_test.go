package ocr

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"
)

// make bench-ocr: a canvas read as capture does it (VisibleGray, then
// ReadImage) against `tesseract` alone on the same PNG with the same
// flags, taking turns so both see the same load: what sieve adds is the
// PNG decode, the faint-text erasure, the BMP, the TSV parse and, on a
// canvas with tilted lines, their straight re-read. Wall and CPU time
// (this process's and its Tesseract children's user+system) per canvas.
// testdata/lines.png is a 900 × 420 canvas shot at 2× (level lines),
// testdata/tilted.png a 900 × 560 one (lines turned 1–5°).

var benchCanvases = []string{"lines", "tilted"}

func BenchmarkOCRCanvasSieveVsTesseract(b *testing.B) {
	for _, name := range benchCanvases {
		b.Run(name, func(b *testing.B) {
			png := benchPNG(b, name)
			var sieve, alone spent
			for i := range b.N {
				one := func() { sieve.add(func() { readCanvas(b, png) }) }
				other := func() { alone.add(func() { tesseractAlone(b, png) }) }
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
		})
	}
}

func readCanvas(b *testing.B, png []byte) {
	pixels, err := VisibleGray(png)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := ReadImage(context.Background(), pixels, Options{Scale: 2}); err != nil {
		b.Fatal(err)
	}
}

func tesseractAlone(b *testing.B, png []byte) {
	cmd := exec.Command(Command(), "stdin", "stdout", "-l", "eng", "--psm", "11", "tsv")
	cmd.Env = append(os.Environ(), "OMP_THREAD_LIMIT=1")
	cmd.Stdin = bytes.NewReader(png)
	if err := cmd.Run(); err != nil {
		b.Fatal(err)
	}
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
