package mcp

import (
	"testing"

	"github.com/sieve-dev/sieve/graph"
)

// TestBlockOutSource: a reading tool's block says when its text was OCR'd
// (or read off a canvas otherwise), and says nothing for document text.
func TestBlockOutSource(t *testing.T) {
	for src, want := range map[string]string{"pdf_ocr": "pdf_ocr", "canvas_ocr": "canvas_ocr", "canvas_scene": "canvas_scene", "dom": "", "static": "", "pdf": ""} {
		if got := toBlockOut(graph.Block{ID: "b_001", Source: src}).Source; got != want {
			t.Errorf("source %q: block source %q, want %q", src, got, want)
		}
	}
}
