package graph

import (
	"fmt"
	"math"
	"net/url"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/language"

	"github.com/sieve-dev/sieve/internal/markers"
	"github.com/sieve-dev/sieve/internal/record"
	"github.com/sieve-dev/sieve/internal/version"
	"github.com/sieve-dev/sieve/normalize"
)

// Build makes the content graph of one normalized page. It is a pure
// function of its input: the same record gives the same graph.
func Build(rec *normalize.Record) *Record { return BuildWith(rec, Limits{}) }

// BuildWith is Build under the budgets of lim.
func BuildWith(rec *normalize.Record, lim Limits) *Record {
	b, visible, c := classified(rec, lim)
	b.applyModel(defaultModel(), &c)
	t := b.t

	g := &Record{
		Record:            record.KindGraph,
		SchemaVersion:     record.SchemaVersion,
		URL:               rec.URL,
		FinalURL:          rec.FinalURL,
		Title:             pageTitle(rec, b.blocks),
		Lang:              pageLang(rec.Doc.Lang),
		DistilledAt:       rec.Capture.Timing.StartedAt,
		SourceFingerprint: rec.Capture.SourceFingerprint,
		PDF:               pdfInfo(rec),
		Security:          rec.Doc.Security,
		Gaps:              []Gap{},
		Structured:        map[string]any{},
	}
	g.Blocks = finishBlocks(b.slab[:len(b.blocks)])
	b.blocks, b.slab = nil, nil // the blocks are the slab: no whole-page copy
	g.Sections = assignSections(g.Blocks)
	if g.Sections == nil {
		g.Sections = []Section{}
	}
	g.Links, g.Actions, g.MediaAll, g.Latent = b.finishRefs(g.Blocks)
	if isPDF(rec) {
		pdfPlace(g.Blocks, rec.Nodes)
		g.Links = append(g.Links, pdfLinks(g)...)
	}
	g.ContentHash = ContentHash(g.Blocks)
	g.Summary = summary(rec, g.Blocks)

	var notes []string
	var ldNotes []string
	g.Structured, g.FAQ, ldNotes = structuredData(rec.Doc.JSONLD)
	g.Byline, g.Published = pageByline(rec, t, g.Structured), pagePublished(rec, t, g.Structured)
	g.Gaps = append(g.Gaps, b.gaps...)
	sig := &signals{rec: rec, visibleText: visible, visibleChars: runes(visible),
		contentChars: contentChars(g.Blocks), passwords: countPasswords(t), forms: countForms(g.Actions),
		mountEmpty: emptyMount(t)}
	var outcomeNotes []string
	g.Outcome, outcomeNotes = decideOutcome(sig)
	cut := budgetGaps(len(rec.Nodes), rec.Stats.CutNodes, b)
	if rec.Capture.Truncated {
		// The size cap is a cut like the budgets': partial, with its gap.
		cut = append(cut, Gap{Label: "end of document", Kind: "truncated",
			Reason: fmt.Sprintf("the body is longer than the size cap of %d bytes (--max-bytes): the rest of the document was not read", rec.Capture.BodyBytes)})
		notes = append(notes, "the served document was truncated at the capture size cap")
	}
	g.Gaps = append(g.Gaps, cut...)
	outcomeNotes = append(outcomeNotes, budgetOutcome(&g.Outcome, cut)...)
	if gap, ok := entryGap(rec.Doc.Title, g.Outcome); ok {
		g.Gaps = append(g.Gaps, gap)
	}
	pdfOCR(g, rec)
	pdfUnmapped(g, rec)
	if rec.Doc.RootHidden != "" {
		notes = append(notes, "the page hides itself until a script runs ("+rec.Doc.RootHidden+"); a loading state, so its text is read as shown, not as hidden")
	}
	notes = append(notes, outcomeNotes...)
	notes = append(notes, ldNotes...)
	g.Counts, g.Stats = counts(g, rec, t)
	g.Audit = audit(g, rec, t, visible, notes)
	applyRender(g, rec)
	g.Provenance = provenance(rec)
	g.Guidance = guidance(g)
	return g
}

