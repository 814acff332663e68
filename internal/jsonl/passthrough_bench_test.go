package jsonl

import (
	"bytes"
	"context"
	"io"
	"os"
	"runtime"
	"testing"
)

// BenchmarkPassThrough: lines of a kind the stage does not handle, copied
// through Run (SIEVE_BENCH_JSONL names a JSONL file, e.g. capture records;
// without it a synthetic line with a long escaped HTML body).
func BenchmarkPassThrough(b *testing.B) {
	data := benchLines(b)
	st := Stage{Name: "bench", Accept: []string{"normalized"},
		Transform: func(context.Context, []byte) ([]byte, error) { panic("not called") }}
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := Run(context.Background(), bytes.NewReader(data), io.Discard, io.Discard, st); err != nil {
			b.Fatal(err)
		}
	}
}

func benchLines(b *testing.B) []byte {
	if f := os.Getenv("SIEVE_BENCH_JSONL"); f != "" {
		data, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		return data
	}
	var buf bytes.Buffer
	body := bytes.Repeat([]byte(`<p class=\"x\">Some text, caf\u00e9 \u003cb\u003e&amp;\n</p>`), 4000)
	for range 50 {
		buf.WriteString(`{"record":"capture","schema_version":"1.0","url":"https://example.test/","headers":{"content-type":"text/html"},"body":"`)
		buf.Write(body)
		buf.WriteString(`","n":[1,2,{"a":null,"b":true,"c":-1.5e3}]}` + "\n")
	}
	return buf.Bytes()
}

// A long line passing through is read into a buffer kept from line to line
// and copied once: the bytes allocated per line stay near the line's own
// size, not the sum of the pieces bufio gathered it from (issue 17).
func TestPassThroughLongLinesAllocateOnce(t *testing.T) {
	line := `{"record":"capture","body":"` + string(bytes.Repeat([]byte(`<p>x\"y\"</p>\n`), 300_000)) + `"}` + "\n"
	input := []byte(line + line + line + line)
	st := Stage{Name: "bench", Accept: []string{"normalized"},
		Transform: func(context.Context, []byte) ([]byte, error) { panic("not called") }}
	got := passAllocs(t, input, st)
	// The four lines themselves, one read chunk (2 MiB, reused: no line
	// was handed out from it) and one gathering buffer grown to a line:
	// 6.1 lines' worth (6.9 with bufio's 1 MiB buffer). ReadBytes
	// allocated every 64 KiB piece and again the whole line: 8 lines' worth.
	t.Logf("%.2f lines allocated", float64(got)/float64(len(line)))
	if limit := uint64(7.5 * float64(len(line))); got > limit {
		t.Errorf("passing 4 lines of %d bytes allocated %d bytes, want ≤ %d", len(line), got, limit)
	}
}

// passAllocs runs st over input twice, checks that the input was passed
// through byte for byte, and returns the bytes the second run allocated.
func passAllocs(t *testing.T, input []byte, st Stage) uint64 {
	t.Helper()
	var out bytes.Buffer
	run := func() {
		out.Reset()
		if _, err := Run(context.Background(), bytes.NewReader(input), &out, io.Discard, st); err != nil {
			t.Fatal(err)
		}
	}
	run()
	if !bytes.Equal(out.Bytes(), input) {
		t.Fatal("not passed through byte for byte")
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	run()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}
