package verify

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/sieve-dev/sieve/internal/eef"
	"github.com/sieve-dev/sieve/internal/ground"
)

// The grounding-source model lives in internal/ground, shared with anchor;
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

// loadBeside loads the source in b, read from path; a document.ethos.json
// with its bundle's security_report.json beside it carries that report's
// findings (SPEC.md §4.8), so a report on it warns at their severity. A
// report there that is not the document's is refused, not ignored.
func loadBeside(format, path string, b []byte) (GroundingSource, error) {
	src, err := Load(format, b)
	if err != nil || src.Identity().Format != FormatEthos {
		return src, err
	}
	rb, err := os.ReadFile(filepath.Join(filepath.Dir(path), eef.FileSecurityReport))
	if errors.Is(err, fs.ErrNotExist) {
		return src, nil
	}
	if err != nil {
		return nil, err
	}
	return ground.WithSecurityReport(src, rb)
}
