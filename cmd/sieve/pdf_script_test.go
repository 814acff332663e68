package main

import (
	"os"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/tidwall/gjson"

	"github.com/sieve-dev/sieve/internal/pdf/pdftest"
)

// pdfCmd is the scripts' `pdf` command:
//
//	pdf write NAME FILE     — writes the pdftest document NAME to FILE
//	pdf json FILE PATH WANT — the gjson PATH of the JSON file FILE is WANT
func pdfCmd(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) == 0 {
		ts.Fatalf("usage: pdf write NAME FILE | pdf json FILE PATH WANT")
	}
	switch {
	case args[0] == "write" && len(args) == 3:
		if neg {
			ts.Fatalf("pdf write cannot be negated")
		}
		ts.Check(os.WriteFile(ts.MkAbs(args[2]), pdfDoc(ts, args[1]).PDF, 0o644))
	case args[0] == "json" && len(args) == 4:
		got := gjson.Get(ts.ReadFile(args[1]), args[2]).String()
		if (got == args[3]) == neg {
			ts.Fatalf("%s %s = %q, want %s%q", args[1], args[2], got, map[bool]string{true: "not "}[neg], args[3])
		}
	default:
		ts.Fatalf("usage: pdf write NAME FILE | pdf json FILE PATH WANT")
	}
}

func pdfDoc(ts *testscript.TestScript, name string) pdftest.Doc {
	docs, err := pdftest.All()
	ts.Check(err)
	var names []string
	for _, d := range docs {
		if d.Name == name {
			return d
		}
		names = append(names, d.Name)
	}
	ts.Fatalf("no pdftest document %q (have %s)", name, strings.Join(names, ", "))
	return pdftest.Doc{}
}
