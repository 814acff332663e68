// Package diff compares two reads of one page: `sieve diff OLD NEW`. OLD
// and NEW are artifact directories, content.json (or graph record) files or
// evidence bundles' document.ethos.json. The report says whether the
// outcome changed, which sections were added, removed, renamed, changed or
// moved (by stable section id), and within a changed section which blocks
// were added, removed or edited, with a word-level diff of each edit.
// Latent (hidden) text is compared on its own and reported only with its
// trust marker, never mixed into the visible diff.
//
// The comparison is over content blocks only, as content_hash is: chrome,
// ids of blocks, URLs and timing are outside it. Equal content hashes (and
// outcomes) are "unchanged". Sequences are aligned by a Myers diff bounded
// in its edit distance, falling back to unique anchors (patience) and
// beyond those to a coarse result, so a page of 100k blocks diffs in
// near-linear time; the same inputs give the same bytes.
package diff

import "github.com/sieve-dev/sieve/graph"

// Doc is one read of a page as diff sees it: its identity, outcome and
// content sections in reading order, and its latent text.
type Doc struct {
	URL               string
	FinalURL          string
	Outcome           string // graph.Status*
	ContentHash       string
	SourceFingerprint string
	DistilledAt       string
	Sections          []Section
	Latent            []graph.Latent
}

// Section is a content section: its heading and its body, the content
// blocks after the heading up to the next one.
type Section struct {
	ID     string
	Title  string
	Level  int
	Blocks []Block
}

// Block is one content block. Rows holds a table's cell texts.
type Block struct {
	ID    string
	Type  string
	Level int
	Text  string
	Rows  [][]string
	hash  string // key(), computed when the block is read
}

// key is what makes two blocks the same for the diff: what content_hash
// covers of one block (type, level, text with date-times masked).
func (b *Block) key() string {
	if b.hash != "" {
		return b.hash
	}
	return graph.ContentHash([]graph.Block{{Type: b.Type, Level: b.Level, Text: b.Text, Role: "content"}})
}

// group puts content blocks into their sections, in the order the
// sections are listed; the heading that opens a section is its title, not
// part of its body. Sections without a content block are left out.
func group(sections []Section, blocks []graph.Block) []Section {
	at := make(map[string]int, len(sections))
	for i := range sections {
		at[sections[i].ID] = i
	}
	headed := make([]bool, len(sections))
	content := make([]bool, len(sections))
	for _, b := range blocks {
		i, ok := at[b.SectionID]
		if !ok || b.Role != "content" {
			continue
		}
		content[i] = true
		if b.Type == graph.TypeHeading && sections[i].Level > 0 && !headed[i] {
			headed[i] = true
			continue
		}
		sections[i].Blocks = append(sections[i].Blocks, blockOf(b))
	}
	out := sections[:0]
	for i, s := range sections {
		if content[i] {
			out = append(out, s)
		}
	}
	return out
}

func blockOf(b graph.Block) Block {
	out := Block{ID: b.ID, Type: b.Type, Level: b.Level, Text: b.Text}
	out.hash = out.key()
	for _, row := range b.Rows {
		r := make([]string, len(row))
		for i, c := range row {
			r[i] = c.Text
		}
		out.Rows = append(out.Rows, r)
	}
	return out
}
