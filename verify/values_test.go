package verify

import (
	"reflect"
	"regexp"
	"strings"
	"syscall"
	"testing"
)

// cpuTime is the process's user and system CPU time in nanoseconds: on a
// shared, loaded machine it measures the work where wall time does not.
func cpuTime() int64 {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return ru.Utime.Nano() + ru.Stime.Nano()
}

// The regular expressions values used before issue 17 (backtracking on
// every element of the index), kept as the oracle of the linear scanners.
var (
	oracleNumberRe = regexp.MustCompile(`(?i)([$€£¥]|\b(?:usd|eur|gbp|jpy)\s?)?(-?\d{1,3}(?:[,\x{202f}\x{a0} ]\d{3})+(?:\.\d+)?|-?\d+(?:\.\d+)?)\s?(%|percent\b|per cent\b)?`)
	oracleISODate  = regexp.MustCompile(`\b(\d{4})-(\d{2})-(\d{2})\b`)
	oracleTextDate = regexp.MustCompile(`(?i)\b(?:(\d{1,2})\s+([a-z]{3,9})\.?,?\s+(\d{4})|([a-z]{3,9})\.?\s+(\d{1,2}),?\s+(\d{4}))\b`)
)

func oracleValues(s string) []value {
	var out []value
	rest := s
	for _, m := range oracleISODate.FindAllStringSubmatch(s, -1) {
		if d, ok := date(m[1], m[2], m[3]); ok {
			out = append(out, value{key: "date:" + d})
		}
	}
	rest = oracleISODate.ReplaceAllString(rest, " ")
	for _, m := range oracleTextDate.FindAllStringSubmatch(rest, -1) {
		day, mon, year := m[1], m[2], m[3]
		if day == "" {
			day, mon, year = m[5], m[4], m[6]
		}
		if mo, ok := month(mon); ok {
			if d, ok := date(year, mo, day); ok {
				out = append(out, value{key: "date:" + d})
			}
		}
	}
	rest = oracleTextDate.ReplaceAllString(rest, " ")
	for _, m := range oracleNumberRe.FindAllStringSubmatch(rest, -1) {
		out = append(out, number(m[1], m[2], m[3]))
	}
	return out
}

var valueSamples = []string{
	"on 5 March 2024 and 2024-03-05 and March 5, 2024",
	"Revenue rose 12.5% to $1,200,000 (USD 3 400) in 2023; costs fell 3 per cent, margins 4 Percent.",
	"€ 5, €5, £-3.25, ¥1 000, usd5, uſd 7, EUR  8, gbp\t9, jpy10, xusd 4, 1,2345, 1,234.5, 1,234., 12,34",
	"1\u00a0234\u202f567 and 1\u202f23 and -0.50 and --5 and 5.-",
	"2024-13-45 is no date, 12024-03-05, 2024-03-051, a2024-03-05, 2024-03-05b, _2024-03-05",
	"5 Kelvin 2024, 5 ſeptember 2024, ſep 5 2024, aſep 5 2024, 5 \u212aaaa 2024, x\u212aaa 5, 2024",
	"12 December. 2024 / 123 May 2024 / May 123 2024 / Sept. 5, 2024 / 3 abcdefghij 2024 / 31 Feb 2024",
	"10percent 10 percentage 10 per centimetre 10 %, 10  %",
	"\xff\xfe5 May 2020 \xc5\xbfep 1 2020 \xe2\x84\xaa",
	"",
}

func TestValuesMatchTheRegexps(t *testing.T) {
	for _, s := range valueSamples {
		if got, want := values(s), oracleValues(s); !reflect.DeepEqual(got, want) {
			t.Errorf("values(%q)\n got %v\nwant %v", s, got, want)
		}
	}
}

func FuzzValues(f *testing.F) {
	for _, s := range valueSamples {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := values(s), oracleValues(s); !reflect.DeepEqual(got, want) {
			t.Fatalf("values(%q)\n got %v\nwant %v", s, got, want)
		}
	})
}

// The index of 20k elements, each a sentence with numbers and dates: the
// linear scanners against the regexps, in the same run.
func BenchmarkValueIndex(b *testing.B) {
	texts := make([]string, 20000)
	for i := range texts {
		texts[i] = strings.Repeat("In March 2024 revenue rose 12.5% to $1,200,000 on 2024-03-05, ", 1+i%3) + "the end."
	}
	b.Run("scan", func(b *testing.B) {
		for b.Loop() {
			for _, s := range texts {
				values(s)
			}
		}
	})
	b.Run("regexp", func(b *testing.B) {
		for b.Loop() {
			for _, s := range texts {
				oracleValues(s)
			}
		}
	})
}

// Random strings over the pieces the patterns are made of, many more than
// the fuzzer reaches in a short run.
func TestValuesMatchTheRegexpsRandom(t *testing.T) {
	pieces := []string{"0", "1", "2", "5", "12", "2024", "123", "-", ".", ",", " ", "  ", "\t", "\u00a0", "\u202f", "%",
		"$", "€", "£", "¥", "usd", "EUR", "uſd", "gbp", "jpy", "percent", "per cent", "Percent", "March", "mar", "ab",
		"abcdefghij", "Sept", "ſep", "\u212a", "x", "_", "é", "\xff", "2024-03-05", "-05", "1,234"}
	seed := uint64(17)
	next := func(n int) int {
		seed ^= seed << 13
		seed ^= seed >> 7
		seed ^= seed << 17
		return int(seed % uint64(n))
	}
	n := 100000
	if testing.Short() {
		n = 10000
	}
	for range n {
		var b strings.Builder
		for range 1 + next(12) {
			b.WriteString(pieces[next(len(pieces))])
		}
		s := b.String()
		if got, want := values(s), oracleValues(s); !reflect.DeepEqual(got, want) {
			t.Fatalf("values(%q)\n got %v\nwant %v", s, got, want)
		}
	}
}

// newValueIndex on the 100k-element synthetic page of BenchmarkQuoteClaims
// (issue 17: 10 s, 63 % of it regexp backtracking, before).
func BenchmarkNewValueIndex100k(b *testing.B) {
	els := syntheticSource(100_000).Elements()
	b.Run("scan", func(b *testing.B) {
		t0 := cpuTime()
		for b.Loop() {
			newValueIndex(els)
		}
		b.ReportMetric(float64(cpuTime()-t0)/float64(b.N), "cpu-ns/op")
	})
	b.Run("regexp", func(b *testing.B) {
		t0 := cpuTime()
		for b.Loop() {
			for _, e := range els {
				oracleValues(e.Text)
			}
		}
		b.ReportMetric(float64(cpuTime()-t0)/float64(b.N), "cpu-ns/op")
	})
}
