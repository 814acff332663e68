package c14n

import (
	"bytes"
	"strconv"
	"testing"
)

// pieces records each Write it is given.
type pieces struct {
	bytes.Buffer
	writes, largest int
}

func (p *pieces) Write(b []byte) (int, error) {
	p.writes++
	p.largest = max(p.largest, len(b))
	return p.Buffer.Write(b)
}

type streamItem struct {
	ID   string `json:"id"`
	Text string `json:"text"`
	N    int    `json:"n"`
}

type streamDoc struct {
	Zeta  string       `json:"zeta"`
	Items []streamItem `json:"items"`
	Part  streamPart   `json:"part"`
	Alpha []int        `json:"alpha"`
}

type streamPart struct {
	Items []streamItem `json:"items"`
}

func bigDoc(n int) *streamDoc {
	d := &streamDoc{Zeta: "z\n\"", Alpha: []int{3, -1}}
	for i := 0; i < n; i++ {
		it := streamItem{ID: "e" + strconv.Itoa(i), Text: "x\u2028<é>", N: i}
		d.Items = append(d.Items, it)
		d.Part.Items = append(d.Part.Items, it)
	}
	return d
}

// Encode writes Marshal's bytes in pieces of about flushAt, never the
// whole; EncodeReusing writes MarshalReusing's.
func TestEncodeStreamsMarshalsBytes(t *testing.T) {
	for _, n := range []int{0, 1, 10, 20000} {
		d := bigDoc(n)
		want, err := Marshal(d)
		if err != nil {
			t.Fatal(err)
		}
		var got pieces
		if err := Encode(&got, d); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want) {
			t.Fatalf("n=%d: Encode differs from Marshal", n)
		}
		if len(want) > 4*flushAt && (got.writes < 4 || got.largest > flushAt+4096) {
			t.Errorf("n=%d: %d bytes in %d writes, largest %d: not streamed", n, len(want), got.writes, got.largest)
		}
		canon, err := Marshal(&d.Part)
		if err != nil {
			t.Fatal(err)
		}
		want, err = MarshalReusing(d, &d.Part, canon)
		if err != nil {
			t.Fatal(err)
		}
		got = pieces{}
		if err := EncodeReusing(&got, d, &d.Part, canon); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want) {
			t.Fatalf("n=%d: EncodeReusing differs from MarshalReusing", n)
		}
	}
}

// An error names the same offset whether the bytes before it were
// flushed or not.
func TestEncodeErrorOffset(t *testing.T) {
	type bad struct {
		Items []streamItem `json:"items"`
		F     float64      `json:"z"`
	}
	v := bad{Items: bigDoc(20000).Items, F: 0.5}
	_, werr := Marshal(v)
	var got bytes.Buffer
	eerr := Encode(&got, v)
	if werr == nil || eerr == nil || werr.Error() != eerr.Error() {
		t.Fatalf("Marshal: %v; Encode: %v", werr, eerr)
	}
}
