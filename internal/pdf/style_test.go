package pdf

import (
	"bytes"
	"testing"

	"github.com/go-pdf/fpdf"
)

// styled is a one-page fpdf PDF with one word per style, a word whose
// halves differ in weight, and words drawn outside the page box.
func styled(t *testing.T) []byte {
	t.Helper()
	f := fpdf.New("P", "pt", "A4", "")
	f.AddPage()
	at := func(x, y float64, family, style, text string) float64 {
		f.SetFont(family, style, 12)
		f.Text(x, y, text)
		return x + f.GetStringWidth(text)
	}
	at(72, 100, "Helvetica", "", "Plain")
	at(72, 130, "Helvetica", "B", "Heavy")
	at(72, 160, "Times", "I", "Slanted")
	f.SetTextColor(200, 0, 0)
	at(72, 190, "Helvetica", "", "Red")
	f.SetTextColor(0, 0, 0)
	f.SetAlpha(0.5, "Normal")
	at(72, 220, "Helvetica", "", "Faded")
	f.SetAlpha(1, "Normal")
	f.SetTextRenderingMode(3)
	at(72, 250, "Helvetica", "", "Ghost")
	f.SetTextRenderingMode(0)
	x := at(72, 280, "Helvetica", "", "Half")
	at(x, 280, "Helvetica", "B", "bold")
	at(-200, 310, "Helvetica", "", "Leftside")
	at(72, 900, "Helvetica", "", "Below")
	var buf bytes.Buffer
	if err := f.Output(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestStyles(t *testing.T) {
	doc, err := Parse(styled(t))
	if err != nil {
		t.Fatal(err)
	}
	p := doc.Pages[0]
	want := map[string]Style{
		"Plain":    {Font: "Helvetica", Alpha: 255, MCID: -1},
		"Heavy":    {Font: "Helvetica-Bold", Alpha: 255, MCID: -1},
		"Slanted":  {Font: "Times-Italic", Italic: true, Alpha: 255, MCID: -1},
		"Red":      {Font: "Helvetica", Color: 0xc80000, Alpha: 255, MCID: -1},
		"Faded":    {Font: "Helvetica", Alpha: 128, MCID: -1},
		"Ghost":    {Font: "Helvetica", Alpha: 255, Render: 3, MCID: -1},
		"Half":     {Font: "Helvetica", Alpha: 255, MCID: -1},
		"bold":     {Font: "Helvetica-Bold", Alpha: 255, MCID: -1},
		"Leftside": {Font: "Helvetica", Alpha: 255, MCID: -1},
		"Below":    {Font: "Helvetica", Alpha: 255, MCID: -1},
	}
	for text, ws := range want {
		w, ok := findWord(p, text)
		if !ok {
			t.Errorf("no word %q in %v", text, p.Lines())
			continue
		}
		got := w.Style
		got.Weight = 0 // checked below: PDFium estimates it from the stem width
		if got != ws {
			t.Errorf("%q: style %+v, want %+v", text, got, ws)
		}
	}
	plainW, _ := findWord(p, "Plain")
	heavy, _ := findWord(p, "Heavy")
	if heavy.Style.Weight <= plainW.Style.Weight {
		t.Errorf("weights: Helvetica-Bold %d, Helvetica %d; want bold heavier", heavy.Style.Weight, plainW.Style.Weight)
	}
	half, _ := findWord(p, "Half")
	bold, _ := findWord(p, "bold")
	if half.Box.X1 > bold.Box.X0+0.5 || bold.Box.X0-half.Box.X1 > 1 {
		t.Errorf("the halves of one word should touch: %v then %v", half.Box, bold.Box)
	}
}

// TestOffPageText: PDFium reports text outside the page box, with boxes
// outside the page, so that later stages can mark it off-page.
func TestOffPageText(t *testing.T) {
	doc, err := Parse(styled(t))
	if err != nil {
		t.Fatal(err)
	}
	p := doc.Pages[0]
	if w, ok := findWord(p, "Leftside"); !ok || w.Box.X1 > 0 {
		t.Errorf("Leftside: %v, found %v; want a box left of the page", w.Box, ok)
	}
	if w, ok := findWord(p, "Below"); !ok || w.Box.Y0 < p.Height {
		t.Errorf("Below: %v, found %v; want a box under the page (height %g)", w.Box, ok, p.Height)
	}
}

func TestBaseFont(t *testing.T) {
	for in, want := range map[string]string{
		"ABCDEF+Arial-BoldMT": "Arial-BoldMT",
		"Arial":               "Arial",
		"abcdef+Arial":        "abcdef+Arial",
		"ABCDE+Arial":         "ABCDE+Arial",
		"ABCDEF+":             "ABCDEF+",
	} {
		if got := baseFont(in); got != want {
			t.Errorf("baseFont(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestScaledFontSize: text drawn at 24 pt under a CTM that halves it is
// 12 pt on the page; PDFium's own font size is the Tf operand (24).
func TestScaledFontSize(t *testing.T) {
	f := fpdf.New("P", "pt", "A4", "")
	f.AddPage()
	f.SetFont("Helvetica", "", 24)
	f.TransformBegin()
	f.TransformScale(50, 50, 72, 100)
	f.Text(72, 100, "Halved")
	f.TransformEnd()
	f.SetFont("Helvetica", "", 12)
	f.Text(72, 200, "Plain")
	var buf bytes.Buffer
	if err := f.Output(&buf); err != nil {
		t.Fatal(err)
	}
	doc, err := Parse(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	for _, text := range []string{"Halved", "Plain"} {
		w, ok := findWord(doc.Pages[0], text)
		if !ok || w.FontSize != 12 {
			t.Errorf("%q: font size %g (found %v), want 12", text, w.FontSize, ok)
		}
	}
}
