package verify

import (
	"github.com/sieve-dev/sieve/evidence/ground"

	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// BenchmarkQuoteClaims verifies 100k quote claims per iteration against
// sources of 1k, 10k and 100k elements. A claim is a lookup in suffix
// arrays, so claims/s should fall with the logarithm of the source's size,
// not linearly (a scan per claim would make 100k elements 100× slower than
// 1k).
func BenchmarkQuoteClaims(b *testing.B) {
	const claims = 100_000
	for _, n := range []int{1_000, 10_000, 100_000} {
		src := syntheticSource(n)
		v := New(src)
		cl := quoteClaims(src, claims)
		b.Run(fmt.Sprintf("elements=%d", n), func(b *testing.B) {
			grounded := 0
			for b.Loop() {
				grounded = 0
				for i, c := range cl {
					if v.Check(i+1, c).Status == StatusGrounded {
						grounded++
					}
				}
			}
			b.ReportMetric(float64(claims*b.N)/b.Elapsed().Seconds(), "claims/s")
			b.ReportMetric(0, "ns/op")
			if grounded < claims*3/4 {
				b.Fatalf("only %d of %d claims grounded", grounded, claims)
			}
		})
	}
}

var words = strings.Fields("the terraces are open to walkers every day from sunrise to sunset please keep contour paths close gates behind you leave bushes alone a broken shoot is lost harvest ledger basket grade shed")

// syntheticSource is n paragraphs of 20–40 words, each with a unique marker.
func syntheticSource(n int) ground.Source {
	r := rand.New(rand.NewPCG(1, uint64(n)))
	var els []ground.Element
	for i := range n {
		var b strings.Builder
		fmt.Fprintf(&b, "Paragraph %d:", i)
		for range 20 + r.IntN(20) {
			b.WriteString(" " + words[r.IntN(len(words))])
		}
		els = append(els, ground.Element{ID: fmt.Sprintf("e%06d", i+1), NativeID: fmt.Sprintf("b_%03d", i), PageRef: "p0001", Type: "paragraph", Text: b.String() + "."})
	}
	return ground.NewSource(ground.Identity{Parser: "bench", Version: "0", Format: ground.FormatEthos},
		ground.Capabilities{CoordinateOrigin: "none", Limits: []ground.Limit{}}, []ground.Page{{ID: "p0001"}}, els, nil, nil)
}

// quoteClaims: 4 in 5 quote an element's opening verbatim, 1 in 5 is text
// no element holds (the slow path: exact, then normalised, then latent).
func quoteClaims(src ground.Source, n int) []Claim {
	r := rand.New(rand.NewPCG(2, 2))
	els := src.Elements()
	out := make([]Claim, n)
	for i := range out {
		t := els[r.IntN(len(els))].Text
		if i%5 == 4 {
			t = strings.Replace(t[:min(len(t), 60)], ":", " said", 1)
		} else {
			t = t[:min(len(t), 60)]
		}
		out[i] = Claim{Kind: KindQuote, Text: t}
	}
	return out
}
