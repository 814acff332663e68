package normalize

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/sieve-dev/sieve/capture"
)

// TestSortedAtomsStable: sortedAtoms orders as slices.SortStableFunc does,
// ties (many equal keys, NaN) in input order.
func TestSortedAtomsStable(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 1))
	order := func(a, b *pdfAtom) int {
		return cmp.Or(cmp.Compare(a.top(), b.top()), cmp.Compare(a.left(), b.left()))
	}
	for n := range 300 {
		atoms := make([]pdfAtom, n)
		for i := range atoms {
			atoms[i] = pdfAtom{box: capture.PDFBox{X: float64(rng.IntN(4)), Y: float64(rng.IntN(5)), W: 1, H: 1}, size: float64(i)}
			if rng.IntN(20) == 0 {
				atoms[i].box.Y = math.NaN()
			}
		}
		want := slices.Clone(atoms)
		slices.SortStableFunc(want, func(a, b pdfAtom) int { return order(&a, &b) })
		got := sortedAtoms(atoms, order)
		for i := range want {
			if got[i].size != want[i].size {
				t.Fatalf("n=%d: position %d holds atom %v, want %v", n, i, got[i].size, want[i].size)
			}
		}
	}
}
