package graph

import "github.com/sieve-dev/sieve/normalize"

// boxQuantum is the grid block boxes are rounded to (CSS px), so that a
// pixel of layout jitter does not change the graph.
const boxQuantum = 8

// blockBoxes gives each block the quantised box of its element (render
// tier: nodes carry boxes). Blocks whose element has no box keep none.
func blockBoxes(blocks []Block, nodes []normalize.Node) {
	byPath := make(map[string]*normalize.Box, len(nodes)/2)
	for i := range nodes {
		n := &nodes[i]
		if n.Box != nil && n.Path != "" {
			if _, dup := byPath[n.Path]; !dup {
				byPath[n.Path] = n.Box
			}
		}
	}
	for i := range blocks {
		b := byPath[blocks[i].Path]
		if b == nil || b.W == 0 && b.H == 0 {
			continue
		}
		blocks[i].Box = &Box{X: quantise(b.X), Y: quantise(b.Y), W: quantise(b.W), H: quantise(b.H)}
	}
}

func quantise(v int) int {
	if v < 0 {
		return -quantise(-v)
	}
	return (v + boxQuantum/2) / boxQuantum * boxQuantum
}