// classified walks the page into blocks and labels them by the rules,
// returning the builder, the page's visible text and the main-content
// container.
func classified(rec *normalize.Record, lim Limits) (*builder, string, container) {
	t := newTree(rec.Nodes)
	b := &builder{t: t, base: rec.FinalURL, jsonld: rec.Doc.JSONLD, pdf: isPDF(rec),
		budget: budget{maxBlocks: lim.blocks(), maxLatent: lim.latent()}}
	b.run()
	visible, inMain := visibleText(t)
	share := 0.0
	if total := runes(visible); total > 0 {
		share = float64(inMain) / float64(total)
	}
	return b, visible, b.classify(share)
}

// ModelRow is one block as the block model sees it: its text and type,
// the rules' decision and its feature row (FeatureNames).
type ModelRow struct {
	Text     string
	Type     string
	Rule     bool
	Decided  bool // the model judges this block (else the rules' decision stands)
	Features []float32
}

// ModelRows are the page's blocks, labelled by the rules alone, with
// their features: what bench/quality/train learns the block model from.
func ModelRows(rec *normalize.Record) []ModelRow {
	b, _, c := classified(rec, Limits{})
	feats := b.features(&c, true)
	rows := make([]ModelRow, len(b.blocks))
	for i := range b.blocks {
		d := &b.blocks[i]
		rows[i] = ModelRow{Text: d.Text, Type: d.Type, Rule: d.Role == "content", Decided: modelDecides(d), Features: feats[i]}
	}
	return rows
}

// finishBlocks numbers the blocks (the drafts' slab, in order) in place.
// When most of the slab is unused (room reserved for text nodes that made
// no block: white space, inline runs), the blocks are copied out so that
// the record does not hold it.
func finishBlocks(bs []Block) []Block {
	for i := range bs {
		bs[i].ID = blockID("b_", i)
	}
	if 2*len(bs) < cap(bs) {
		return append(make([]Block, 0, len(bs)), bs...)
	}
	return bs[:len(bs):len(bs)]
}

func blockID(prefix string, i int) string {
	s := strconv.Itoa(i)
	for len(s) < 3 {
		s = "0" + s
	}
	return prefix + s
}

// finishRefs gives links, actions, media and latent entries their ids,
// sections, blocks and roles.
func (b *builder) finishRefs(blocks []Block) ([]Link, []Action, []Media, []Latent) {
	role := func(block int, z zone, pos int) string {
		if block >= 0 && block < len(blocks) {
			return blocks[block].Role
		}
		if z.chrome != "" {
			return "chrome"
		}
		return "content"
	}
	blockRef := func(block int) string {
		if block >= 0 && block < len(blocks) {
			return blocks[block].ID
		}
		return ""
	}
	links := make([]Link, 0, len(b.links))
	for _, l := range b.links {
		x := l.Link
		x.SectionID, x.BlockID, x.Role = sectionAt(blocks, l.pos), blockRef(l.block), role(l.block, l.zone, l.pos)
		links = append(links, x)
	}
	actions := make([]Action, 0, len(b.actions))
	for i, a := range b.actions {
		x := a.Action
		x.ID = blockID("a_", i)
		x.SectionID, x.BlockID, x.Role = sectionAt(blocks, a.pos), blockRef(a.block), role(a.block, a.zone, a.pos)
		actions = append(actions, x)
	}
	media := make([]Media, 0, len(b.media))
	for i, m := range b.media {
		x := m.Media
		x.ID = blockID("m_", i)
		x.SectionID, x.BlockID, x.Role = sectionAt(blocks, m.pos), blockRef(m.block), role(m.block, m.zone, m.pos)
		media = append(media, x)
	}
	// A media block names the first media entry tied to it (one pass:
	// block ids are unique, so an entry's block index is its block).
	var named []bool
	for j, m := range b.media {
		k := m.block
		if k < 0 || k >= len(blocks) || blocks[k].Type != TypeMedia {
			continue
		}
		if named == nil {
			named = make([]bool, len(blocks))
		}
		if !named[k] {
			blocks[k].MediaID, named[k] = media[j].ID, true
		}
	}
	latent := make([]Latent, 0, len(b.latent))
	for i, l := range b.latent {
		x := l.Latent
		if len(l.more) > 0 {
			x.Text += string(l.more)
		}
		x.ID = blockID("l_", i)
		x.SectionID = sectionAt(blocks, l.pos)
		latent = append(latent, x)
	}
	return links, actions, media, latent
}

