// Package disjoint is a disjoint-set forest (union-find) over the integers
// 0..n-1, as the layout passes use it to join touching things: ink runs into
// glyphs, glyphs into lines, ruling segments into table grids.
package disjoint

// Sets holds each member's parent; a set's root is its lowest member, so
// the roots come out in the members' own order.
type Sets []int32

// New is n sets of one member each.
func New(n int) Sets {
	s := make(Sets, n)
	for i := range s {
		s[i] = int32(i)
	}
	return s
}

// Find is the root of i's set (halving the path on the way).
func (s Sets) Find(i int) int {
	for int(s[i]) != i {
		s[i] = s[s[i]]
		i = int(s[i])
	}
	return i
}

// Union joins a's and b's sets under the lower root.
func (s Sets) Union(a, b int) {
	ra, rb := s.Find(a), s.Find(b)
	if ra != rb {
		s[max(ra, rb)] = int32(min(ra, rb))
	}
}
