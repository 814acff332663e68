package disjoint

import "testing"

func TestSetsJoinUnderTheLowestMember(t *testing.T) {
	s := New(6)
	s.Union(4, 2)
	s.Union(5, 4)
	s.Union(1, 3)
	want := []int{0, 1, 2, 1, 2, 2}
	for i, w := range want {
		if got := s.Find(i); got != w {
			t.Errorf("Find(%d) = %d, want %d", i, got, w)
		}
	}
	s.Union(3, 5)
	for _, i := range []int{1, 2, 3, 4, 5} {
		if got := s.Find(i); got != 1 {
			t.Errorf("after joining both sets, Find(%d) = %d, want 1", i, got)
		}
	}
	if s.Find(0) != 0 {
		t.Errorf("0 was joined to nothing, its root is %d", s.Find(0))
	}
}
