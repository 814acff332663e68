package render

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/tidwall/gjson"
)

// TestContentBlocksCarryEveryField: every block of content.json (and of
// ContentJSON) carries all of id, type, level, text, source, section_id
// (ARTIFACT.md), level null where it does not apply, numbers where it
// does; the graph record's blocks are unchanged.
func TestContentBlocksCarryEveryField(t *testing.T) {
	for name, path := range goldenCases(t) {
		rec := loadRecord(t, path)
		a, err := Write(Options{Out: t.TempDir(), NoEvidence: true}, rec)
		if err != nil {
			t.Fatal(err)
		}
		file, err := os.ReadFile(filepath.Join(a.Dir, FileContent))
		if err != nil {
			t.Fatal(err)
		}
		line, err := ContentJSON(rec)
		if err != nil {
			t.Fatal(err)
		}
		for what, b := range map[string][]byte{"content.json": file, "ContentJSON": line} {
			blocks := gjson.GetBytes(b, "blocks").Array()
			if len(blocks) != len(rec.Blocks) {
				t.Fatalf("%s %s: %d blocks, want %d", name, what, len(blocks), len(rec.Blocks))
			}
			for i, blk := range blocks {
				for _, k := range []string{"id", "type", "level", "text", "source", "section_id"} {
					if !blk.Get(k).Exists() {
						t.Errorf("%s %s block %d lacks %q: %s", name, what, i, k, blk.Raw)
					}
				}
				lv := blk.Get("level")
				switch want := rec.Blocks[i].Level; {
				case want == 0 && lv.Type != gjson.Null:
					t.Errorf("%s %s block %d: level %s, want null", name, what, i, lv.Raw)
				case want != 0 && lv.Int() != int64(want):
					t.Errorf("%s %s block %d: level %s, want %d", name, what, i, lv.Raw, want)
				}
			}
		}
	}
}
