package eef

import (
	"bytes"
	"slices"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/sieve-dev/sieve/internal/c14n"
)

// TestPayloadListsChunks: the payload lists the chunks (SPEC.md §4.1),
// each entry the same as its chunks.jsonl line (id, pages, elements,
// section, text hash, token estimate), so the document fingerprint binds
// every chunk; a chunk of another text would not match its entry.
func TestPayloadListsChunks(t *testing.T) {
	for _, rec := range []string{"docs", "article", "blocked"} {
		b, files := build(t, load(t, rec))
		pl := gjson.GetBytes(files[FileDocument], "payload.chunks")
		if !pl.IsArray() {
			t.Fatalf("%s: payload.chunks is %s, want an array", rec, pl.Raw)
		}
		entries := pl.Array()
		lines := bytes.Split(bytes.TrimSuffix(files[FileChunks], []byte("\n")), []byte("\n"))
		if len(files[FileChunks]) == 0 {
			lines = nil
		}
		if len(entries) != len(lines) || len(entries) != len(b.Chunks) {
			t.Fatalf("%s: %d payload chunks, %d chunk lines", rec, len(entries), len(lines))
		}
		for i, e := range entries {
			line := gjson.ParseBytes(lines[i])
			for _, k := range [][2]string{{"id", "chunk_id"}, {"element_refs", "element_refs"}, {"page_refs", "page_refs"},
				{"sieve_section_id", "sieve_section_id"}, {"text_sha256", "text_sha256"}, {"token_estimate", "token_estimate"}} {
				if e.Get(k[0]).Raw != line.Get(k[1]).Raw {
					t.Errorf("%s chunk %d: payload %s %s, line %s %s", rec, i, k[0], e.Get(k[0]).Raw, k[1], line.Get(k[1]).Raw)
				}
			}
			if h := c14n.Fingerprint([]byte(line.Get("text").String())); h != e.Get("text_sha256").String() {
				t.Errorf("%s chunk %d: text hashes to %s, payload says %s", rec, i, h, e.Get("text_sha256").String())
			}
		}
		// The fingerprint covers the list: another chunk budget changes
		// the chunks, the payload and the fingerprint.
		if len(entries) > 1 {
			cfg := DefaultConfig()
			cfg.ChunkTokenBudget = 1
			other, err := Build(load(t, rec), cfg)
			if err != nil {
				t.Fatal(err)
			}
			if other.Document.PayloadSHA256 == b.Document.PayloadSHA256 {
				t.Errorf("%s: payload_sha256 does not change with the chunks", rec)
			}
		}
	}
}

// TestProfileUnitFollowsDocument: one profile serves both unit systems
// without claiming either: it says the unit is the document's, and the
// document says css_px for a web page and pt for a PDF. No PDF bundle
// carries a profile that says css_px.
func TestProfileUnitFollowsDocument(t *testing.T) {
	for _, c := range []struct {
		name string
		doc  []byte
		unit string
	}{
		{"web page", func() []byte { _, f := build(t, load(t, "docs")); return f[FileDocument] }(), "css_px"},
		{"pdf", func() []byte { _, f := build(t, pdfGraph(t)); return f[FileDocument] }(), "pt"},
	} {
		if u := gjson.GetBytes(c.doc, "payload.coordinate_system.unit").String(); u != c.unit {
			t.Errorf("%s: document unit %q, want %q", c.name, u, c.unit)
		}
		if p := gjson.GetBytes(c.doc, "profile.sha256").String(); p != c14n.ProfileSHA256() {
			t.Errorf("%s: profile.sha256 %s, want %s", c.name, p, c14n.ProfileSHA256())
		}
	}
	prof := c14n.Profile()
	if bytes.Contains(prof, []byte("css_px")) || bytes.Contains(prof, []byte(`"pt"`)) {
		t.Errorf("the profile names a fixed unit: %s", prof)
	}
	cp := gjson.GetBytes(prof, "coordinate_profile")
	if cp.Get("unit").String() != "document" || cp.Get("unit_declared_by").String() != "payload.coordinate_system.unit" {
		t.Errorf("coordinate_profile %s: want the unit to be the document's", cp.Raw)
	}
	if !slices.Contains([]string{"integer_document_units_rounded_half_away_from_zero"}, gjson.GetBytes(prof, "quantization.coordinates").String()) {
		t.Errorf("quantization %s", gjson.GetBytes(prof, "quantization").Raw)
	}
}
