#!/usr/bin/env bash
# bench-ocr.sh — issue 25's OCR figures (docs/BENCH.md, "OCR: canvases and
# scanned PDFs"):
#   1. word accuracy of canvas_ocr by font, size, tilt and contrast (the
#      canvas tests' logs, real Chromium);
#   2. scanned PDFs (ocrtest.Report, 150/200/300 dpi, skew, noise) read by
#      sieve's capture against `tesseract` alone on the very pixels sieve
#      hands it, taking turns: CPU and wall ms/page, ratios, sieve's own
#      work over Tesseract's (own/tess-cpu), word accuracy of each;
#   3. canvases: sieve's read (one Tesseract run, tilted lines straightened
#      in Go first) against `tesseract` alone on the same PNG: CPU and wall
#      ms, ratios, lines read exactly and words of each;
#   4. the optional peer: ocrmypdf + pdftotext on the same scans (ms and CPU
#      ms a page, word accuracy), skipped with a line saying so when either
#      is not installed.
# RUNS (default 3) runs of each benchmark (-count), one iteration each.
set -euo pipefail
cd "$(dirname "$0")/.."
GO=${GO:-go}
RUNS=${RUNS:-3}
export OMP_THREAD_LIMIT=1

echo "== canvas_ocr word accuracy"
$GO test -count 1 -v -run 'TestCanvasOCRFontsSizesTiltAndContrast|TestCanvasOCRReadsTextInReadingOrder' ./capture |
	grep -E 'accuracy|^(---|ok|FAIL)'

echo "== scanned pages: sieve against tesseract alone, same pixels"
$GO test -run '^$' -bench 'BenchmarkScanOCRSieveVsTesseract' -benchtime 1x -count "$RUNS" ./capture |
	grep -E '^(Benchmark|ok|FAIL)'

echo "== canvases: sieve against tesseract alone, same PNG"
$GO test -run '^$' -bench 'BenchmarkOCRCanvasSieveVsTesseract' -benchtime 1x -count "$RUNS" ./internal/ocr |
	grep -E '^(Benchmark|ok|FAIL)'

echo "== peer: ocrmypdf + pdftotext, same scans"
missing=""
for tool in ocrmypdf pdftotext; do
	command -v "$tool" >/dev/null || missing="$missing $tool"
done
if [ -n "$missing" ]; then
	echo "ocrmypdf + pdftotext: NOT RUN, not installed:$missing (apt-get install ocrmypdf poppler-utils)"
else
	echo "$(ocrmypdf --version 2>/dev/null | head -1 | sed 's/^/ocrmypdf /'), $(pdftotext -v 2>&1 | head -1)"
	$GO test -run '^$' -bench 'BenchmarkScanOCRmyPDF' -benchtime 1x -count "$RUNS" ./capture |
		grep -E '^(Benchmark|ok|FAIL)'
fi
