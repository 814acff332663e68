package diff

// Report statuses.
const (
	StatusUnchanged = "unchanged" // equal content_hash and outcome
	StatusChanged   = "changed"
)

// Section and block changes.
const (
	Added   = "added"
	Removed = "removed"
	Renamed = "renamed" // same place, new heading (and so a new section id)
	Changed = "changed" // same id and place, body edited
	Moved   = "moved"   // same id, another place among the sections
	Edited  = "edited"  // a block: the same block with its text edited
)

// Word diff operations.
const (
	WordEqual  = "equal"
	WordDelete = "delete"
	WordInsert = "insert"
)

// Report is the diff of two reads of a page (schemas/diff.schema.json).
type Report struct {
	SchemaVersion string    `json:"schema_version"`
	Status        string    `json:"status"`
	Old           Side      `json:"old"`
	New           Side      `json:"new"`
	Outcome       *Outcome  `json:"outcome"` // null unless the outcome changed
	Summary       Summary   `json:"summary"`
	Sections      []Entry   `json:"sections"`
	Latent        LatentSet `json:"latent"`
	// Coarse says some stretch was too far apart to align within the
	// diff's bound: it is reported as removed and added whole.
	Coarse bool `json:"coarse"`

	// blocks and sections map old ids to new ones (blocks matched or
	// edited, sections matched or renamed): what carries a claim's
	// locator to the new document.
	blocks, sections map[string]string
}

// Side identifies one of the two reads.
type Side struct {
	Path              string `json:"path"`
	URL               string `json:"url"`
	FinalURL          string `json:"final_url"`
	Outcome           string `json:"outcome"`
	ContentHash       string `json:"content_hash"`
	SourceFingerprint string `json:"source_fingerprint"`
	DistilledAt       string `json:"distilled_at"`
	Sections          int    `json:"sections"`
	Blocks            int    `json:"blocks"`
}

// Outcome is an outcome change.
type Outcome struct {
	Old string `json:"old"`
	New string `json:"new"`
}

// Summary counts the content sections by change; Unchanged are the
// sections present, in place and equal in both.
type Summary struct {
	Added     int `json:"added"`
	Removed   int `json:"removed"`
	Renamed   int `json:"renamed"`
	Changed   int `json:"changed"`
	Moved     int `json:"moved"`
	Unchanged int `json:"unchanged"`
}

// Entry is one section that is not unchanged. OldID/NewID and their
// indexes (0-based among the content sections) are empty/-1 on the side
// that lacks it. Blocks lists its body's block changes (added and removed
// sections list none: their blocks are all added or removed).
type Entry struct {
	Change   string        `json:"change"`
	OldID    string        `json:"old_id"`
	NewID    string        `json:"new_id"`
	OldTitle string        `json:"old_title"`
	NewTitle string        `json:"new_title"`
	OldIndex int           `json:"old_index"`
	NewIndex int           `json:"new_index"`
	Level    int           `json:"level"`
	Size     int           `json:"blocks"` // body blocks on the side that has them (the new one when both)
	Blocks   []BlockChange `json:"block_changes"`
}

// BlockChange is one block added, removed or edited in a section's body.
type BlockChange struct {
	Change  string       `json:"change"`
	Type    string       `json:"type"`
	OldID   string       `json:"old_id"`
	NewID   string       `json:"new_id"`
	OldText string       `json:"old_text"`
	NewText string       `json:"new_text"`
	Words   []Word       `json:"words"` // edited only: the word-level diff
	Cells   []CellChange `json:"cells"` // an edited table's cells whose text changed
}

// Word is a run of words the diff keeps, deletes or inserts.
type Word struct {
	Op   string `json:"op"`
	Text string `json:"text"`
}

// CellChange is a table cell whose text changed, by 0-based row and
// column of the new table.
type CellChange struct {
	Row    int    `json:"row"`
	Column int    `json:"column"`
	Old    string `json:"old"`
	New    string `json:"new"`
}

// LatentSet is the change in quarantined hidden text, kept apart from the
// visible diff. Every entry carries the trust marker.
type LatentSet struct {
	Changed bool          `json:"changed"`
	Added   []LatentEntry `json:"added"`
	Removed []LatentEntry `json:"removed"`
}

// LatentEntry is one latent text added or removed.
type LatentEntry struct {
	ID        string `json:"id"`
	Trust     string `json:"trust"`
	Text      string `json:"text"`
	Reason    string `json:"reason"`
	SectionID string `json:"section_id"`
}
