package graph

import (
	_ "embed"
	"encoding/json"
	"math"
	"sync"
	"unicode"
	"unicode/utf8"
)

// The block model: small gradient-boosted trees over what the rules
// already know about a block (their own decision among them), trained by
// `make train` (bench/quality/train) on the five evaluation sets of
// ../shared/bench; model.json ships without trees (the rules decide:
// held out, the trained model did not beat them, docs/QUALITY.md). With trees it has the last word on a
// block's role: the rules are tuned on two sets, the model learns where
// their decision does not carry over. Features are per block, from the
// container's element statistics and the neighbouring blocks: linear in
// the blocks, and each tree is a few comparisons.

//go:embed model.json
var modelJSON []byte

// BlockModel is a boosted-tree classifier: the log-odds that a block is
// content is Base plus one leaf per tree. It is model.json's shape; the
// trainer (bench/quality/train) fills one and writes it.
type BlockModel struct {
	Features []string `json:"features"` // must equal FeatureNames, in order
	Depth    int      `json:"depth"`
	Base     float64  `json:"base"`
	// Margin is how sure the model must be to overrule the rules: a
	// log-odds beyond ±Margin.
	Margin float64     `json:"margin"`
	Trees  []ModelTree `json:"trees"`
	Notes  string      `json:"notes,omitempty"`
	Params ModelParams `json:"params"`
}

// ModelParams records how the model was trained, for the reader.
type ModelParams struct {
	Trees, Depth, Bins  int
	Rate, Lambda, MinHW float64
	Sets                []string
	Rows                int
}

// ModelTree is a complete binary tree of Depth levels: inner node k tests
// x[Feature[k]] <= Threshold[k] (yes: child 2k+1, no: 2k+2); the leaves
// follow the inner nodes in Leaf.
type ModelTree struct {
	Feature   []int     `json:"f"`
	Threshold []float32 `json:"t"`
	Leaf      []float32 `json:"v"`
}

// defaultModel is model.json, parsed once; nil when the file holds no
// trees (the rules alone decide).
var defaultModel = sync.OnceValue(func() *BlockModel { return loadModel(modelJSON) })

func loadModel(data []byte) *BlockModel {
	var m BlockModel
	if err := json.Unmarshal(data, &m); err != nil {
		panic("graph: model.json: " + err.Error())
	}
	if len(m.Trees) == 0 {
		return nil
	}
	if len(m.Features) != len(FeatureNames) {
		panic("graph: model.json was trained on other features: run make train")
	}
	for i, f := range FeatureNames {
		if m.Features[i] != f {
			panic("graph: model.json was trained on other features: run make train")
		}
	}
	return &m
}

// Score is the model's log-odds that a block with features x is content.
func (m *BlockModel) Score(x []float32) float64 {
	s := m.Base
	inner := 1<<m.Depth - 1
	for i := range m.Trees {
		t := &m.Trees[i]
		k := 0
		for k < inner {
			if x[t.Feature[k]] <= t.Threshold[k] {
				k = 2*k + 1
			} else {
				k = 2*k + 2
			}
		}
		s += float64(t.Leaf[k-inner])
	}
	return s
}

// Content is the model's decision on one block as the graph takes it: a
// block it does not judge, or one it is not sure of (log-odds within
// ±Margin), keeps the rules' decision.
func (m *BlockModel) Content(r ModelRow) bool {
	if !r.Decided {
		return r.Rule
	}
	switch s := m.Score(r.Features); {
	case s > m.Margin:
		return true
	case s < -m.Margin:
		return false
	}
	return r.Rule
}

