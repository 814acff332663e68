package diff

import "sort"

// maxD bounds the edit distance one Myers run looks for: beyond it the run
// stops (after O((N+M)·maxD) work) and the sequences are split at unique
// common elements instead.
const maxD = 256

// pair is one element matched between the old (a) and new (b) sequence.
type pair struct{ a, b int }

// matcher aligns two sequences of interned keys. coarse is set when some
// stretch could be aligned neither by Myers within maxD nor by a unique
// common element: that stretch is reported as all removed and all added.
type matcher struct {
	pairs  []pair
	coarse bool
}

// align returns the matched elements of a and b in increasing order: a
// longest common subsequence where the edit distance is at most maxD,
// close to one elsewhere.
func align(a, b []int32) ([]pair, bool) {
	m := &matcher{}
	m.match(a, b, 0, 0)
	return m.pairs, m.coarse
}

// match aligns a and b, which start at offsets oa and ob of the whole.
func (m *matcher) match(a, b []int32, oa, ob int) {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		m.pairs = append(m.pairs, pair{oa + pre, ob + pre})
		pre++
	}
	a, b, oa, ob = a[pre:], b[pre:], oa+pre, ob+pre
	suf := 0
	for suf < len(a) && suf < len(b) && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	m.middle(a[:len(a)-suf], b[:len(b)-suf], oa, ob)
	for k := suf; k > 0; k-- {
		m.pairs = append(m.pairs, pair{oa + len(a) - k, ob + len(b) - k})
	}
}

func (m *matcher) middle(a, b []int32, oa, ob int) {
	if len(a) == 0 || len(b) == 0 {
		return
	}
	common := commonCount(a, b)
	if common == 0 {
		return
	}
	// D is at least len(a)+len(b)-2·common: past maxD, Myers cannot finish.
	if len(a)+len(b)-2*common > maxD {
		m.anchored(a, b, oa, ob)
		return
	}
	if ps, ok := myers(a, b); ok {
		for _, p := range ps {
			m.pairs = append(m.pairs, pair{oa + p.a, ob + p.b})
		}
		return
	}
	m.anchored(a, b, oa, ob)
}

// anchored splits a and b at their unique common elements and aligns the
// stretches between them; without one, the stretch is coarse.
func (m *matcher) anchored(a, b []int32, oa, ob int) {
	anchors := uniqueAnchors(a, b)
	if len(anchors) == 0 {
		m.coarse = true
		return
	}
	i, j := 0, 0
	for _, p := range anchors {
		m.match(a[i:p.a], b[j:p.b], oa+i, ob+j)
		m.pairs = append(m.pairs, pair{oa + p.a, ob + p.b})
		i, j = p.a+1, p.b+1
	}
	m.match(a[i:], b[j:], oa+i, ob+j)
}

// commonCount is the size of the multiset intersection of a and b, a
// bound on their longest common subsequence.
func commonCount(a, b []int32) int {
	count := make(map[int32]int, len(a))
	for _, x := range a {
		count[x]++
	}
	n := 0
	for _, x := range b {
		if count[x] > 0 {
			count[x]--
			n++
		}
	}
	return n
}

// myers is Myers' O((N+M)·D) greedy LCS, keeping each step's furthest
// reaching paths to trace the script back; false when D exceeds maxD.
func myers(a, b []int32) ([]pair, bool) {
	n, mm := len(a), len(b)
	off := maxD + 1
	v := make([]int, 2*off+1)
	var trace [][]int
	for d := 0; d <= maxD; d++ {
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || (k != d && v[off+k-1] < v[off+k+1]) {
				x = v[off+k+1]
			} else {
				x = v[off+k-1] + 1
			}
			y := x - k
			for x < n && y < mm && a[x] == b[y] {
				x, y = x+1, y+1
			}
			v[off+k] = x
			if x >= n && y >= mm {
				trace = append(trace, append([]int(nil), v[off-d:off+d+1]...))
				return backtrack(trace, a, b), true
			}
		}
		trace = append(trace, append([]int(nil), v[off-d:off+d+1]...))
	}
	return nil, false
}

// backtrack walks the saved steps from the end, collecting the diagonal
// moves (matches) in increasing order. trace[d] holds step d's furthest x
// per diagonal k at index k+d.
func backtrack(trace [][]int, a, b []int32) []pair {
	x, y := len(a), len(b)
	var out []pair
	for d := len(trace) - 1; d > 0; d-- {
		prev := trace[d-1]
		at := func(k int) int { return prev[k+d-1] }
		k := x - y
		pk := k - 1
		if k == -d || (k != d && at(k-1) < at(k+1)) {
			pk = k + 1
		}
		px := at(pk)
		py := px - pk
		for x > px && y > py {
			x, y = x-1, y-1
			out = append(out, pair{x, y})
		}
		x, y = px, py
	}
	for x > 0 && y > 0 {
		x, y = x-1, y-1
		out = append(out, pair{x, y})
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}

// uniqueAnchors are the elements occurring exactly once in a and once in
// b, reduced to their longest run increasing in both (patience diff).
func uniqueAnchors(a, b []int32) []pair {
	count := make(map[int32][2]int, len(a))
	for i, x := range a {
		c := count[x]
		c[0]++
		if c[0] == 1 {
			c[1] = i
		}
		count[x] = c
	}
	inB := make(map[int32]int, len(b))
	for _, x := range b {
		if count[x][0] == 1 {
			inB[x]++
		}
	}
	var cand []pair
	for j, x := range b {
		if c := count[x]; c[0] == 1 && inB[x] == 1 {
			cand = append(cand, pair{c[1], j})
		}
	}
	return increasing(cand)
}

// increasing is the longest subsequence of ps (increasing in b) that also
// increases in a, by patience sorting: O(n log n).
func increasing(ps []pair) []pair {
	var tops []int // index into ps of each pile's top
	prev := make([]int, len(ps))
	for i, p := range ps {
		k := sort.Search(len(tops), func(t int) bool { return ps[tops[t]].a >= p.a })
		prev[i] = -1
		if k > 0 {
			prev[i] = tops[k-1]
		}
		if k == len(tops) {
			tops = append(tops, i)
		} else {
			tops[k] = i
		}
	}
	if len(tops) == 0 {
		return nil
	}
	out := make([]pair, len(tops))
	for i, k := len(out)-1, tops[len(tops)-1]; i >= 0; i, k = i-1, prev[k] {
		out[i] = ps[k]
	}
	return out
}
