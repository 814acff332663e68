package main

import (
	"math"
	"sort"

	"github.com/sieve-dev/sieve/graph"
)

// The learner: gradient-boosted trees of fixed depth on the logistic
// loss, with features cut into at most numBins quantile bins. Rows are
// visited in a fixed order and sums run in that order, so the model is a
// function of the pages alone.
const (
	numTrees = 250
	depth    = 5
	numBins  = 32
	rate     = 0.1
	lambda   = 1.0
	minHW    = 20.0 // least hessian weight in a leaf
)

// data is the training rows: features binned, label, weight.
type data struct {
	x      [][]float32
	bins   [][]uint8 // per row, per feature
	y, w   []float64
	thr    [][]float32 // per feature, the bins' upper bounds
	sets   []string
	weight float64
}

// rowsOf collects the labelled text blocks of every set but holdout (-1:
// all), weighted so that each set, and each page within it, weighs the
// same, and a block by its words; the weights sum to the row count.
func rowsOf(sets []*evalSet, holdout int) *data {
	d := &data{}
	for si, s := range sets {
		if si == holdout {
			continue
		}
		d.sets = append(d.sets, s.name)
		for _, p := range s.pages {
			first, total := len(d.w), 0.0
			for i, r := range p.rows {
				if p.labels[i] < 0 || !r.Decided {
					continue
				}
				d.x = append(d.x, r.Features)
				d.y = append(d.y, float64(p.labels[i]))
				n := float64(len(words(r.Text))) + 1
				d.w = append(d.w, n)
				total += n
			}
			for i := first; i < len(d.w); i++ {
				d.w[i] /= total * float64(len(s.pages))
			}
		}
	}
	scale := float64(len(d.w)) / float64(len(d.sets))
	for i := range d.w {
		d.w[i] *= scale
	}
	d.binAll()
	return d
}

// binAll cuts each feature at the quantiles of its distinct values.
func (d *data) binAll() {
	nf := len(graph.FeatureNames)
	d.thr = make([][]float32, nf)
	d.bins = make([][]uint8, len(d.x))
	for i := range d.bins {
		d.bins[i] = make([]uint8, nf)
	}
	col := make([]float32, len(d.x))
	for f := 0; f < nf; f++ {
		for i, x := range d.x {
			col[i] = x[f]
		}
		d.thr[f] = cuts(col)
		for i, x := range d.x {
			d.bins[i][f] = uint8(sort.Search(len(d.thr[f]), func(k int) bool { return x[f] <= d.thr[f][k] }))
		}
	}
}

// cuts are up to numBins-1 thresholds between the distinct values of col.
func cuts(col []float32) []float32 {
	s := append([]float32(nil), col...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	var distinct []float32
	for i, v := range s {
		if i == 0 || v != s[i-1] {
			distinct = append(distinct, v)
		}
	}
	if len(distinct) <= 1 {
		return nil
	}
	var out []float32
	step := float64(len(s)) / numBins
	for b := 1; b < numBins; b++ {
		v := s[int(float64(b)*step)]
		if v == distinct[len(distinct)-1] {
			break
		}
		if len(out) == 0 || v > out[len(out)-1] {
			out = append(out, v)
		}
	}
	if len(out) == 0 {
		out = append(out, distinct[0])
	}
	return out
}

// train fits the model on every set but holdout (-1: all).
func train(sets []*evalSet, holdout int) *graph.BlockModel {
	d := rowsOf(sets, holdout)
	pos, all := 0.0, 0.0
	for i := range d.y {
		pos += d.w[i] * d.y[i]
		all += d.w[i]
	}
	base := math.Log(pos / (all - pos))
	m := &graph.BlockModel{Features: graph.FeatureNames, Depth: depth, Base: base,
		Params: graph.ModelParams{Trees: numTrees, Depth: depth, Bins: numBins, Rate: rate, Lambda: lambda, MinHW: minHW, Sets: d.sets, Rows: len(d.y)},
		Notes:  "make train (bench/quality/train): boosted trees over the block features; log-odds of content = base + one leaf per tree"}
	score := make([]float64, len(d.y))
	for i := range score {
		score[i] = base
	}
	g, h := make([]float64, len(d.y)), make([]float64, len(d.y))
	for t := 0; t < numTrees; t++ {
		for i := range d.y {
			p := 1 / (1 + math.Exp(-score[i]))
			g[i], h[i] = d.w[i]*(p-d.y[i]), d.w[i]*max(p*(1-p), 1e-6)
		}
		tr, leafOf := d.grow(g, h)
		for i := range score {
			score[i] += float64(tr.Leaf[leafOf[i]])
		}
		m.Trees = append(m.Trees, tr)
	}
	return m
}

// grow builds one tree level by level; leafOf is each row's leaf.
func (d *data) grow(g, h []float64) (graph.ModelTree, []int) {
	inner := 1<<depth - 1
	tr := graph.ModelTree{Feature: make([]int, inner), Threshold: make([]float32, inner), Leaf: make([]float32, inner+1)}
	node := make([]int, len(g)) // every row starts at the root
	nf := len(graph.FeatureNames)
	for level := 0; level < depth; level++ {
		first, width := 1<<level-1, 1<<level
		hg := make([]float64, width*nf*numBins)
		hh := make([]float64, width*nf*numBins)
		for i, k := range node {
			base := (k - first) * nf * numBins
			for f, b := range d.bins[i] {
				hg[base+f*numBins+int(b)] += g[i]
				hh[base+f*numBins+int(b)] += h[i]
			}
		}
		for k := 0; k < width; k++ {
			off := k * nf * numBins
			tr.Feature[first+k], tr.Threshold[first+k] = d.bestSplit(hg[off:off+nf*numBins], hh[off:off+nf*numBins])
		}
		for i, k := range node {
			f := tr.Feature[k]
			if d.x[i][f] <= tr.Threshold[k] {
				node[i] = 2*k + 1
			} else {
				node[i] = 2*k + 2
			}
		}
	}
	sg, sh := make([]float64, inner+1), make([]float64, inner+1)
	for i, k := range node {
		node[i] = k - inner
		sg[node[i]] += g[i]
		sh[node[i]] += h[i]
	}
	for l := range tr.Leaf {
		tr.Leaf[l] = float32(-rate * sg[l] / (sh[l] + lambda))
	}
	return tr, node
}

// bestSplit is the feature and threshold of the largest gain in one
// node's histograms; a node not worth splitting sends every row left.
func (d *data) bestSplit(hg, hh []float64) (int, float32) {
	nf := len(graph.FeatureNames)
	var G, H float64
	for b := 0; b < numBins; b++ {
		G += hg[b]
		H += hh[b]
	}
	parent := G * G / (H + lambda)
	bestGain, bestF, bestT := 1e-9, 0, float32(math.MaxFloat32)
	for f := 0; f < nf; f++ {
		var gl, hl float64
		for b := 0; b < len(d.thr[f]); b++ {
			gl += hg[f*numBins+b]
			hl += hh[f*numBins+b]
			gr, hr := G-gl, H-hl
			if hl < minHW || hr < minHW {
				continue
			}
			if gain := gl*gl/(hl+lambda) + gr*gr/(hr+lambda) - parent; gain > bestGain {
				bestGain, bestF, bestT = gain, f, d.thr[f][b]
			}
		}
	}
	return bestF, bestT
}