// visibleText joins all visible text of the page in document order and
// counts how much of it lies inside <main>.
func visibleText(t *tree) (string, int) {
	var sb strings.Builder
	size := 0
	for i := range t.nodes {
		size += len(t.nodes[i].Text) + 2
	}
	sb.Grow(size)
	inMain := 0
	var walk func(i int, main bool)
	walk = func(i int, main bool) {
		n := &t.nodes[i]
		if t.hidden(i) {
			return
		}
		if n.Tag == "#text" {
			sb.WriteString(n.Text)
			if main {
				inMain += utf8.RuneCountInString(strings.TrimSpace(n.Text))
			}
			return
		}
		if n.Tag == "head" || n.Tag == "select" || n.Tag == "option" || n.Tag == "textarea" {
			return
		}
		main = main || n.Tag == "main" || n.Role == "main"
		block := !t.inline[i]
		if block {
			sb.WriteByte(' ')
		}
		for _, c := range t.children[i] {
			walk(c, main)
		}
		if block {
			sb.WriteByte(' ')
		}
	}
	for _, r := range t.roots {
		walk(r, false)
	}
	return cleanInline(sb.String()), inMain
}

func pageTitle(rec *normalize.Record, blocks []draft) string {
	if rec.Doc.Title != "" {
		return strings.TrimSpace(rec.Doc.Title)
	}
	for _, b := range blocks {
		if b.Type == TypeHeading {
			return b.Text
		}
	}
	return ""
}

func pageLang(s string) string {
	s = strings.TrimSpace(strings.ReplaceAll(s, "_", "-"))
	if s == "" {
		return ""
	}
	tag, err := language.Parse(s)
	if err != nil {
		return ""
	}
	return tag.String()
}

// summary is one or two sentences taken from the page: its meta
// description when it has one, else the first substantial content
// paragraph.
func summary(rec *normalize.Record, blocks []Block) string {
	for _, k := range []string{"description", "og:description", "twitter:description"} {
		if d := strings.TrimSpace(rec.Doc.Meta[k]); d != "" {
			return sentences(d, 2)
		}
	}
	for _, b := range blocks {
		if b.Role == "content" && b.Type == TypeParagraph && runes(b.Text) >= 40 {
			return sentences(b.Text, 2)
		}
	}
	return ""
}

// sentences returns the first n sentences of s, at most 400 bytes.
func sentences(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	end := 0
	for i := 0; i < n; i++ {
		k := sentenceEnd(s[end:])
		if k < 0 {
			end = len(s)
			break
		}
		end += k
	}
	s = strings.TrimSpace(s[:end])
	if len(s) > 400 {
		s = excerpt(s, 397)
		if i := strings.LastIndexByte(s, ' '); i > 200 {
			s = s[:i]
		}
		s += "…"
	}
	return s
}

func sentenceEnd(s string) int {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '.', '!', '?':
			if i+1 == len(s) || s[i+1] == ' ' {
				return i + 1
			}
		}
	}
	return -1
}

func contentChars(blocks []Block) int {
	n := 0
	for _, b := range blocks {
		if b.Role == "content" && b.Type != TypeForm {
			n += runes(b.Text)
		}
	}
	return n
}

func countPasswords(t *tree) int {
	n := 0
	for i := range t.nodes {
		if t.nodes[i].Tag == "input" && strings.EqualFold(t.nodes[i].Attrs["type"], "password") && !t.hidden(i) {
			n++
		}
	}
	return n
}

func countForms(actions []Action) int {
	n := 0
	for _, a := range actions {
		if a.Kind == "form" {
			n++
		}
	}
	return n
}

// emptyMount describes the first application mount point with no visible
// text under it, or "".
func emptyMount(t *tree) string {
	for i := range t.nodes {
		n := &t.nodes[i]
		if n.Tag == "#text" || t.hidden(i) {
			continue
		}
		desc := ""
		switch {
		case markers.MountIDs[n.Attrs["id"]]:
			desc = fmt.Sprintf("<%s id=%q>", n.Tag, n.Attrs["id"])
		case n.Tag == "app-root":
			desc = "<app-root>"
		}
		if desc != "" && t.textOf(i) == "" {
			return desc
		}
	}
	return ""
}

