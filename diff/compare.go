package diff

import (
	"strings"

	"github.com/sieve-dev/sieve/graph"
	"github.com/sieve-dev/sieve/internal/record"
)

// Thresholds of the similarity (shared keys over all keys, 0..1) above
// which an unmatched pair is one thing changed rather than one removed and
// one added.
const (
	renameSimilarity = 0.5 // a section's body, by block
	editSimilarity   = 0.3 // a block's text, by word
)

// window is how many unmatched old sections (or blocks) after the last
// pairing a new one is compared with, which keeps a gap's pairing linear.
const window = 8

// Compare diffs old against new.
func Compare(old, new *Doc) *Report {
	r := &Report{
		SchemaVersion: record.SchemaVersion,
		Old:           side(old), New: side(new),
		Sections: []Entry{}, Latent: compareLatent(old.Latent, new.Latent),
		blocks: map[string]string{}, sections: map[string]string{},
	}
	if old.Outcome != new.Outcome {
		r.Outcome = &Outcome{Old: old.Outcome, New: new.Outcome}
	}
	r.Status = StatusUnchanged
	if old.ContentHash == new.ContentHash && r.Outcome == nil {
		r.Summary.Unchanged = len(new.Sections)
		zipIDs(r, old.Sections, new.Sections)
		return r
	}
	r.Status = StatusChanged
	c := &comparison{keys: map[string]int32{}, r: r}
	c.sections(old.Sections, new.Sections)
	return r
}

// zipIDs maps the ids of two reads with equal content: the same sections
// and blocks in the same order (their positional block ids may differ when
// chrome moved).
func zipIDs(r *Report, old, new []Section) {
	for i := range old {
		if i >= len(new) {
			return
		}
		r.sections[old[i].ID] = new[i].ID
		for j := range old[i].Blocks {
			if j < len(new[i].Blocks) {
				r.blocks[old[i].Blocks[j].ID] = new[i].Blocks[j].ID
			}
		}
	}
}

func side(d *Doc) Side {
	s := Side{URL: d.URL, FinalURL: d.FinalURL, Outcome: d.Outcome, ContentHash: d.ContentHash,
		SourceFingerprint: d.SourceFingerprint, DistilledAt: d.DistilledAt, Sections: len(d.Sections)}
	for _, sec := range d.Sections {
		s.Blocks += len(sec.Blocks)
	}
	return s
}

// comparison interns keys (section ids, block keys, words) to small ints
// for the sequence alignment.
type comparison struct {
	keys map[string]int32
	r    *Report
}

func (c *comparison) intern(k string) int32 {
	id, ok := c.keys[k]
	if !ok {
		id = int32(len(c.keys))
		c.keys[k] = id
	}
	return id
}

// sections aligns the sections by id: those on the longest common
// subsequence are in place, other id matches moved. Between two in-place
// sections, an old and a new section without an id match are one section
// renamed when their bodies are alike (in order), else removed and added.
func (c *comparison) sections(old, new []Section) {
	a, b := make([]int32, len(old)), make([]int32, len(new))
	oldAt := map[string]int{}
	for i, s := range old {
		a[i], oldAt[s.ID] = c.intern("s\x00"+s.ID), i
	}
	newAt := map[string]int{}
	for j, s := range new {
		b[j], newAt[s.ID] = c.intern("s\x00"+s.ID), j
	}
	ps, coarse := align(a, b)
	c.r.Coarse = c.r.Coarse || coarse
	i, j := 0, 0
	for _, p := range append(ps, pair{len(old), len(new)}) {
		c.gap(old, new, i, p.a, j, p.b, oldAt, newAt)
		if p.a < len(old) {
			c.pair(&old[p.a], &new[p.b], p.a, p.b, Changed)
		}
		i, j = p.a+1, p.b+1
	}
}

