package verify

import (
	"github.com/sieve-dev/sieve/evidence/ground"
)

// The grounding-source model lives in evidence/ground, shared with anchor;
// these names keep verify's API (and its callers) unchanged.
type (
	GroundingSource = ground.Source
	Identity        = ground.Identity
	Capabilities    = ground.Capabilities
	Limit           = ground.Limit
	Page            = ground.Page
	Element         = ground.Element
	Box             = ground.Box
	Table           = ground.Table
	Cell            = ground.Cell
)

// Grounding formats, the values of --grounding.
const (
	FormatAuto           = ground.FormatAuto
	FormatEthos          = ground.FormatEthos
	FormatGraph          = ground.FormatGraph
	FormatOpenDataLoader = ground.FormatOpenDataLoader
)

// ErrFormat is returned when the bytes are not the named format.
var ErrFormat = ground.ErrFormat

// Load reads a grounding source of the given format (ground.Load).
func Load(format string, b []byte) (GroundingSource, error) { return ground.Load(format, b) }

// FromEthos adapts a native document.ethos.json (ground.FromEthos).
func FromEthos(b []byte) (GroundingSource, error) { return ground.FromEthos(b) }

// FromGraph adapts a sieve graph record or content.json (ground.FromGraph).
func FromGraph(b []byte) (GroundingSource, error) { return ground.FromGraph(b) }

// FromOpenDataLoader adapts opendataloader-pdf JSON (ground.FromOpenDataLoader).
func FromOpenDataLoader(b []byte) (GroundingSource, error) { return ground.FromOpenDataLoader(b) }
