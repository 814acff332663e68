package frontier

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/sieve-dev/sieve/diff"
	"github.com/sieve-dev/sieve/graph"
	"github.com/sieve-dev/sieve/internal/codec"
	"github.com/sieve-dev/sieve/render"
)

// Change statuses of a page read over an earlier read's artifact (a
// re-crawl into the same --out, or sieve-frontier settle run again).
const (
	ChangeNew        = "new"         // no artifact before
	ChangeUnchanged  = "unchanged"   // same content_hash and outcome (or 304 Not Modified)
	ChangeChanged    = "changed"     // rewritten: the earlier read kept in previous/, the diff beside it
	ChangeGone       = "gone"        // not reached by this crawl, or now 404/410: the artifact kept
	ChangeBlockedNow = "blocked_now" // the re-read failed otherwise: the good artifact kept
)

// ChangeStatuses are the change statuses in the order the crawl's summary
// line counts them.
var ChangeStatuses = []string{ChangeNew, ChangeUnchanged, ChangeChanged, ChangeGone, ChangeBlockedNow}

// What a changed page's artifact directory keeps of the read before.
const (
	DirPrevious = "previous"  // the earlier read's manifest.json, content.json and index.md
	FileDiff    = "diff.json" // sieve diff --format json of previous/ against this read
)

// previousFiles are the files of the earlier read kept in DirPrevious:
// enough to review the change and to diff or carry citations again.
var previousFiles = []string{render.FileManifest, render.FileContent, render.FileMarkdown}

// Change is what a crawl (or settle) says of a page against the artifact
// it found: the "change" member of its artifact line.
type Change struct {
	Status string `json:"status"`
	Since  string `json:"since"` // the earlier artifact's content_hash; "" when new
	// Summary and Sections are the page diff's (diff.Compare): section
	// counts by change, and every section not unchanged by its stable id.
	// Null and empty unless changed.
	Summary  *diff.Summary   `json:"summary"`
	Sections []SectionChange `json:"sections"`
	Previous string          `json:"previous"` // changed: the directory the earlier read is kept in
	Diff     string          `json:"diff"`     // changed: the diff file (schemas/diff.schema.json)
}

// SectionChange is one section of a changed page that is not unchanged.
type SectionChange struct {
	Change       string `json:"change"`
	OldID        string `json:"old_id"`
	NewID        string `json:"new_id"`
	Title        string `json:"title"` // the new title, or the old one of a removed section
	BlockChanges int    `json:"block_changes"`
}

func newChange(status, since string) *Change {
	return &Change{Status: status, Since: since, Sections: []SectionChange{}}
}

// rereadChange is the status of a failed re-read that kept the artifact:
// gone when the server says the page is not there any more.
func rereadChange(rr *Reread) string {
	if rr.HTTPStatus == http.StatusNotFound || rr.HTTPStatus == http.StatusGone {
		return ChangeGone
	}
	return ChangeBlockedNow
}

// previous is an earlier read's files, read before its directory is
// replaced.
type previous map[string][]byte

func readPrevious(dir string) previous {
	p := previous{}
	for _, name := range previousFiles {
		if b, err := os.ReadFile(filepath.Join(dir, name)); err == nil {
			p[name] = b
		}
	}
	return p
}

// changed keeps the earlier read p in dir/previous/ and writes the diff of
// it against rec beside (dir/diff.json). Without the earlier content.json
// the change is reported without its sections.
func changed(dir, since string, p previous, rec *graph.Record) (*Change, error) {
	c := newChange(ChangeChanged, since)
	prev := filepath.Join(dir, DirPrevious)
	if err := os.MkdirAll(prev, 0o755); err != nil {
		return nil, err
	}
	for _, name := range previousFiles {
		if b, ok := p[name]; ok {
			if err := os.WriteFile(filepath.Join(prev, name), b, 0o644); err != nil {
				return nil, err
			}
		}
	}
	c.Previous = prev
	old, err := diff.Parse(p[render.FileContent])
	if err != nil {
		return c, nil
	}
	r := diff.Compare(old, diff.FromRecord(rec))
	r.Old.Path, r.New.Path = filepath.Join(prev, render.FileContent), filepath.Join(dir, render.FileContent)
	b, err := diff.Render(r, diff.FormatJSON)
	if err != nil {
		return nil, err
	}
	c.Diff = filepath.Join(dir, FileDiff)
	if err := os.WriteFile(c.Diff, b, 0o644); err != nil {
		return nil, err
	}
	c.Summary = &r.Summary
	for _, e := range r.Sections {
		title := e.NewTitle
		if e.Change == diff.Removed {
			title = e.OldTitle
		}
		c.Sections = append(c.Sections, SectionChange{Change: e.Change, OldID: e.OldID, NewID: e.NewID, Title: title, BlockChanges: len(e.Blocks)})
	}
	return c, nil
}

// Changes counts a crawl's pages by change status.
type Changes map[string]int

// Line is the crawl's change summary: "changes: 3 new, 10 unchanged, 2
// changed (5 sections), 1 gone, 0 blocked now".
func (c Changes) Line() string {
	var parts []string
	for _, s := range ChangeStatuses {
		parts = append(parts, fmt.Sprintf("%d %s", c[s], strings.ReplaceAll(s, "_", " ")))
	}
	return "changes: " + strings.Join(parts, ", ")
}

// goneDirs lists the artifact directories under out (out/HOST/PAGE, with
// a manifest.json), sorted, skipping hidden ones (state, temporaries).
func goneDirs(out string) []string {
	var dirs []string
	hosts, _ := os.ReadDir(out)
	for _, h := range hosts {
		if !h.IsDir() || strings.HasPrefix(h.Name(), ".") {
			continue
		}
		pages, _ := os.ReadDir(filepath.Join(out, h.Name()))
		for _, p := range pages {
			if p.IsDir() && !strings.HasPrefix(p.Name(), ".") {
				dirs = append(dirs, filepath.Join(out, h.Name(), p.Name()))
			}
		}
	}
	sort.Strings(dirs)
	return dirs
}

// manifestURL is the URL an artifact directory's manifest.json names.
func manifestURL(dir string) string {
	var m struct {
		URL string `json:"url"`
	}
	b, err := os.ReadFile(filepath.Join(dir, render.FileManifest))
	if err != nil || codec.Unmarshal(b, &m) != nil {
		return ""
	}
	return m.URL
}