// gap reports old[i0:i1] and new[j0:j1], between two in-place sections.
func (c *comparison) gap(old, new []Section, i0, i1, j0, j1 int, oldAt, newAt map[string]int) {
	var lone []int // old sections with no id match
	for i := i0; i < i1; i++ {
		if _, ok := newAt[old[i].ID]; !ok {
			lone = append(lone, i)
		}
	}
	renamed := map[int]int{} // new index → old index
	k := 0
	for j := j0; j < j1 && k < len(lone); j++ {
		if _, ok := oldAt[new[j].ID]; ok {
			continue
		}
		for t := k; t < len(lone) && t < k+window; t++ {
			if c.similar(old[lone[t]].Blocks, new[j].Blocks) >= renameSimilarity {
				renamed[j], k = lone[t], t+1
				break
			}
		}
	}
	paired := map[int]bool{}
	for _, i := range renamed {
		paired[i] = true
	}
	for _, i := range lone {
		if !paired[i] {
			c.add(Entry{Change: Removed, OldID: old[i].ID, OldTitle: old[i].Title, OldIndex: i, NewIndex: -1, Level: old[i].Level, Size: len(old[i].Blocks)})
		}
	}
	for j := j0; j < j1; j++ {
		if i, ok := renamed[j]; ok {
			c.pair(&old[i], &new[j], i, j, Renamed)
		} else if i, ok := oldAt[new[j].ID]; ok {
			c.pair(&old[i], &new[j], i, j, Moved)
		} else {
			c.add(Entry{Change: Added, NewID: new[j].ID, NewTitle: new[j].Title, OldIndex: -1, NewIndex: j, Level: new[j].Level, Size: len(new[j].Blocks)})
		}
	}
}

// pair reports a section found on both sides: as change when it was
// renamed or moved, or when its body or level differ.
func (c *comparison) pair(o, n *Section, i, j int, change string) {
	c.r.sections[o.ID] = n.ID
	blocks := c.blocks(o.Blocks, n.Blocks)
	if change == Changed && len(blocks) == 0 && o.Level == n.Level && o.Title == n.Title {
		c.r.Summary.Unchanged++
		return
	}
	c.add(Entry{Change: change, OldID: o.ID, NewID: n.ID, OldTitle: o.Title, NewTitle: n.Title,
		OldIndex: i, NewIndex: j, Level: n.Level, Size: len(n.Blocks), Blocks: blocks})
}

func (c *comparison) add(e Entry) {
	if e.Blocks == nil {
		e.Blocks = []BlockChange{}
	}
	switch e.Change {
	case Added:
		c.r.Summary.Added++
	case Removed:
		c.r.Summary.Removed++
	case Renamed:
		c.r.Summary.Renamed++
	case Moved:
		c.r.Summary.Moved++
	default:
		c.r.Summary.Changed++
	}
	c.r.Sections = append(c.r.Sections, e)
}

// similar is the share of block keys two bodies have in common; two empty
// bodies are alike.
func (c *comparison) similar(a, b []Block) float64 {
	if len(a)+len(b) == 0 {
		return 1
	}
	count := map[string]int{}
	for i := range a {
		count[a[i].key()]++
	}
	common := 0
	for i := range b {
		if k := b[i].key(); count[k] > 0 {
			count[k]--
			common++
		}
	}
	return 2 * float64(common) / float64(len(a)+len(b))
}

// blocks aligns two bodies by block key; between matches, an old and a new
// block of the same type whose words are alike (in order) are one block
// edited, the rest removed and added.
func (c *comparison) blocks(old, new []Block) []BlockChange {
	a, b := make([]int32, len(old)), make([]int32, len(new))
	for i := range old {
		a[i] = c.intern("b\x00" + old[i].key())
	}
	for j := range new {
		b[j] = c.intern("b\x00" + new[j].key())
	}
	ps, coarse := align(a, b)
	c.r.Coarse = c.r.Coarse || coarse
	out := []BlockChange{}
	i, j := 0, 0
	for _, p := range append(ps, pair{len(old), len(new)}) {
		out = c.blockGap(out, old[i:p.a], new[j:p.b])
		if p.a < len(old) {
			c.r.blocks[old[p.a].ID] = new[p.b].ID
		}
		i, j = p.a+1, p.b+1
	}
	return out
}