// FeatureNames name the block features, in the order of a feature row.
var FeatureNames = []string{
	"rule_content", "log_chars", "link_density", "paragraph", "heading", "list_item", "quote_code", "table_media",
	"heading_level", "position", "chars_before", "in_container", "zone_chrome", "zone_weak", "zone_main_article",
	"class_weight", "commas_per_100", "ends_sentence", "prev_rule", "next_rule", "prev_link_density",
	"next_link_density", "prev_log_chars", "next_log_chars", "parent_link_density", "grandparent_share",
	"similar_siblings", "container_share", "prose_distance", "prose", "content_before", "in_list", "in_table",
	"levels_to_container", "common_share", "parent_prose", "grandparent_link_density", "container_link_density",
	"text_share", "after_first_content", "before_last_content",
}

const (
	fRule = iota
	fLogChars
	fLinkDensity
	fParagraph
	fHeading
	fListItem
	fQuoteCode
	fTableMedia
	fLevel
	fPosition
	fCharsBefore
	fInContainer
	fZoneChrome
	fZoneWeak
	fZoneMain
	fClassWeight
	fCommas
	fEndsSentence
	fPrevRule
	fNextRule
	fPrevLD
	fNextLD
	fPrevChars
	fNextChars
	fParentLD
	fGrandShare
	fSimilar
	fContainerShare
	fProseDistance
	fProse
	fContentBefore
	fInList
	fInTable
	fLevelsUp
	fCommonShare
	fParentProse
	fGrandLD
	fContainerLD
	fTextShare
	fAfterFirst
	fBeforeLast
	numFeatures
)

// features is one row per block, from the rules' decision (Role already
// set) and the container's element statistics. Unless all, only the
// blocks the model judges get the features that look up the tree.
func (b *builder) features(c *container, all bool) [][]float32 {
	n := len(b.blocks)
	rows := make([][]float32, n)
	flat := make([]float32, n*numFeatures)
	chars := make([]int, n)
	total, content := 0, 0
	for i := range b.blocks {
		chars[i] = utf8.RuneCountInString(b.blocks[i].Text)
		total += chars[i]
		if b.blocks[i].Role == "content" {
			content += chars[i]
		}
	}
	dist := b.proseDistance()
	first, last := -1, -1
	for i := range b.blocks {
		if b.blocks[i].Role == "content" {
			last = i
			if first < 0 {
				first = i
			}
		}
	}
	before, contentBefore := 0, 0
	for i := range b.blocks {
		d := &b.blocks[i]
		x := flat[i*numFeatures : (i+1)*numFeatures : (i+1)*numFeatures]
		rows[i] = x
		b.ownFeatures(x, d, chars[i])
		x[fPosition] = float32(i) / float32(n)
		x[fCharsBefore] = frac(before, total)
		x[fContentBefore] = frac(contentBefore, content)
		x[fProseDistance] = float32(min(dist[i], 20))
		x[fTextShare] = frac(chars[i], total)
		if first >= 0 {
			x[fAfterFirst] = float32(max(min(i-first, 20), -20))
			x[fBeforeLast] = float32(max(min(last-i, 20), -20))
		}
		before += chars[i]
		if d.Role == "content" {
			contentBefore += chars[i]
		}
		if i > 0 {
			x[fPrevRule], x[fPrevLD], x[fPrevChars] = b.neighbour(i-1, chars[i-1])
		}
		if i+1 < n {
			x[fNextRule], x[fNextLD], x[fNextChars] = b.neighbour(i+1, chars[i+1])
		}
		if all || modelDecides(d) {
			b.treeFeatures(x, c, d)
		}
	}
	return rows
}

// ownFeatures are what a block says about itself.
func (b *builder) ownFeatures(x []float32, d *draft, chars int) {
	x[fRule] = bool01(d.Role == "content")
	x[fLogChars] = float32(math.Log1p(float64(chars)))
	x[fLinkDensity] = frac(d.linkChars, chars)
	switch d.Type {
	case TypeParagraph:
		x[fParagraph] = 1
	case TypeHeading:
		x[fHeading], x[fLevel] = 1, float32(d.Level)
	case TypeListItem:
		x[fListItem] = 1
	case TypeQuote, TypeCode:
		x[fQuoteCode] = 1
	case TypeTable, TypeMedia:
		x[fTableMedia] = 1
	}
	z := d.zone
	x[fZoneChrome] = bool01(z.chrome != "")
	x[fZoneWeak] = bool01(z.weak)
	x[fZoneMain] = bool01(z.main || z.article)
	x[fCommas] = frac(100*commas(d.Text), chars)
	x[fEndsSentence] = bool01(endsSentence(d.Text))
	x[fProse] = bool01(isProse(d))
}

