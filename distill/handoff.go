package distill

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/tidwall/gjson"

	"github.com/sieve-dev/sieve/capture"
	"github.com/sieve-dev/sieve/graph"
	"github.com/sieve-dev/sieve/internal/codec"
	"github.com/sieve-dev/sieve/internal/jsonl"
	"github.com/sieve-dev/sieve/internal/record"
	"github.com/sieve-dev/sieve/normalize"
)

// handoff is sieve distill's chain in one process: capture → normalize →
// graph → render with Go values from stage to stage, no JSON in between.
// It writes what the four stage binaries write when piped (a test holds
// the bytes equal): each record is made what the next stage would decode
// from its line (asDecoded), a stage's failure becomes that stage's error
// record quoting that stage's input line (encoded only then), and a line
// the end of the run overtakes is interrupted in the stage it was in.
//
// A target line that is a JSON object with fields of the user's own (an
// "id") goes through the JSON chain instead: those fields ride along from
// line to line exactly as in the pipe.
type handoff struct {
	ch        Chain
	capture   func(context.Context, capture.Target) capture.Record // ch.Capturer.Capture
	normalize func(*capture.Record) (*normalize.Record, error)
	graph     func(*normalize.Record) *graph.Record
	deliver   Deliver
	json      jsonl.Stage // the JSON chain (user fields)
	handed    *Handed
}

// stage is the chain as one jsonl stage (Run keeps the order, the
// concurrency and the error records).
func (h *handoff) stage() jsonl.Stage {
	st := h.ch.Capturer.Stage()
	st.Name = "distill"
	st.Transform = h.transform
	return st
}

func (h *handoff) transform(ctx context.Context, line []byte) ([]byte, error) {
	if ownFields(line) {
		return h.json.Transform(ctx, line)
	}
	var crec capture.Record
	if err := step(ctx, "capture", func() []byte { return line }, func() error {
		t, err := capture.ParseTarget(line)
		if err != nil {
			return err
		}
		crec = h.capture(ctx, t)
		return nil
	}); err != nil {
		return nil, err
	}
	if h.ch.Base != "" && strings.HasPrefix(crec.URL, "file:") {
		crec.FinalURL = h.ch.Base // as capture.BaseURL does to the line
	}
	h.ch.progress(1)
	captureAsDecoded(&crec)
	var nrec *normalize.Record
	if err := step(ctx, "normalize", lineOf(&crec), func() error {
		if err := ctx.Err(); err != nil {
			return err
		}
		var err error
		nrec, err = h.normalize(&crec)
		return err
	}); err != nil {
		return nil, err
	}
	h.ch.progress(2)
	asDecoded(nrec)
	var grec *graph.Record
	if err := step(ctx, "graph", lineOf(nrec), func() error {
		grec = h.graph(nrec)
		return nil
	}); err != nil {
		return nil, err
	}
	h.ch.progress(3)
	asDecoded(grec)
	var res Delivered
	if err := step(ctx, "render", lineOf(grec), func() error {
		var err error
		res, err = h.deliver.deliver(ctx, grec)
		return err
	}); err != nil {
		return nil, err
	}
	h.ch.progress(4)
	return h.handed.put(res), nil
}

// step runs one stage of the chain as jsonl.Chain would: a panic is an
// internal error, the end of ctx an interruption, and a failure is that
// stage's error record on its input line.
func step(ctx context.Context, stage string, input func() []byte, f func() error) error {
	err := func() (err error) {
		defer func() {
			if p := recover(); p != nil {
				err = fmt.Errorf("internal error: %v", p)
			}
		}()
		return f()
	}()
	if ctx.Err() != nil {
		err = jsonl.Interruption(ctx)
	}
	if err != nil {
		return &jsonl.StageError{Stage: stage, Input: input(), Err: err}
	}
	return nil
}

// lineOf is the JSON line of a record, made only for an error record.
func lineOf(v any) func() []byte {
	return func() []byte {
		b, _ := codec.Marshal(v)
		return b
	}
}

// ownFields reports whether a target line is a JSON object with a field
// other than "url".
func ownFields(line []byte) bool {
	line = []byte(strings.TrimSpace(string(line)))
	if len(line) == 0 || line[0] != '{' || !gjson.ValidBytes(line) {
		return false
	}
	other := false
	gjson.ParseBytes(line).ForEach(func(k, _ gjson.Result) bool {
		other = k.Str != "url"
		return !other
	})
	return other
}

// kindHanded is the line the chain gives jsonl.Run for a delivered target:
// a reference to the Go value, which outWriter takes back. It never leaves
// the process.
const kindHanded = "sieve.handed"

// Handed holds the delivered values between the chain and what reads its
// lines (outWriter, sieve mcp).
type Handed struct {
	next atomic.Uint64
	m    sync.Map // uint64 → Delivered
}

func (h *Handed) put(d Delivered) []byte {
	id := h.next.Add(1)
	h.m.Store(id, d)
	return []byte(`{"record":"` + kindHanded + `","ref":` + strconv.FormatUint(id, 10) + `}`)
}

// Take returns the value a handed line refers to, once.
func (h *Handed) Take(line []byte) (Delivered, bool) {
	if h == nil || record.Kind(line) != kindHanded {
		return Delivered{}, false
	}
	v, ok := h.m.LoadAndDelete(gjson.GetBytes(line, "ref").Uint())
	if !ok {
		return Delivered{}, false
	}
	return v.(Delivered), true
}