func (c *comparison) blockGap(out []BlockChange, old, new []Block) []BlockChange {
	k := 0
	for j := range new {
		n := &new[j]
		edited := false
		for t := k; t < len(old) && t < k+window; t++ {
			o := &old[t]
			if o.Type != n.Type || wordSimilarity(o.Text, n.Text) < editSimilarity {
				continue
			}
			for ; k < t; k++ {
				out = append(out, removedBlock(&old[k]))
			}
			out = append(out, c.edited(o, n))
			k, edited = t+1, true
			break
		}
		if !edited {
			out = append(out, BlockChange{Change: Added, Type: n.Type, NewID: n.ID, NewText: n.Text, Words: []Word{}, Cells: []CellChange{}})
		}
	}
	for ; k < len(old); k++ {
		out = append(out, removedBlock(&old[k]))
	}
	return out
}

func removedBlock(o *Block) BlockChange {
	return BlockChange{Change: Removed, Type: o.Type, OldID: o.ID, OldText: o.Text, Words: []Word{}, Cells: []CellChange{}}
}

func (c *comparison) edited(o, n *Block) BlockChange {
	c.r.blocks[o.ID] = n.ID
	words, coarse := c.words(o.Text, n.Text)
	c.r.Coarse = c.r.Coarse || coarse
	return BlockChange{Change: Edited, Type: n.Type, OldID: o.ID, NewID: n.ID, OldText: o.Text, NewText: n.Text,
		Words: words, Cells: cells(o.Rows, n.Rows)}
}

// cells lists the cells of the new table whose text differs from the old
// table's cell at the same row and column (or that the old one lacks).
func cells(old, new [][]string) []CellChange {
	out := []CellChange{}
	for r, row := range new {
		for col, text := range row {
			prev := ""
			if r < len(old) && col < len(old[r]) {
				prev = old[r][col]
			}
			if prev != text {
				out = append(out, CellChange{Row: r, Column: col, Old: prev, New: text})
			}
		}
	}
	return out
}

// words is the word-level diff of two texts, runs of the same operation
// joined by single spaces.
func (c *comparison) words(old, new string) ([]Word, bool) {
	ow, nw := strings.Fields(old), strings.Fields(new)
	a, b := make([]int32, len(ow)), make([]int32, len(nw))
	for i, w := range ow {
		a[i] = c.intern("w\x00" + w)
	}
	for j, w := range nw {
		b[j] = c.intern("w\x00" + w)
	}
	ps, coarse := align(a, b)
	out := []Word{}
	push := func(op, w string) {
		if n := len(out); n > 0 && out[n-1].Op == op {
			out[n-1].Text += " " + w
			return
		}
		out = append(out, Word{Op: op, Text: w})
	}
	i, j := 0, 0
	for _, p := range append(ps, pair{len(ow), len(nw)}) {
		for ; i < p.a; i++ {
			push(WordDelete, ow[i])
		}
		for ; j < p.b; j++ {
			push(WordInsert, nw[j])
		}
		if p.a < len(ow) {
			push(WordEqual, ow[p.a])
		}
		i, j = p.a+1, p.b+1
	}
	return out, coarse
}

// wordSimilarity is the share of words two texts have in common (as a
// multiset); two empty texts are alike.
func wordSimilarity(a, b string) float64 {
	aw, bw := strings.Fields(a), strings.Fields(b)
	if len(aw)+len(bw) == 0 {
		return 1
	}
	count := make(map[string]int, len(aw))
	for _, w := range aw {
		count[w]++
	}
	common := 0
	for _, w := range bw {
		if count[w] > 0 {
			count[w]--
			common++
		}
	}
	return 2 * float64(common) / float64(len(aw)+len(bw))
}

// compareLatent lists the latent texts of new that old lacks and the
// reverse, as multisets of (text, reason): ids are positional, so they
// do not say which entry is which.
func compareLatent(old, new []graph.Latent) LatentSet {
	s := LatentSet{Added: only(new, old), Removed: only(old, new)}
	s.Changed = len(s.Added)+len(s.Removed) > 0
	return s
}

func only(xs, ys []graph.Latent) []LatentEntry {
	have := map[string]int{}
	for _, y := range ys {
		have[y.Reason+"\x00"+y.Text]++
	}
	out := []LatentEntry{}
	for _, x := range xs {
		k := x.Reason + "\x00" + x.Text
		if have[k] > 0 {
			have[k]--
			continue
		}
		out = append(out, LatentEntry{ID: x.ID, Trust: graph.TrustMarker, Text: x.Text, Reason: x.Reason, SectionID: x.SectionID})
	}
	return out
}
