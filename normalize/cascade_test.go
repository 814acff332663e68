package normalize

import (
	"fmt"
	"strings"
	"testing"
)

func TestCascadeShowsAgain(t *testing.T) {
	tests := []struct {
		name, css, el string
		reason, rule  string
	}{
		{"a more specific later rule shows", `.tab{display:none} .tab.on{display:block}`, `<div id=t class="tab on">x</div>`, "", ""},
		{"a more specific earlier rule shows", `.tab.on{display:block} .tab{display:none}`, `<div id=t class="tab on">x</div>`, "", ""},
		{"an id beats classes", `#t{display:flex} .a.b.c{display:none}`, `<div id=t class="a b c">x</div>`, "", ""},
		{"the element the showing rule misses stays hidden", `.tab{display:none} .tab.on{display:block}`, `<div id=t class="tab">x</div>`, HiddenDisplay, ".tab { display: none }"},
		{"an equally specific earlier rule loses", `.show{display:block} .hide{display:none}`, `<div id=t class="show hide">x</div>`, HiddenDisplay, ".hide { display: none }"},
		{"an equally specific later rule wins", `.hide{display:none} .show{display:block}`, `<div id=t class="show hide">x</div>`, "", ""},
		{"!important hiding beats specificity", `.tab{display:none !important} #t{display:block}`, `<div id=t class="tab">x</div>`, HiddenDisplay, ".tab { display: none }"},
		{"!important showing beats !important hiding only by specificity", `.tab{display:none !important} #t{display:block !important}`, `<div id=t class="tab">x</div>`, "", ""},
		{"inherit shows nothing", `.tab{visibility:hidden} .tab.on{visibility:inherit}`, `<div id=t class="tab on">x</div>`, HiddenVisibility, ".tab { visibility: hidden }"},
		{"another property still hides", `.tab{display:none} .tab.on{display:block} .on{visibility:hidden}`, `<div id=t class="tab on">x</div>`, HiddenVisibility, ".on { visibility: hidden }"},
		{"a hiding rule of another kind keeps the verdict", `.tab{display:none} .tab.on{display:block} .on{text-indent:-9999px}`, `<div id=t class="tab on">x</div>`, HiddenDisplay, ".tab { display: none }"},
		{"a rule hiding two ways keeps hiding the other way", `.tab{display:none;text-indent:-9999px} .tab.on{display:block}`, `<div id=t class="tab on">x</div>`, HiddenDisplay, ".tab { display: none }"},
		{"a verdict nothing undoes stays as it was", `.a{visibility:hidden} .b{display:none}`, `<div id=t class="a b">x</div>`, HiddenVisibility, ".a { visibility: hidden }"},
		{"opacity back to one", `.fade{opacity:0} .fade.in{opacity:1}`, `<div id=t class="fade in">x</div>`, "", ""},
		{"inside a media query for screens", `.tab{display:none} @media screen{.tab.on{display:block}}`, `<div id=t class="tab on">x</div>`, "", ""},
		{"not in a print query", `.tab{display:none} @media print{.tab.on{display:block}}`, `<div id=t class="tab on">x</div>`, HiddenDisplay, ".tab { display: none }"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := mustNormalize(t, `<!doctype html><html><head><style>`+tc.css+`</style></head><body>`+tc.el+`</body></html>`)
			n := byID(t, r, "t")
			if n.Hidden != tc.reason || n.HiddenRule != tc.rule {
				t.Errorf("verdict %q (%q), want %q (%q)", n.Hidden, n.HiddenRule, tc.reason, tc.rule)
			}
		})
	}
}

// TestCascadeBoundsKeepVerdicts: past the matching bounds the second look
// is incomplete, so no verdict is lifted — a page cannot show hidden text
// by burying the hiding rule under more showing rules than are matched.
func TestCascadeBoundsKeepVerdicts(t *testing.T) {
	page := func(n int) *Record {
		var css, els strings.Builder
		css.WriteString(`.h{display:none}`)
		for i := 0; i < n; i++ {
			fmt.Fprintf(&css, `.h.s%d{display:block}`, i)
			fmt.Fprintf(&els, `<div id="e%d" class="h s%d">item %d</div>`, i, i, i)
		}
		return mustNormalize(t, `<!doctype html><html><head><style>`+css.String()+`</style></head><body>`+els.String()+`</body></html>`)
	}
	if n := byID(t, page(10), "e3"); n.Hidden != "" {
		t.Errorf("within the bounds: verdict %q, want shown", n.Hidden)
	}
	r := page(maxHidingSelectors + 50)
	for _, id := range []string{"e0", "e999", "e1049"} {
		if n := byID(t, r, id); n.Hidden != HiddenDisplay {
			t.Errorf("past the bounds: %s verdict %q, want %q", id, n.Hidden, HiddenDisplay)
		}
	}
}
