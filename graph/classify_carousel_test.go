package graph

import (
	"fmt"
	"strings"
	"testing"
)

// carouselPage is a news page with a rail of fifteen videos above the
// article: a count line and fifteen linked #### titles with thumbnails,
// in elements whose class names say nothing (c1, c2), so only the
// structure can tell the rail from the article.
func carouselPage() string {
	var rail strings.Builder
	rail.WriteString(`<div class="c1"><h3>(15 Videos)</h3><ul class="c2">`)
	for i := 1; i <= 15; i++ {
		fmt.Fprintf(&rail, `<li class="c3"><a href="/video/%d"><img src="/t%d.jpg" alt=""><h4>Video %d: what the council decided about the bridge on the river road</h4></a><span>02:%02d</span></li>`, i, i, i, i)
	}
	rail.WriteString(`</ul></div>`)
	return `<div class="c0">` + rail.String() + `<h1>The council votes to rebuild the old bridge</h1><p>By A. Reporter</p>` +
		`<p>` + prose("first") + `</p><p>` + prose("second") + `</p><p>` + prose("third") + `</p><p>` + prose("fourth") + `</p></div>`
}

func TestCarouselIsChrome(t *testing.T) {
	g := buildHTML(t, carouselPage())
	kept := 0
	for _, b := range g.Blocks {
		if strings.HasPrefix(b.Text, "Video ") || b.Text == "(15 Videos)" {
			if b.Role == "content" {
				t.Errorf("carousel block %q is content (%s)", b.Text, b.Reason)
			}
			continue
		}
		if strings.HasPrefix(b.Text, "The ") && b.Role == "content" {
			kept++
		}
	}
	if kept < 4 {
		t.Errorf("%d of the article's four paragraphs are content", kept)
	}
	for _, s := range g.Sections {
		if strings.HasPrefix(s.Title, "Video ") && s.Role == "content" {
			t.Errorf("carousel title %q is a content section", s.Title)
		}
	}
}
