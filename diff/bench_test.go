package diff

import (
	"fmt"
	"testing"

	"github.com/sieve-dev/sieve/anchor"
	"github.com/sieve-dev/sieve/evidence/ground"
	"github.com/sieve-dev/sieve/verify"
)

// bigDoc is a page of sections×perSection paragraphs; salt changes every
// block's text (a page rewritten throughout).
func bigDoc(sections, perSection int, salt string) *Doc {
	d := &Doc{URL: "http://bench.test/", Outcome: "ok", ContentHash: "sha256:" + salt}
	for s := 0; s < sections; s++ {
		sec := Section{ID: fmt.Sprintf("s_%010x", s), Title: fmt.Sprintf("Section %d", s), Level: 2}
		for b := 0; b < perSection; b++ {
			blk := Block{ID: fmt.Sprintf("b_%03d", s*perSection+b), Type: "paragraph",
				Text: fmt.Sprintf("Paragraph %d of section %d says something %s about the plan.", b, s, salt)}
			blk.hash = blk.key()
			sec.Blocks = append(sec.Blocks, blk)
		}
		d.Sections = append(d.Sections, sec)
	}
	return d
}

// editedDoc is d with one block in a hundred edited, one section in fifty
// moved to the end and one in a hundred removed.
func editedDoc(d *Doc) *Doc {
	n := &Doc{URL: d.URL, Outcome: d.Outcome, ContentHash: d.ContentHash + "x"}
	var moved []Section
	for s, sec := range d.Sections {
		if s%100 == 99 {
			continue
		}
		c := Section{ID: sec.ID, Title: sec.Title, Level: sec.Level, Blocks: append([]Block(nil), sec.Blocks...)}
		for b := range c.Blocks {
			if (s*len(c.Blocks)+b)%100 == 7 {
				c.Blocks[b].Text += " Now with more."
				c.Blocks[b].hash = ""
				c.Blocks[b].hash = c.Blocks[b].key()
			}
		}
		if s%50 == 3 {
			moved = append(moved, c)
			continue
		}
		n.Sections = append(n.Sections, c)
	}
	n.Sections = append(n.Sections, moved...)
	return n
}

// BenchmarkDiff diffs pages of 1k to 100k blocks: edited (a realistic
// re-read), rewritten (every block changed: the bounded path) and
// one_section (all the blocks in one body).
func BenchmarkDiff(b *testing.B) {
	for _, blocks := range []int{1000, 10000, 100000} {
		cases := map[string]func() (*Doc, *Doc){
			"edited": func() (*Doc, *Doc) { d := bigDoc(blocks/100, 100, "a"); return d, editedDoc(d) },
			"rewritten": func() (*Doc, *Doc) {
				return bigDoc(blocks/100, 100, "a"), bigDoc(blocks/100, 100, "b")
			},
			"one_section": func() (*Doc, *Doc) { d := bigDoc(1, blocks, "a"); return d, editedDoc(d) },
		}
		for _, name := range []string{"edited", "rewritten", "one_section"} {
			build := cases[name]
			b.Run(fmt.Sprintf("%s/blocks=%d", name, blocks), func(b *testing.B) {
				old, new := build()
				b.ReportAllocs()
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					Compare(old, new)
				}
			})
		}
	}
}

// benchSource is d as a grounding source: one element per block (its
// native id the block id), in reading order, with its section.
func benchSource(d *Doc) ground.Source {
	var els []ground.Element
	for _, s := range d.Sections {
		for _, b := range s.Blocks {
			els = append(els, ground.Element{ID: fmt.Sprintf("e%06d", len(els)+1), NativeID: b.ID, PageRef: "p0001",
				Type: b.Type, Text: b.Text, SectionID: s.ID})
		}
	}
	return ground.NewSource(ground.Identity{Parser: "bench", Version: "0", Format: ground.FormatEthos},
		ground.Capabilities{CoordinateOrigin: "none", Limits: []ground.Limit{}}, []ground.Page{{ID: "p0001"}}, els, nil, nil)
}

// benchClaims quotes n blocks of the source spread over the page; located,
// each names its element too (the id carry moves to the new document).
func benchClaims(src ground.Source, n int, located bool) ([]verify.Claim, []anchor.Ref) {
	els := src.Elements()
	claims := make([]verify.Claim, n)
	refs := make([]anchor.Ref, n)
	for i := range claims {
		e := els[(i*7919)%len(els)]
		id := fmt.Sprintf("c%d", i)
		claims[i] = verify.Claim{ClaimID: id, Kind: verify.KindQuote, Text: e.Text}
		refs[i] = anchor.Ref{EvidenceID: id, Kind: anchor.KindText, Text: e.Text}
		if located {
			claims[i].Locator = &verify.Locator{Element: e.ID}
			refs[i].ElementRef = e.ID
		}
	}
	return claims, refs
}

// BenchmarkCarry carries quoted claims and evidence-anchor refs from a
// page of 1k to 100k blocks to its edited version (editedDoc), the
// verifier's indexes of both documents built in each run: claims/s.
// quotes are 10k claims by their text alone; located 1k claims that also
// name their element.
func BenchmarkCarry(b *testing.B) {
	for _, blocks := range []int{1000, 10000, 100000} {
		old := bigDoc(blocks/100, 100, "a")
		new := editedDoc(old)
		d := Compare(old, new)
		so, sn := benchSource(old), benchSource(new)
		for _, c := range []struct {
			name    string
			n       int
			located bool
		}{{"quotes", 10_000, false}, {"located", 1_000, true}} {
			claims, refs := benchClaims(so, c.n, c.located)
			b.Run(fmt.Sprintf("claims/%s/blocks=%d", c.name, blocks), func(b *testing.B) {
				b.ReportAllocs()
				var r *CarryReport
				for b.Loop() {
					r = Carry(so, sn, verify.Citations{Claims: claims}, d)
				}
				b.ReportMetric(float64(c.n*b.N)/b.Elapsed().Seconds(), "claims/s")
				if r.Summary.StillGrounded < c.n*9/10 {
					b.Fatalf("only %d of %d claims still grounded: %+v", r.Summary.StillGrounded, c.n, r.Summary)
				}
			})
			b.Run(fmt.Sprintf("anchors/%s/blocks=%d", c.name, blocks), func(b *testing.B) {
				b.ReportAllocs()
				var r *AnchorCarryReport
				for b.Loop() {
					r = CarryAnchors(so, sn, refs, d)
				}
				b.ReportMetric(float64(c.n*b.N)/b.Elapsed().Seconds(), "refs/s")
				if r.Summary.StillGrounded < c.n*9/10 {
					b.Fatalf("only %d of %d refs still grounded: %+v", r.Summary.StillGrounded, c.n, r.Summary)
				}
			})
		}
	}
}
