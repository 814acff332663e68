package diff

import (
	"fmt"
	"testing"
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
