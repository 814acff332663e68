package capture

import (
	"fmt"
	"testing"
)

// TestRefusalsBounded: a page that makes thousands of distinct refused
// requests costs the record a count, not a list that grows with it; the
// page's own refused navigation is kept whatever came before it.
func TestRefusalsBounded(t *testing.T) {
	p := &policyProxy{}
	w := &netWatch{}
	for i := 0; i < 5000; i++ {
		u := fmt.Sprintf("http://10.0.0.1/r%d", i)
		p.refuse(u, "private_address")
		p.refuse(u, "private_address") // a repeat is not a new entry
		w.note(Refusal{URL: u, ResourceType: "Fetch"})
	}
	w.note(Refusal{URL: "http://10.0.0.1/", ResourceType: "Document", TopLevel: true})
	// past the cap nothing is remembered, so a repeat counts again
	if len(p.log) != maxLogged || p.Unlisted() != 2*(5000-maxLogged) {
		t.Errorf("proxy kept %d, counted %d more; want %d and %d", len(p.log), p.Unlisted(), maxLogged, 2*(5000-maxLogged))
	}
	if len(w.refused) != maxLogged+1 || w.unlisted != 5000-maxLogged {
		t.Errorf("page kept %d, counted %d more", len(w.refused), w.unlisted)
	}
	list, more := listRefusals(mergeRefusals(w.refused, p.Refused(), nil, nil), w.unlisted+p.Unlisted())
	if len(list) != maxRefusals {
		t.Fatalf("listed %d, want %d", len(list), maxRefusals)
	}
	if !list[0].TopLevel {
		t.Errorf("the page's own navigation is not listed first: %+v", list[0])
	}
	// 5001 distinct URLs were refused: 100 listed, every other one counted
	// (the proxy's and the page's views of one URL are one refusal).
	if more < 5001-maxRefusals {
		t.Errorf("refused_more = %d, want at least %d", more, 5001-maxRefusals)
	}
	if small, more := listRefusals(list[:3], 0); len(small) != 3 || more != 0 {
		t.Errorf("a short list was cut: %d, %d", len(small), more)
	}
}
