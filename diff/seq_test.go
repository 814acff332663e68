package diff

import (
	"math/rand"
	"testing"
)

// lcsLen is the textbook O(NM) longest common subsequence length.
func lcsLen(a, b []int32) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			switch {
			case a[i-1] == b[j-1]:
				cur[j] = prev[j-1] + 1
			case prev[j] >= cur[j-1]:
				cur[j] = prev[j]
			default:
				cur[j] = cur[j-1]
			}
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

func checkCommon(t *testing.T, a, b []int32, ps []pair) {
	t.Helper()
	for i, p := range ps {
		if a[p.a] != b[p.b] {
			t.Fatalf("pair %v matches %d with %d", p, a[p.a], b[p.b])
		}
		if i > 0 && (p.a <= ps[i-1].a || p.b <= ps[i-1].b) {
			t.Fatalf("pairs not increasing at %d: %v after %v", i, p, ps[i-1])
		}
	}
}

// Within maxD the alignment is a longest common subsequence.
func TestAlignIsLCS(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for n := 0; n < 500; n++ {
		a := make([]int32, r.Intn(40))
		for i := range a {
			a[i] = int32(r.Intn(6))
		}
		b := make([]int32, r.Intn(40))
		for i := range b {
			b[i] = int32(r.Intn(6))
		}
		ps, coarse := align(a, b)
		checkCommon(t, a, b, ps)
		if coarse || len(ps) != lcsLen(a, b) {
			t.Fatalf("align(%v, %v) = %d pairs (coarse %v), LCS is %d", a, b, len(ps), coarse, lcsLen(a, b))
		}
	}
}

// Beyond maxD unique anchors still align what they can: two long
// sequences of distinct keys with every other key replaced keep the rest.
func TestAlignBeyondBound(t *testing.T) {
	const n = 4 * maxD
	a, b := make([]int32, n), make([]int32, n)
	for i := range a {
		a[i], b[i] = int32(i), int32(i)
		if i%2 == 1 {
			b[i] = int32(n + i)
		}
	}
	ps, coarse := align(a, b)
	checkCommon(t, a, b, ps)
	if coarse || len(ps) != n/2 {
		t.Fatalf("got %d pairs (coarse %v), want %d", len(ps), coarse, n/2)
	}
	// Common elements but none unique, too far apart for maxD: coarse.
	for i := range a {
		a[i] = int32(i % 2)
		b[i] = 0
		if i >= n/2 {
			b[i] = 1
		}
	}
	ps, coarse = align(a, b)
	checkCommon(t, a, b, ps)
	if !coarse {
		t.Fatalf("got %d pairs, want a coarse result", len(ps))
	}
}