// treeFeatures are what the elements around a block say: the container,
// link density and text share of its parent and grandparent, class/id
// words up its ancestry, and how many siblings look like its own
// ancestors (the items of a carousel, a teaser rail or a menu).
func (b *builder) treeFeatures(x []float32, c *container, d *draft) {
	t := b.t
	if d.node < 0 {
		return
	}
	if c.node >= 0 {
		x[fInContainer] = bool01(c.holds(t, d.node))
		x[fContainerShare] = frac(int(c.stats[c.node].chars), c.total)
		x[fContainerLD] = float32(c.linkDensity(c.node))
		up, common := c.common(t, d.node)
		x[fLevelsUp] = float32(min(up, 10))
		x[fCommonShare] = frac(int(c.stats[common].chars), int(c.stats[c.node].chars))
	}
	if p := t.nodes[d.node].Parent; p >= 0 {
		x[fParentLD] = float32(c.linkDensity(p))
		x[fParentProse] = frac(int(c.stats[p].prose), int(c.stats[p].chars))
		if g := t.nodes[p].Parent; g >= 0 {
			x[fGrandShare] = frac(int(c.stats[g].chars), c.total)
			x[fGrandLD] = float32(c.linkDensity(g))
		}
	}
	w, similar := 0.0, 0
	for a, level := d.node, 0; a >= 0 && level < 5; a, level = t.nodes[a].Parent, level+1 {
		w += b.classWeightOf(a) / 25
		similar = max(similar, b.similarSiblings(a))
		switch t.nodes[a].Tag {
		case "li", "dd":
			x[fInList] = 1
		case "td", "th":
			x[fInTable] = 1
		}
	}
	x[fClassWeight] = float32(w)
	x[fSimilar] = float32(math.Log1p(float64(similar)))
}

// classWeightOf is classWeight of element i's class/id words, computed
// once per element: the blocks of one box share their ancestors.
func (b *builder) classWeightOf(i int) float64 {
	if w, ok := b.weights[i]; ok {
		return w
	}
	if b.weights == nil {
		b.weights = make(map[int]float64)
	}
	w := classWeight(b.t.tokens[i])
	b.weights[i] = w
	return w
}

// common is the lowest element holding both node i and the container, and
// how many levels above i it is (0: i lies in the container).
func (c *container) common(t *tree, i int) (up, anc int) {
	a, b := i, c.node
	for c.depth[a] > c.depth[b] {
		a, up = t.nodes[a].Parent, up+1
	}
	for c.depth[b] > c.depth[a] {
		b = t.nodes[b].Parent
	}
	for a != b && a >= 0 && b >= 0 {
		a, b, up = t.nodes[a].Parent, t.nodes[b].Parent, up+1
	}
	if a < 0 {
		return up, c.node
	}
	if a == c.node || c.inside(t, a, c.node) {
		return 0, a
	}
	return up, a
}

// similarSiblings counts the siblings of element i with its tag and class
// (i itself included): a rail of fifteen cards is fifteen such siblings.
// Each parent's children are counted once per page.
func (b *builder) similarSiblings(i int) int {
	t := b.t
	p := t.nodes[i].Parent
	if p < 0 {
		return 0
	}
	if n, ok := b.similar[i]; ok {
		return int(n)
	}
	if b.similar == nil {
		b.similar = make(map[int]int32)
	}
	counts := make(map[[2]string]int32, len(t.children[p]))
	for _, s := range t.children[p] {
		counts[[2]string{t.nodes[s].Tag, t.nodes[s].Attrs["class"]}]++
	}
	for _, s := range t.children[p] {
		b.similar[s] = min(counts[[2]string{t.nodes[s].Tag, t.nodes[s].Attrs["class"]}], maxSimilar)
	}
	return int(b.similar[i])
}

