package ground

import (
	"os"
	"testing"
)

// FuzzLoaders: the three adapters never panic on any input, and a source
// they accept resolves locators and finds text without panicking.
func FuzzLoaders(f *testing.F) {
	for _, p := range []string{"../../verify/testdata/odl.json", "../../render/testdata/docs.graph.json", "../../schemas/testdata/eef/valid/ethos-document--pdf-report.json"} {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, load := range []func([]byte) (Source, error){FromEthos, FromGraph, FromOpenDataLoader} {
			s, err := load(b)
			if err != nil {
				continue
			}
			x := NewIndex(s)
			_, _ = x.FindText("the")
			_, _ = x.Resolve(Locator{Page: "p0001", Section: "s", Element: "e000001", Span: "s000001", Table: "t0001", Region: "r0001", BBox: []int{0, 0, 10, 10}})
			for _, e := range s.Elements() {
				if sc, err := x.Resolve(Locator{Element: e.ID}); err == nil {
					_, _ = x.FindIn(sc, e.Text)
				}
			}
		}
	})
}