// entryGap names an entry screen that was never passed (ARTIFACT.md:
// "gaps names … an entry screen never passed"): a challenge, a captcha, an
// age gate or a login wall stands where the page should be.
func entryGap(title string, o Outcome) (Gap, bool) {
	label := firstNonEmpty(title, "entry screen")
	switch {
	case o.Status == StatusChallenge && containsEntry(o.Evidence):
		return Gap{Label: label, Kind: "entry_screen", Reason: "an entry screen (an age gate or consent wall) answered instead of the page; a static read cannot pass it"}, true
	case o.Status == StatusChallenge:
		return Gap{Label: label, Kind: "entry_screen", Reason: "a bot-protection challenge or captcha answered instead of the page; sieve does not solve challenges"}, true
	case o.Status == StatusAuthRequired:
		return Gap{Label: label, Kind: "entry_screen", Reason: "a login wall stands in front of the content; sieve does not sign in"}, true
	}
	return Gap{}, false
}

func containsEntry(evidence []string) bool {
	for _, e := range evidence {
		if strings.HasPrefix(e, "entry screen") {
			return true
		}
	}
	return false
}

func runes(s string) int { return utf8.RuneCountInString(s) }

// isPDF reports whether the page was read from a PDF.
func isPDF(rec *normalize.Record) bool { return rec.Capture.ContentType == "application/pdf" }

// tokens estimates tokens at four characters each (ARTIFACT.md).
func tokens(chars int) int { return (chars + 3) / 4 }

func itoa(i int) string { return strconv.Itoa(i) }

func counts(g *Record, rec *normalize.Record, t *tree) (Counts, Stats) {
	var c Counts
	var s Stats
	all, content := 0, 0
	var contentBytes int64
	for i, b := range g.Blocks {
		all += runes(b.Text)
		if b.Role == "content" {
			s.ContentBlocks++
			content += runes(b.Text)
			if i > 0 && contentBytes > 0 {
				contentBytes += 2
			}
			contentBytes += int64(len(b.Text))
		} else {
			s.ChromeBlocks++
		}
	}
	latentChars := 0
	for _, l := range g.Latent {
		latentChars += runes(l.Text)
	}
	c.Blocks, c.Actions, c.Forms = len(g.Blocks), len(g.Actions), countForms(g.Actions)
	c.Links, c.Media, c.Latent = len(g.Links), len(g.MediaAll), len(g.Latent)
	c.EstTotalTokens = tokens(all)
	s.OriginalBytes = rec.Capture.BodyBytes
	s.ArtifactBytes = contentBytes
	s.OriginalTokens = tokens(int(rec.Capture.BodyBytes))
	s.ArtifactTokens = tokens(content)
	s.LatentTokens = tokens(latentChars)
	s.RawNodes = len(rec.Nodes)
	s.LatentBlocks = len(g.Latent)
	s.DroppedNodes = droppedNodes(t)
	return c, s
}

// droppedNodes counts text nodes whose text reached no block and no latent
// entry: white space between elements, and the text of form controls.
func droppedNodes(t *tree) int {
	d := droppedText(t)
	return d.whitespace + d.control
}

// dropCounts counts the text nodes droppedNodes counts, by reason.
type dropCounts struct{ whitespace, control int }

// droppedText counts once per tree (counts and audit both need it).
func droppedText(t *tree) dropCounts {
	if t.dropped != nil {
		return *t.dropped
	}
	var d dropCounts
	for i := range t.nodes {
		nd := &t.nodes[i]
		if nd.Tag != "#text" {
			continue
		}
		if strings.TrimSpace(nd.Text) == "" {
			d.whitespace++
		} else if p := nd.Parent; p >= 0 && !t.hidden(i) {
			switch t.nodes[p].Tag {
			case "option", "textarea", "select", "button":
				d.control++
			}
		}
	}
	t.dropped = &d
	return d
}

// nonSpaceRunes is runes(strings.Join(strings.Fields(s), "")) without
// building the string.
func nonSpaceRunes(s string) int {
	if !utf8.ValidString(s) { // joining can pair up stray bytes
		return runes(strings.Join(strings.Fields(s), ""))
	}
	n := 0
	for _, r := range s {
		if !unicode.IsSpace(r) {
			n++
		}
	}
	return n
}

