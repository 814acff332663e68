package diff

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/tidwall/gjson"

	"github.com/sieve-dev/sieve/evidence/eef"
	"github.com/sieve-dev/sieve/graph"
	"github.com/sieve-dev/sieve/internal/codec"
)

// ErrNotDocument is returned for bytes that are neither a sieve graph
// (content.json, graph records) nor a document.ethos.json.
var ErrNotDocument = errors.New("neither content.json, a graph record nor document.ethos.json")

// Resolve names the file read for path: a file as it is; for a directory,
// its content.json, else its evidence/document.ethos.json, else its
// document.ethos.json. A directory holding exactly one artifact below it
// (sieve distill --out DIR writes DIR/<host>/<slug>/) resolves to that one.
func Resolve(path string) (string, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return "", err
	}
	if !fi.IsDir() {
		return path, nil
	}
	for _, name := range []string{"content.json", filepath.Join("evidence", "document.ethos.json"), "document.ethos.json"} {
		if _, err := os.Stat(filepath.Join(path, name)); err == nil {
			return filepath.Join(path, name), nil
		}
	}
	found, _ := filepath.Glob(filepath.Join(path, "*", "*", "content.json"))
	sort.Strings(found)
	if len(found) == 1 {
		return found[0], nil
	}
	if len(found) > 1 {
		return "", fmt.Errorf("%s holds %d artifacts; name one", path, len(found))
	}
	return "", fmt.Errorf("%s holds no content.json or document.ethos.json", path)
}

// Parse reads a Doc from the bytes of content.json, a graph record file
// (its first record with blocks) or document.ethos.json.
func Parse(b []byte) (*Doc, error) {
	b = bytes.TrimSpace(b)
	first := b
	if !gjson.ValidBytes(b) {
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			first = b[:i]
		}
	}
	switch {
	case gjson.GetBytes(first, "artifact_type").Str == eef.TypeDocument:
		return fromEthos(b)
	case gjson.ValidBytes(b) && gjson.GetBytes(b, "blocks").IsArray():
		return fromGraph(b)
	}
	for _, line := range bytes.Split(b, []byte("\n")) {
		if gjson.GetBytes(line, "blocks").IsArray() {
			return fromGraph(line)
		}
	}
	return nil, ErrNotDocument
}

func fromGraph(b []byte) (*Doc, error) {
	var rec graph.Record
	if err := codec.Unmarshal(b, &rec); err != nil {
		return nil, fmt.Errorf("graph: %w", err)
	}
	return FromRecord(&rec), nil
}

// FromRecord is the Doc of a graph record already decoded (a crawl's
// page, an MCP store's content.json). Its sections are new slices; the
// record is not changed.
func FromRecord(rec *graph.Record) *Doc {
	secs := make([]Section, len(rec.Sections))
	for i, s := range rec.Sections {
		secs[i] = Section{ID: s.ID, Title: s.Title, Level: s.Level}
	}
	return &Doc{
		URL: rec.URL, FinalURL: rec.FinalURL, Outcome: rec.Outcome.Status,
		ContentHash: rec.ContentHash, SourceFingerprint: rec.SourceFingerprint,
		DistilledAt: rec.DistilledAt, Sections: group(secs, rec.Blocks), Latent: rec.Latent,
	}
}

// fromEthos reads the document's elements as graph blocks. content_hash
// is not in the document; it is recomputed from the elements (the same
// inputs: type, level and text of the content blocks in order).
func fromEthos(b []byte) (*Doc, error) {
	var doc eef.Document
	if err := codec.Unmarshal(b, &doc); err != nil {
		return nil, fmt.Errorf("document.ethos.json: %w", err)
	}
	p := &doc.Payload
	secs := make([]Section, len(p.Sections))
	for i, s := range p.Sections {
		secs[i] = Section{ID: s.SieveSectionID, Title: s.Title, Level: s.Level}
	}
	tables := map[string]*eef.Table{}
	for i := range p.Tables {
		tables[p.Tables[i].ElementRef] = &p.Tables[i]
	}
	blocks := make([]graph.Block, len(p.Elements))
	for i, e := range p.Elements {
		blocks[i] = graph.Block{ID: e.SieveBlockID, Type: e.Type, Level: e.Level, Text: e.Text, Role: e.Role, SectionID: e.SieveSectionID}
		if t := tables[e.ID]; t != nil {
			blocks[i].Rows = tableRows(t)
		}
	}
	latent := make([]graph.Latent, len(p.Latent))
	for i, l := range p.Latent {
		latent[i] = graph.Latent{ID: l.SieveLatentID, Trust: l.Trust, Text: l.Text, Reason: l.Reason, Rule: l.Rule, SectionID: l.SieveSectionID}
	}
	d := &Doc{
		URL: doc.Source.URL, FinalURL: doc.Source.FinalURL,
		ContentHash: graph.ContentHash(blocks), Sections: group(secs, blocks), Latent: latent,
	}
	if doc.Source.Fingerprint != nil {
		d.SourceFingerprint = *doc.Source.Fingerprint
	}
	if doc.Runtime != nil {
		d.Outcome = doc.Runtime.Outcome
	}
	return d, nil
}

func tableRows(t *eef.Table) [][]graph.Cell {
	rows := make([][]graph.Cell, t.Rows)
	for r := range rows {
		rows[r] = make([]graph.Cell, t.Columns)
	}
	for _, c := range t.Cells {
		if c.Row < t.Rows && c.Column < t.Columns {
			rows[c.Row][c.Column].Text = c.Text
		}
	}
	return rows
}
