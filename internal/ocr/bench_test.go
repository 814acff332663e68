package ocr

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"testing"
)

// make bench-ocr: a canvas read as capture does it (VisibleGray, then
// ReadImage) against `tesseract` alone on the same PNG with the same
// flags: what sieve adds is the PNG decode, the faint-text erasure, the
// TSV parse and, on a canvas with tilted lines, their straight re-read.
// testdata/lines.png is a 900 × 420 canvas shot at 2× (level lines),
// testdata/tilted.png a 900 × 560 one (lines turned 1–5°).

var benchCanvases = []string{"lines", "tilted"}

func BenchmarkOCRReadCanvas(b *testing.B) {
	for _, name := range benchCanvases {
		b.Run(name, func(b *testing.B) {
			png := benchPNG(b, name)
			for range b.N {
				pixels, err := VisibleGray(png)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := ReadImage(context.Background(), pixels, Options{Scale: 2}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/canvas")
		})
	}
}

func BenchmarkOCRTesseractAloneCanvas(b *testing.B) {
	for _, name := range benchCanvases {
		b.Run(name, func(b *testing.B) {
			png := benchPNG(b, name)
			for range b.N {
				cmd := exec.Command(Command(), "stdin", "stdout", "-l", "eng", "--psm", "11", "tsv")
				cmd.Env = append(os.Environ(), "OMP_THREAD_LIMIT=1")
				cmd.Stdin = bytes.NewReader(png)
				if err := cmd.Run(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/canvas")
		})
	}
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