func audit(g *Record, rec *normalize.Record, t *tree, visible string, notes []string) Audit {
	a := Audit{Dropped: []Dropped{}, Notes: []string{}}
	inBlocks := 0
	for _, b := range g.Blocks {
		if b.Type != TypeForm && b.Type != TypeMedia {
			inBlocks += nonSpaceRunes(b.Text)
		}
	}
	vis := nonSpaceRunes(visible)
	a.GraphRetention = 1
	if vis > 0 {
		a.GraphRetention = round(math.Min(1, float64(inBlocks)/float64(vis)), 3)
	}
	a.HeadingConfidence = headingConfidence(g.Blocks)
	drop := droppedText(t)
	ws, ctl := drop.whitespace, drop.control
	if ws > 0 {
		a.Dropped = append(a.Dropped, Dropped{Reason: "whitespace_only_text", Nodes: ws})
	}
	if ctl > 0 {
		a.Dropped = append(a.Dropped, Dropped{Reason: "form_control_text", Nodes: ctl})
	}
	switch {
	case isPDF(rec):
		a.Notes = append(a.Notes, pdfNotes(rec)...)
	case rec.Capture.Tier == "static" || rec.Capture.Tier == "":
		a.Notes = append(a.Notes,
			"static tier: the served HTML was read without a browser; no boxes, so order_confidence is unknown (null)",
			"static tier: no scroll sweep, so reached_bottom is unknown (null)")
	}
	if len(rec.Doc.JSONLD) > 0 || len(g.FAQ) > 0 {
		a.Notes = append(a.Notes, "structured data: only whitelisted schema.org JSON-LD facts are kept; microdata is not read")
	}
	a.Notes = append(a.Notes, notes...)
	return a
}

// headingConfidence scores how well the headings outline the page: 1 for a
// single h1 followed by levels that never skip; less for no headings, no
// h1, several h1s or skipped levels. Content headings count, and the
// headline that repeats the page title.
func headingConfidence(blocks []Block) float64 {
	var levels []int
	for _, b := range blocks {
		// A headline labelled chrome only because it repeats the page
		// title still heads the outline.
		if b.Type == TypeHeading && (b.Role == "content" || b.Chrome == "title") {
			levels = append(levels, b.Level)
		}
	}
	if len(levels) == 0 {
		return 0.5
	}
	score := 1.0
	h1 := 0
	prev := 0
	for _, l := range levels {
		if l == 1 {
			h1++
		}
		if prev > 0 && l > prev+1 {
			score -= 0.1
		}
		prev = l
	}
	switch {
	case h1 == 0:
		score -= 0.25
	case h1 > 1:
		score -= 0.15
	}
	if levels[0] != 1 && h1 > 0 {
		score -= 0.1
	}
	return round(math.Max(0, score), 2)
}

func round(f float64, places int) float64 {
	p := math.Pow(10, float64(places))
	return math.Round(f*p) / p
}

func provenance(rec *normalize.Record) Provenance {
	p := Provenance{
		Tier:              rec.Capture.Tier,
		NormalizerVersion: rec.NormalizerVersion,
		Trace:             rec.Capture.Trace,
		Screenshot:        screenshot(rec),
	}
	if p.Tier == "" {
		p.Tier = "static"
	}
	p.TierReason = "static tier: the served document was read without a browser"
	if isPDF(rec) {
		p.TierReason = "static tier: the PDF was read by the embedded PDF engine"
	}
	if c := rec.Capture; c.TierReason != "" {
		p.TierReason, p.TierScore, p.TierFellBack = c.TierReason, c.TierScore, c.TierFellBack
	}
	libs := append([]version.Library{}, rec.Capture.Trace.Libraries...)
	libs = append(libs, version.Of("golang.org/x/net", "github.com/andybalholm/cascadia", "github.com/aymerick/douceur", "golang.org/x/text", "github.com/tidwall/gjson")...)
	libs = append(libs, version.Codec())
	seen := map[string]bool{}
	for _, l := range libs {
		if !seen[l.Name] {
			seen[l.Name] = true
			p.Libraries = append(p.Libraries, l)
		}
	}
	return p
}

// external reports whether href leaves the page's site (host differs,
// ignoring a leading "www.").
func external(base, href string) bool {
	u, err := url.Parse(href)
	if err != nil || u.Host == "" {
		return false
	}
	b, err := url.Parse(base)
	if err != nil {
		return true
	}
	return strings.TrimPrefix(strings.ToLower(u.Hostname()), "www.") != strings.TrimPrefix(strings.ToLower(b.Hostname()), "www.")
}
