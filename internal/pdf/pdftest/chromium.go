package pdftest

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/launcher"
	"github.com/go-rod/rod/lib/proto"
)

// Printer prints HTML pages to tagged PDFs with a local Chromium (Debian's
// by default; it never downloads one).
type Printer struct {
	l *launcher.Launcher
	b *rod.Browser
}

// NewPrinter starts Chromium: bin, else $SIEVE_CHROMIUM, else
// /usr/bin/chromium.
func NewPrinter(bin string) (*Printer, error) {
	if bin == "" {
		bin = os.Getenv("SIEVE_CHROMIUM")
	}
	if bin == "" {
		bin = "/usr/bin/chromium"
	}
	path, err := exec.LookPath(bin)
	if err != nil {
		return nil, fmt.Errorf("printing test PDFs needs Chromium (%v): apt-get install chromium", err)
	}
	dir, err := os.MkdirTemp("", "sieve-pdftest-")
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	l := launcher.New().Context(ctx).Bin(path).Leakless(true).UserDataDir(dir).
		Set("headless").Set("no-sandbox").Set("disable-gpu").Set("no-first-run").
		Set("disable-background-networking").Set("disable-component-update").Set("disable-dev-shm-usage")
	u, err := l.Launch()
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	b := rod.New().ControlURL(u)
	if err := b.Connect(); err != nil {
		l.Kill()
		l.Cleanup()
		return nil, err
	}
	return &Printer{l: l, b: b}, nil
}

// Close stops Chromium and removes its profile.
func (p *Printer) Close() {
	p.b.Close()
	p.l.Kill()
	p.l.Cleanup()
}

// Print loads url and prints it to a tagged PDF, A4 unless the page's CSS
// says otherwise, with the print dates fixed (see fixDates).
func (p *Printer) Print(url string) ([]byte, error) {
	page, err := p.b.Timeout(120 * time.Second).Page(proto.TargetCreateTarget{URL: url})
	if err != nil {
		return nil, err
	}
	defer page.Close()
	if err := page.WaitLoad(); err != nil {
		return nil, err
	}
	r, err := page.PDF(&proto.PagePrintToPDF{PreferCSSPageSize: true, GenerateTaggedPDF: true})
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if _, err := buf.ReadFrom(r); err != nil {
		return nil, err
	}
	return fixDates(buf.Bytes()), nil
}

// pdfDate is a PDF date string as Skia writes it.
var pdfDate = regexp.MustCompile(`\(D:\d{14}[^)]*\)`)

// fixDates replaces the print time with a fixed date of the same length,
// so the cross-reference offsets stay right and a reprint of unchanged
// sources gives the same bytes.
func fixDates(data []byte) []byte {
	return pdfDate.ReplaceAllFunc(data, func(m []byte) []byte {
		out := []byte("(D:20260101000000")
		out = append(out, bytes.Repeat([]byte{' '}, len(m)-len(out)-1)...)
		return append(out, ')')
	})
}

// PrintFixtures prints dir/NAME.html to dir/NAME.pdf for every tagged
// fixture, serving dir on 127.0.0.1.
func PrintFixtures(bin, dir string) error {
	p, err := NewPrinter(bin)
	if err != nil {
		return err
	}
	defer p.Close()
	srv := httptest.NewServer(http.FileServer(http.Dir(dir)))
	defer srv.Close()
	for _, name := range taggedNames {
		data, err := p.Print(srv.URL + "/" + name + ".html")
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		if err := os.WriteFile(filepath.Join(dir, name+".pdf"), data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// PrintHTML prints one HTML document (served on 127.0.0.1) to a tagged PDF.
func PrintHTML(bin string, html []byte) ([]byte, error) {
	p, err := NewPrinter(bin)
	if err != nil {
		return nil, err
	}
	defer p.Close()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write(html)
	}))
	defer srv.Close()
	return p.Print(srv.URL + "/")
}
