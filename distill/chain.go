package distill

import (
	"context"

	"github.com/urfave/cli/v2"

	"github.com/sieve-dev/sieve/capture"
	"github.com/sieve-dev/sieve/graph"
	"github.com/sieve-dev/sieve/internal/cliutil"
	"github.com/sieve-dev/sieve/internal/jsonl"
	"github.com/sieve-dev/sieve/normalize"
)

// Chain is capture → normalize → graph → render: the one chain sieve
// distill, sieve crawl and sieve mcp read pages through, under the same
// size budgets (--max-nodes, --max-blocks, --max-latent).
type Chain struct {
	Capturer  *capture.Capturer
	Base      string // --base-url: the final URL of a local file's read
	Normalize normalize.Limits
	Graph     graph.Limits
	// Progress, when set, hears each stage a target got through: 1
	// captured, 2 normalized, 3 graphed, 4 rendered.
	Progress func(stage int)
}

// Flags are the chain's budget flags, on every command that reads pages.
func Flags() []cli.Flag { return append(normalize.LimitFlags(), graph.LimitFlags()...) }

// LimitsFrom are the budgets c's Flags set.
func LimitsFrom(c *cli.Context) (normalize.Limits, graph.Limits, error) {
	nlim, err := normalize.LimitsFrom(c)
	if err != nil {
		return nlim, graph.Limits{}, err
	}
	glim, err := graph.LimitsFrom(c)
	return nlim, glim, err
}

// ChainFrom is the chain of cp under c's budget flags and --base-url.
func ChainFrom(c *cli.Context, cp *capture.Capturer) (Chain, error) {
	ch := Chain{Capturer: cp}
	var err error
	if ch.Base, err = capture.ParseBaseURL(c.String("base-url")); err != nil {
		return ch, cliutil.Usagef("%v", err)
	}
	ch.Normalize, ch.Graph, err = LimitsFrom(c)
	return ch, err
}

// Parts are what a command puts around the chain's own stages on JSON
// lines.
type Parts struct {
	// Capture replaces the capturer's stage (sieve crawl's conditional
	// requests); nil is the capturer's own, with --base-url.
	Capture *jsonl.Stage
	// AfterNormalize run between normalize and graph.
	AfterNormalize []jsonl.Stage
	// Render is the last stage.
	Render jsonl.Stage
}

// Stages is the chain on JSON lines, what the stage binaries give piped:
// the user's fields and the crawl's ride along from line to line.
func (ch Chain) Stages(name string, p Parts) jsonl.Stage {
	capt := capture.BaseURL(ch.Capturer.Stage(), ch.Base)
	if p.Capture != nil {
		capt = *p.Capture
	}
	stages := []jsonl.Stage{ch.told(1, capt), ch.told(2, normalize.StageWith(ch.Normalize))}
	stages = append(append(stages, p.AfterNormalize...), ch.told(3, graph.StageWith(ch.Graph)), ch.told(4, p.Render))
	return jsonl.Chain(name, stages...)
}

// Stage is the chain as one jsonl stage with the in-process hand-off
// (Go values from stage to stage; a target line with fields of the user's
// own goes through Stages instead), each target delivered as d. The
// returned Handed gives back what the stage's lines refer to.
func (ch Chain) Stage(d Deliver) (jsonl.Stage, *Handed) {
	h := ch.handoff(d)
	return h.stage(), h.handed
}

// handoff is the in-process chain of ch delivering as d.
func (ch Chain) handoff(d Deliver) *handoff {
	h := &handoff{ch: ch, capture: ch.Capturer.Capture, deliver: d, handed: &Handed{},
		normalize: func(rec *capture.Record) (*normalize.Record, error) {
			return normalize.NormalizeWith(rec, ch.Normalize)
		},
		graph: func(rec *normalize.Record) *graph.Record { return graph.BuildWith(rec, ch.Graph) },
	}
	h.json = ch.Stages("distill", Parts{Render: d.stage(h.handed)})
	return h
}

// told is st telling Progress of each line it got through.
func (ch Chain) told(n int, st jsonl.Stage) jsonl.Stage {
	if ch.Progress == nil {
		return st
	}
	inner := st.Transform
	st.Transform = func(ctx context.Context, line []byte) ([]byte, error) {
		out, err := inner(ctx, line)
		if err == nil {
			ch.Progress(n)
		}
		return out, err
	}
	return st
}

// progress tells Progress that a target got through stage n.
func (ch Chain) progress(n int) {
	if ch.Progress != nil {
		ch.Progress(n)
	}
}
