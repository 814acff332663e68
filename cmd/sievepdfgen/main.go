// Command sievepdfgen prints the project's Chromium-made test PDFs (a
// developer tool, not shipped): `make testpdfs` reprints the committed
// tagged fixtures, `make bench-pdf` prints the long bench document.
//
//	sievepdfgen -fixtures internal/pdf/pdftest/testdata
//	sievepdfgen -long .bench/pdf/long.pdf [-chapters 64]
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/sieve-dev/sieve/internal/pdf/pdftest"
)

func main() {
	fixtures := flag.String("fixtures", "", "print DIR/NAME.html to DIR/NAME.pdf for each tagged fixture")
	long := flag.String("long", "", "print the long bench document to FILE")
	chapters := flag.Int("chapters", 64, "chapters of the long document (about a page each)")
	bin := flag.String("chromium", "", "Chromium binary (default $SIEVE_CHROMIUM, else /usr/bin/chromium)")
	flag.Parse()
	if err := run(*fixtures, *long, *chapters, *bin); err != nil {
		fmt.Fprintln(os.Stderr, "sievepdfgen:", err)
		os.Exit(1)
	}
}

func run(fixtures, long string, chapters int, bin string) error {
	if fixtures == "" && long == "" {
		return fmt.Errorf("give -fixtures DIR or -long FILE")
	}
	if fixtures != "" {
		if err := pdftest.PrintFixtures(bin, fixtures); err != nil {
			return err
		}
	}
	if long == "" {
		return nil
	}
	data, err := pdftest.PrintHTML(bin, pdftest.LongHTML(chapters))
	if err != nil {
		return err
	}
	return os.WriteFile(long, data, 0o644)
}
