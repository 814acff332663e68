package jsonl

import (
	"bytes"
	"fmt"
	"io"
	"math/rand"
	"strings"
	"testing"
	"testing/iotest"
)

// refLines is what readLines must give: the non-blank lines of data,
// trimmed, with their 1-based numbers (blank lines count).
func refLines(data []byte) []string {
	var out []string
	parts := bytes.Split(data, []byte("\n"))
	for i, p := range parts {
		if t := bytes.TrimSpace(p); len(t) > 0 {
			out = append(out, fmt.Sprintf("%d:%s", i+1, t))
		}
	}
	return out
}

// checkReadLines reads data through chunks of size bytes, the reader
// giving at most step bytes a read, and holds each line (and its chunk)
// for hold lines before letting it go, writing the newline into the room
// after it as emit does.
func checkReadLines(t *testing.T, data []byte, size, step, hold int) {
	t.Helper()
	pool := &chunkPool{size: size}
	type held struct {
		line []byte
		want string
		c    *chunk
	}
	var got []string
	var queue []held
	let := func(h held) {
		if string(h.line) != h.want[strings.IndexByte(h.want, ':')+1:] {
			t.Fatalf("size %d step %d: line %q changed to %q while held", size, step, h.want, h.line)
		}
		if cap(h.line) <= len(h.line) {
			t.Fatalf("no room after line %q", h.line)
		}
		_ = append(h.line, '\n')
		if h.c != nil {
			h.c.release(pool)
		}
	}
	var r io.Reader = bytes.NewReader(data)
	if step > 0 {
		r = iotest.OneByteReader(r)
		if step > 1 {
			r = &stepReader{r: bytes.NewReader(data), step: step}
		}
	}
	err := readLines(r, pool, func(no int, line []byte, c *chunk) bool {
		s := fmt.Sprintf("%d:%s", no, line)
		got = append(got, s)
		queue = append(queue, held{line, s, c})
		if len(queue) > hold {
			let(queue[0])
			queue = queue[1:]
		}
		return true
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range queue {
		let(h)
	}
	want := refLines(data)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("size %d step %d hold %d: lines\n%q\nwant\n%q", size, step, hold, got, want)
	}
}

type stepReader struct {
	r    io.Reader
	step int
}

func (s *stepReader) Read(p []byte) (int, error) {
	if len(p) > s.step {
		p = p[:s.step]
	}
	return s.r.Read(p)
}

// Lines cut by chunk ends (carried to the next chunk, or slid to the start
// of a chunk no line holds), lines longer than a chunk, blank lines and
// white space, a last line without a newline: readLines gives the lines
// bufio did, and a line handed out stays intact while it is held.
func TestReadLinesChunks(t *testing.T) {
	rng := rand.New(rand.NewSource(17))
	pieces := []string{"", " ", "\t", "\r", "x", "{}", "abcdefghij", "\u00a0", strings.Repeat("y", 40), "\n", "\n", "\n"}
	for i := 0; i < 400; i++ {
		var b strings.Builder
		for n := rng.Intn(60); n > 0; n-- {
			b.WriteString(pieces[rng.Intn(len(pieces))])
		}
		data := []byte(b.String())
		for _, size := range []int{1 << 3, 1 << 5, 1 << 7} {
			checkReadLines(t, data, size, rng.Intn(3)*7, rng.Intn(4))
		}
	}
}

func FuzzReadLines(f *testing.F) {
	f.Add([]byte("a\n\nbb \n  ccc"), uint8(4), uint8(0), uint8(2))
	f.Add([]byte(strings.Repeat("x", 50)+"\ny\n"), uint8(8), uint8(3), uint8(0))
	f.Fuzz(func(t *testing.T, data []byte, size, step, hold uint8) {
		checkReadLines(t, data, int(size%64)+1, int(step%16), int(hold%5))
	})
}