// maxSimilar bounds the sibling count a feature sees.
const maxSimilar = 64

// neighbour is the rule decision, link density and log length of block i.
func (b *builder) neighbour(i, chars int) (rule, ld, logChars float32) {
	d := &b.blocks[i]
	return bool01(d.Role == "content"), frac(d.linkChars, chars), float32(math.Log1p(float64(chars)))
}

// proseDistance is, per block, how many blocks away the nearest prose
// block the rules kept is (n when there is none).
func (b *builder) proseDistance() []int {
	n := len(b.blocks)
	dist := make([]int, n)
	last := -n
	for i := range b.blocks {
		if d := &b.blocks[i]; d.Role == "content" && isProse(d) {
			last = i
		}
		dist[i] = i - last
	}
	last = 2 * n
	for i := n - 1; i >= 0; i-- {
		if d := &b.blocks[i]; d.Role == "content" && isProse(d) {
			last = i
		}
		dist[i] = min(dist[i], last-i)
	}
	return dist
}

// applyModel lets the block model decide every block with text: a block
// the rules kept whose score says chrome goes, one they dropped whose
// score says content comes back.
func (b *builder) applyModel(m *BlockModel, c *container) {
	if m == nil || len(b.blocks) == 0 {
		return
	}
	rows := b.features(c, false)
	for i := range b.blocks {
		d := &b.blocks[i]
		if !modelDecides(d) {
			continue
		}
		s := m.Score(rows[i])
		switch {
		case s > m.Margin && d.Role != "content":
			d.Role, d.Chrome, d.Reason = "content", "", "the block model keeps it (the rules said "+d.Reason+")"
		case s < -m.Margin && d.Role == "content":
			d.Role, d.Chrome, d.Reason = "chrome", "model", "the block model drops it (its text, links and surroundings look like chrome)"
		}
	}
}

// modelDecides reports whether the model judges block d: text of
// modelMinWords words or more, not an image's, whose rules' decision is
// overrulable. What a block's own text or a strong signal says (a rights
// notice, a bare URL, a repeat, a form, a landmark, a rail) stands. Shorter lines
// (a date, a "Share") are too short to tell from their words where a
// labelled example came from; the rules keep them.
func modelDecides(d *draft) bool {
	if d.Type == TypeMedia || !overrulable(d) {
		return false
	}
	n, in := 0, false
	for _, r := range d.Text {
		w := unicode.IsLetter(r) || unicode.IsNumber(r)
		if w && !in {
			if n++; n >= modelMinWords {
				return true
			}
		}
		in = w
	}
	return false
}

// overrulable reports whether the rules' decision on d rests on where it
// sits or on link density: kept in the container or <main>, dropped
// outside it, dropped as a link list or under a weak class/id word.
func overrulable(d *draft) bool {
	switch d.Chrome {
	case "", "outside_content", "outside_main", "link_list":
		return true
	}
	return d.Chrome == d.zone.chrome && d.zone.byClass && d.zone.weak
}

// modelMinWords is the fewest words of a block the model judges.
const modelMinWords = 4

func endsSentence(s string) bool {
	for i := len(s); i > 0; {
		r, size := utf8.DecodeLastRuneInString(s[:i])
		i -= size
		switch r {
		case ' ', '\n', '\t', '"', '\'', '”', '’', ')', '»':
			continue
		case '.', '!', '?', '…', '。', '！', '？':
			return true
		}
		return false
	}
	return false
}

func frac(a, b int) float32 {
	if b <= 0 {
		return 0
	}
	return float32(a) / float32(b)
}

func bool01(v bool) float32 {
	if v {
		return 1
	}
	return 0
}
