package ocr

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"testing"
)

// make bench-ocr: the canvas read as capture does it (testdata/lines.png,
// a 900 × 420 canvas shot at 2×: Visible, then Read) against `tesseract`
// alone on the same PNG with the same flags: what sieve adds is the PNG
// decode, the faint-text erasure and the TSV parse.

func BenchmarkOCRReadCanvas(b *testing.B) {
	png := benchPNG(b)
	for range b.N {
		pixels, err := Visible(png)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := Read(context.Background(), pixels, Options{Scale: 2}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/canvas")
}

func BenchmarkOCRTesseractAloneCanvas(b *testing.B) {
	png := benchPNG(b)
	for range b.N {
		cmd := exec.Command(Command(), "stdin", "stdout", "-l", "eng", "--psm", "11", "tsv")
		cmd.Env = append(os.Environ(), "OMP_THREAD_LIMIT=1")
		cmd.Stdin = bytes.NewReader(png)
		if err := cmd.Run(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/canvas")
}

func benchPNG(b *testing.B) []byte {
	if _, err := Version(); err != nil {
		b.Skip("OCR BENCH NOT RUN: ", err)
	}
	png, err := os.ReadFile("testdata/lines.png")
	if err != nil {
		b.Fatal(err)
	}
	return png
}
