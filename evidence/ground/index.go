package ground

import (
	"index/suffixarray"
	"sort"
	"strings"

	"github.com/sieve-dev/sieve/internal/textnorm"
)

// NormText is the "normalized" match rule: the sieve text rules
// (ethos_collapse_whitespace_v1: white space collapsed, NFC), then lower
// case, typographic quotes and dashes as their ASCII forms.
func NormText(s string) string {
	return strings.ToLower(quoteFolder.Replace(strings.TrimSpace(textnorm.Text(s))))
}

var quoteFolder = strings.NewReplacer("\u2018", "'", "\u2019", "'", "\u201c", `"`, "\u201d", `"`,
	"\u2013", "-", "\u2014", "-", "\u2212", "-", "\u00a0", " ")

// index finds text in a source in time logarithmic in the source's size:
// one suffix array over the element texts joined by a separator that
// cannot occur in text (exact), one over the normalised texts joined by a
// space (normalized; a match across a join is containment across
// elements), and one over the latent text.
type index struct {
	els    []Element
	exact  *corpus
	norm   *corpus
	latent *corpus
}

type corpus struct {
	sa     *suffixarray.Index
	starts []int // byte offset where each element's text starts
}

func newIndex(s Source) *index {
	els := s.Elements()
	raw, norm := make([]string, len(els)), make([]string, len(els))
	for i, e := range els {
		raw[i], norm[i] = e.Text, NormText(e.Text)
	}
	lat := s.Latent()
	nl := make([]string, len(lat))
	for i, l := range lat {
		nl[i] = NormText(l)
	}
	return &index{els: els, exact: newCorpus(raw, "\x00"), norm: newCorpus(norm, " "), latent: newCorpus(nl, "\x00")}
}

func newCorpus(texts []string, sep string) *corpus {
	var b strings.Builder
	starts := make([]int, len(texts))
	for i, t := range texts {
		if i > 0 {
			b.WriteString(sep)
		}
		starts[i] = b.Len()
		b.WriteString(t)
	}
	return &corpus{sa: suffixarray.New([]byte(b.String())), starts: starts}
}

// hit is where a needle was found: the elements it covers.
type hit struct{ first, last int }

// find returns the first hit in document order, if any.
func (c *corpus) find(needle string) (hit, bool) {
	if needle == "" || len(c.starts) == 0 {
		return hit{}, false
	}
	offs := c.sa.Lookup([]byte(needle), -1)
	if len(offs) == 0 {
		return hit{}, false
	}
	sort.Ints(offs)
	return hit{c.element(offs[0]), c.element(offs[0] + len(needle) - 1)}, true
}

// element maps a byte offset to the element it falls in.
func (c *corpus) element(off int) int {
	return sort.Search(len(c.starts), func(i int) bool { return c.starts[i] > off }) - 1
}
