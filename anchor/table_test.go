package anchor

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/sieve-dev/sieve/internal/cliutil"
	"github.com/sieve-dev/sieve/schemas"
)

// refCase is one evidence ref (its JSON without evidence_id) and the
// status and achieved level `sieve evidence anchor` must give it.
type refCase struct {
	name, ref        string
	status, achieved string
}

// The PDF fixture (pdfRecord): p0001 612×792 holds e000001 "Quarterly
// Report" [72 60 300 24], e000002 "Revenue grew 12% …" [72 100 400 14] and
// table t0001 (e000003, [72 140 200 60]; row 2, column 1 is "950" at
// [172 180 100 20]); p0002 792×612 holds e000005 "We expect steady demand
// next year."; p0003 is empty.
const (
	aroundRevenue = `[60,90,450,30]`   // e000002 only
	aroundTitle   = `[72,60,300,24]`   // e000001 only
	aroundTable   = `[60,130,300,100]` // the table only
	topOfPage     = `[60,50,450,70]`   // e000001 and e000002
	offPage       = `[0,700,100,200]`  // past p0001's bottom edge
)

// anchorTable: every v1 evidence-ref kind, with every locator field alone
// and combined (present, absent, naming something that is not there), and
// the status each gives on a source with boxes and tables (SPEC.md §4.6,
// §6.1, §7: fail closed, never guess). Absent fields are the kind's bare
// ref; malformed fields are in malformedRefs (request errors, exit 8).
var anchorTable = []refCase{
	// page: page_ref is its own; bbox lies on the page at any level; every
	// other field narrows the page to what it names.
	{"page", `{"kind":"page","page_ref":"p0001"}`, StatusBound, LevelPage},
	{"page/page-missing", `{"kind":"page","page_ref":"p0099"}`, StatusNotFound, ""},
	{"page/element", `{"kind":"page","page_ref":"p0001","element_ref":"e000002"}`, StatusBound, LevelPage},
	{"page/element-native", `{"kind":"page","page_ref":"p0001","element_ref":"b_001"}`, StatusBound, LevelPage},
	{"page/element-other-page", `{"kind":"page","page_ref":"p0001","element_ref":"e000005"}`, StatusNotFound, ""},
	{"page/element-missing", `{"kind":"page","page_ref":"p0001","element_ref":"e999999"}`, StatusNotFound, ""},
	{"page/table", `{"kind":"page","page_ref":"p0001","table_ref":"t0001"}`, StatusBound, LevelPage},
	{"page/table-other-page", `{"kind":"page","page_ref":"p0002","table_ref":"t0001"}`, StatusNotFound, ""},
	{"page/table-missing", `{"kind":"page","page_ref":"p0001","table_ref":"t0099"}`, StatusNotFound, ""},
	{"page/row-without-table", `{"kind":"page","page_ref":"p0001","row":1}`, StatusNotFound, ""},
	{"page/column-without-table", `{"kind":"page","page_ref":"p0001","column":1}`, StatusNotFound, ""},
	{"page/table-row", `{"kind":"page","page_ref":"p0001","table_ref":"t0001","row":2}`, StatusBound, LevelPage},
	{"page/table-row-missing", `{"kind":"page","page_ref":"p0001","table_ref":"t0001","row":99}`, StatusNotFound, ""},
	{"page/table-column", `{"kind":"page","page_ref":"p0001","table_ref":"t0001","column":1}`, StatusBound, LevelPage},
	{"page/table-column-missing", `{"kind":"page","page_ref":"p0001","table_ref":"t0001","column":99}`, StatusNotFound, ""},
	{"page/table-cell", `{"kind":"page","page_ref":"p0001","table_ref":"t0001","row":2,"column":1}`, StatusBound, LevelPage},
	{"page/table-cell-missing", `{"kind":"page","page_ref":"p0001","table_ref":"t0001","row":99,"column":99}`, StatusNotFound, ""},
	{"page/text", `{"kind":"page","page_ref":"p0001","text":"Revenue grew"}`, StatusBound, LevelPage},
	{"page/text-other-page", `{"kind":"page","page_ref":"p0001","text":"steady demand"}`, StatusMismatch, ""},
	{"page/text-missing", `{"kind":"page","page_ref":"p0001","text":"words on no page anywhere"}`, StatusNotFound, ""},
	{"page/text-blank", `{"kind":"page","page_ref":"p0001","text":"  "}`, StatusNotFound, ""},
	{"page/bbox", `{"kind":"page","page_ref":"p0001","bbox":` + topOfPage + `}`, StatusBound, LevelPage},
	{"page/bbox-off-page", `{"kind":"page","page_ref":"p0001","bbox":` + offPage + `}`, StatusMismatch, LevelPage},
	{"page/at-bbox", `{"kind":"page","page_ref":"p0001","required_anchor_level":"bbox","bbox":` + topOfPage + `}`, StatusBound, LevelBBox},
	{"page/at-bbox-off-page", `{"kind":"page","page_ref":"p0001","required_anchor_level":"bbox","bbox":` + offPage + `}`, StatusMismatch, LevelPage},
	{"page/element-in-bbox", `{"kind":"page","page_ref":"p0001","element_ref":"e000002","bbox":` + topOfPage + `}`, StatusBound, LevelPage},
	{"page/element-outside-bbox", `{"kind":"page","page_ref":"p0001","element_ref":"e000002","bbox":` + aroundTitle + `}`, StatusNotFound, ""},
	{"page/text-in-element", `{"kind":"page","page_ref":"p0001","element_ref":"e000002","text":"Revenue grew"}`, StatusBound, LevelPage},
	{"page/text-not-in-element", `{"kind":"page","page_ref":"p0001","element_ref":"e000001","text":"Revenue grew"}`, StatusMismatch, ""},
	{"page/text-in-cell", `{"kind":"page","page_ref":"p0001","table_ref":"t0001","row":2,"column":1,"text":"950"}`, StatusBound, LevelPage},
	{"page/text-in-other-cell", `{"kind":"page","page_ref":"p0001","table_ref":"t0001","row":2,"column":1,"text":"North"}`, StatusMismatch, ""},
	{"page/text-in-bbox-at-bbox", `{"kind":"page","page_ref":"p0001","required_anchor_level":"bbox","bbox":` + aroundRevenue + `,"text":"Revenue grew"}`, StatusBound, LevelBBox},
	{"page/text-outside-bbox-at-bbox", `{"kind":"page","page_ref":"p0001","required_anchor_level":"bbox","bbox":` + aroundTitle + `,"text":"Revenue grew"}`, StatusMismatch, ""},

	// text: text is its own; every locator field narrows where it is found.
	{"text", `{"kind":"text","text":"Revenue grew"}`, StatusBound, LevelText},
	{"text/text-missing", `{"kind":"text","text":"words on no page anywhere"}`, StatusNotFound, ""},
	{"text/page", `{"kind":"text","text":"Revenue grew","page_ref":"p0001"}`, StatusBound, LevelText},
	{"text/page-other", `{"kind":"text","text":"Revenue grew","page_ref":"p0002"}`, StatusMismatch, ""},
	{"text/page-missing", `{"kind":"text","text":"Revenue grew","page_ref":"p0099"}`, StatusNotFound, ""},
	{"text/element", `{"kind":"text","text":"Revenue grew","element_ref":"e000002"}`, StatusBound, LevelText},
	{"text/element-other", `{"kind":"text","text":"Revenue grew","element_ref":"e000001"}`, StatusMismatch, ""},
	{"text/element-missing", `{"kind":"text","text":"Revenue grew","element_ref":"e999999"}`, StatusNotFound, ""},
	{"text/page-element-other-page", `{"kind":"text","text":"Revenue grew","page_ref":"p0002","element_ref":"e000002"}`, StatusNotFound, ""},
	{"text/table", `{"kind":"text","text":"South","table_ref":"t0001"}`, StatusBound, LevelText},
	{"text/table-other", `{"kind":"text","text":"Revenue grew","table_ref":"t0001"}`, StatusMismatch, ""},
	{"text/table-missing", `{"kind":"text","text":"South","table_ref":"t0099"}`, StatusNotFound, ""},
	{"text/row-column-without-table", `{"kind":"text","text":"Revenue grew","row":99,"column":99}`, StatusNotFound, ""},
	{"text/row-without-table", `{"kind":"text","text":"Revenue grew","row":0}`, StatusNotFound, ""},
	{"text/column-without-table", `{"kind":"text","text":"Revenue grew","column":0}`, StatusNotFound, ""},
	{"text/cell", `{"kind":"text","text":"950","table_ref":"t0001","row":2,"column":1}`, StatusBound, LevelText},
	{"text/cell-other", `{"kind":"text","text":"950","table_ref":"t0001","row":1,"column":1}`, StatusMismatch, ""},
	{"text/cell-missing", `{"kind":"text","text":"950","table_ref":"t0001","row":99,"column":99}`, StatusNotFound, ""},
	{"text/row", `{"kind":"text","text":"950","table_ref":"t0001","row":2}`, StatusBound, LevelText},
	{"text/row-other", `{"kind":"text","text":"950","table_ref":"t0001","row":0}`, StatusMismatch, ""},
	{"text/row-missing", `{"kind":"text","text":"950","table_ref":"t0001","row":99}`, StatusNotFound, ""},
	{"text/column", `{"kind":"text","text":"950","table_ref":"t0001","column":1}`, StatusBound, LevelText},
	{"text/column-other", `{"kind":"text","text":"950","table_ref":"t0001","column":0}`, StatusMismatch, ""},
	{"text/column-missing", `{"kind":"text","text":"950","table_ref":"t0001","column":99}`, StatusNotFound, ""},
	{"text/text-outside-table", `{"kind":"text","text":"steady demand","table_ref":"t0001","row":2,"column":1}`, StatusMismatch, ""},
	{"text/bbox", `{"kind":"text","text":"Revenue grew","page_ref":"p0001","bbox":` + aroundRevenue + `}`, StatusBound, LevelText},
	{"text/bbox-other", `{"kind":"text","text":"Revenue grew","page_ref":"p0001","bbox":` + aroundTitle + `}`, StatusMismatch, ""},
	{"text/bbox-off-page", `{"kind":"text","text":"Revenue grew","page_ref":"p0001","bbox":` + offPage + `}`, StatusNotFound, ""},
	{"text/bbox-without-page", `{"kind":"text","text":"Revenue grew","bbox":` + aroundRevenue + `}`, StatusNotFound, ""},
	{"text/element-outside-bbox", `{"kind":"text","text":"Revenue grew","element_ref":"e000002","bbox":` + aroundTitle + `}`, StatusNotFound, ""},
	{"text/at-page", `{"kind":"text","text":"Revenue grew","required_anchor_level":"page"}`, StatusBound, LevelPage},
	{"text/at-page-other", `{"kind":"text","text":"Revenue grew","page_ref":"p0002","required_anchor_level":"page"}`, StatusMismatch, ""},
	{"text/at-text-bbox", `{"kind":"text","text":"Revenue grew","required_anchor_level":"text_bbox"}`, StatusBound, LevelTextBBox},
	{"text/at-bbox", `{"kind":"text","text":"Revenue grew","required_anchor_level":"bbox"}`, StatusBound, LevelBBox},
	{"text/cell-at-text-bbox", `{"kind":"text","text":"950","table_ref":"t0001","row":2,"column":1,"required_anchor_level":"text_bbox"}`, StatusBound, LevelTextBBox},
	{"text/cell-at-text-bbox-missing", `{"kind":"text","text":"950","table_ref":"t0001","row":2,"column":7,"required_anchor_level":"text_bbox"}`, StatusNotFound, ""},

	// text_region: text, page_ref and bbox are its own, checked at every
	// level; element, table, row and column narrow inside the box.
	{"text_region", `{"kind":"text_region","text":"Revenue grew","page_ref":"p0001","bbox":` + aroundRevenue + `}`, StatusBound, LevelTextBBox},
	{"text_region/text-missing", `{"kind":"text_region","text":"words on no page anywhere","page_ref":"p0001","bbox":` + aroundRevenue + `}`, StatusNotFound, ""},
	{"text_region/page-missing", `{"kind":"text_region","text":"Revenue grew","page_ref":"p0099","bbox":` + aroundRevenue + `}`, StatusNotFound, ""},
	{"text_region/page-other", `{"kind":"text_region","text":"Revenue grew","page_ref":"p0002","bbox":` + aroundRevenue + `}`, StatusMismatch, ""},
	{"text_region/bbox-other", `{"kind":"text_region","text":"Revenue grew","page_ref":"p0001","bbox":` + aroundTitle + `}`, StatusMismatch, ""},
	{"text_region/bbox-off-page", `{"kind":"text_region","text":"Revenue grew","page_ref":"p0001","bbox":` + offPage + `}`, StatusMismatch, LevelPage},
	{"text_region/element", `{"kind":"text_region","text":"Revenue grew","page_ref":"p0001","bbox":` + aroundRevenue + `,"element_ref":"e000002"}`, StatusBound, LevelTextBBox},
	{"text_region/element-outside-bbox", `{"kind":"text_region","text":"Revenue grew","page_ref":"p0001","bbox":` + aroundRevenue + `,"element_ref":"e000001"}`, StatusNotFound, ""},
	{"text_region/element-missing", `{"kind":"text_region","text":"Revenue grew","page_ref":"p0001","bbox":` + aroundRevenue + `,"element_ref":"e999999"}`, StatusNotFound, ""},
	{"text_region/table", `{"kind":"text_region","text":"South","page_ref":"p0001","bbox":` + aroundTable + `,"table_ref":"t0001"}`, StatusBound, LevelTextBBox},
	{"text_region/table-outside-bbox", `{"kind":"text_region","text":"Revenue grew","page_ref":"p0001","bbox":` + aroundRevenue + `,"table_ref":"t0001"}`, StatusNotFound, ""},
	{"text_region/table-missing", `{"kind":"text_region","text":"South","page_ref":"p0001","bbox":` + aroundTable + `,"table_ref":"t0099"}`, StatusNotFound, ""},
	{"text_region/row-column-without-table", `{"kind":"text_region","text":"Revenue grew","page_ref":"p0001","bbox":` + aroundRevenue + `,"row":99,"column":99}`, StatusNotFound, ""},
	{"text_region/cell", `{"kind":"text_region","text":"950","page_ref":"p0001","bbox":` + aroundTable + `,"table_ref":"t0001","row":2,"column":1}`, StatusBound, LevelTextBBox},
	{"text_region/cell-other", `{"kind":"text_region","text":"950","page_ref":"p0001","bbox":` + aroundTable + `,"table_ref":"t0001","row":0,"column":0}`, StatusMismatch, ""},
	{"text_region/cell-missing", `{"kind":"text_region","text":"950","page_ref":"p0001","bbox":` + aroundTable + `,"table_ref":"t0001","row":9,"column":1}`, StatusNotFound, ""},
	{"text_region/at-page", `{"kind":"text_region","text":"Revenue grew","page_ref":"p0001","bbox":` + aroundRevenue + `,"required_anchor_level":"page"}`, StatusBound, LevelPage},
	{"text_region/at-page-bbox-other", `{"kind":"text_region","text":"Revenue grew","page_ref":"p0001","bbox":` + aroundTitle + `,"required_anchor_level":"page"}`, StatusMismatch, ""},
	{"text_region/at-text", `{"kind":"text_region","text":"Revenue grew","page_ref":"p0001","bbox":` + aroundRevenue + `,"required_anchor_level":"text"}`, StatusBound, LevelText},
	{"text_region/at-text-bbox-off-page", `{"kind":"text_region","text":"Revenue grew","page_ref":"p0001","bbox":` + offPage + `,"required_anchor_level":"text"}`, StatusMismatch, LevelPage},
	{"text_region/at-bbox", `{"kind":"text_region","text":"Revenue grew","page_ref":"p0001","bbox":` + aroundRevenue + `,"required_anchor_level":"bbox"}`, StatusBound, LevelBBox},

	// table_cell: table_ref, row and column are its own (the cell exists
	// at every level); text must be the cell's, page, element and box
	// must hold it.
	{"table_cell", `{"kind":"table_cell","table_ref":"t0001","row":2,"column":1}`, StatusBound, LevelTableCell},
	{"table_cell/table-missing", `{"kind":"table_cell","table_ref":"t0099","row":2,"column":1}`, StatusNotFound, ""},
	{"table_cell/row-missing", `{"kind":"table_cell","table_ref":"t0001","row":99,"column":1}`, StatusNotFound, LevelPage},
	{"table_cell/column-missing", `{"kind":"table_cell","table_ref":"t0001","row":2,"column":99}`, StatusNotFound, LevelPage},
	{"table_cell/text", `{"kind":"table_cell","table_ref":"t0001","row":2,"column":1,"text":"950"}`, StatusBound, LevelTableCell},
	{"table_cell/text-other", `{"kind":"table_cell","table_ref":"t0001","row":2,"column":1,"text":"North"}`, StatusMismatch, LevelPage},
	{"table_cell/page", `{"kind":"table_cell","table_ref":"t0001","row":2,"column":1,"page_ref":"p0001"}`, StatusBound, LevelTableCell},
	{"table_cell/page-other", `{"kind":"table_cell","table_ref":"t0001","row":2,"column":1,"page_ref":"p0002"}`, StatusMismatch, ""},
	{"table_cell/page-missing", `{"kind":"table_cell","table_ref":"t0001","row":2,"column":1,"page_ref":"p0099"}`, StatusNotFound, ""},
	{"table_cell/element", `{"kind":"table_cell","table_ref":"t0001","row":2,"column":1,"element_ref":"e000003"}`, StatusBound, LevelTableCell},
	{"table_cell/element-other", `{"kind":"table_cell","table_ref":"t0001","row":2,"column":1,"element_ref":"e000001"}`, StatusNotFound, ""},
	{"table_cell/element-missing", `{"kind":"table_cell","table_ref":"t0001","row":2,"column":1,"element_ref":"e999999"}`, StatusNotFound, ""},
	{"table_cell/bbox", `{"kind":"table_cell","table_ref":"t0001","row":2,"column":1,"bbox":` + aroundTable + `}`, StatusBound, LevelTableCell},
	{"table_cell/bbox-other", `{"kind":"table_cell","table_ref":"t0001","row":2,"column":1,"bbox":` + aroundTitle + `}`, StatusNotFound, ""},
	{"table_cell/bbox-off-page", `{"kind":"table_cell","table_ref":"t0001","row":2,"column":1,"bbox":` + offPage + `}`, StatusNotFound, ""},
	{"table_cell/bbox-not-around-cell", `{"kind":"table_cell","table_ref":"t0001","row":2,"column":1,"bbox":[60,130,300,45]}`, StatusNotFound, ""},
	{"table_cell/at-page", `{"kind":"table_cell","table_ref":"t0001","row":2,"column":1,"required_anchor_level":"page"}`, StatusBound, LevelPage},
	{"table_cell/at-page-row-missing", `{"kind":"table_cell","table_ref":"t0001","row":99,"column":1,"required_anchor_level":"page"}`, StatusNotFound, LevelPage},
	{"table_cell/at-page-text-other", `{"kind":"table_cell","table_ref":"t0001","row":2,"column":1,"text":"North","required_anchor_level":"page"}`, StatusMismatch, LevelPage},

	// region: page_ref and bbox are its own (the box lies on the page at
	// every level); element, table, row, column and text narrow it to what
	// they name inside the box.
	{"region", `{"kind":"region","page_ref":"p0001","bbox":` + topOfPage + `}`, StatusBound, LevelBBox},
	{"region/page-missing", `{"kind":"region","page_ref":"p0099","bbox":` + topOfPage + `}`, StatusNotFound, ""},
	{"region/page-empty", `{"kind":"region","page_ref":"p0003","bbox":` + topOfPage + `}`, StatusNotFound, LevelPage},
	{"region/bbox-off-page", `{"kind":"region","page_ref":"p0001","bbox":` + offPage + `}`, StatusMismatch, LevelPage},
	{"region/element", `{"kind":"region","page_ref":"p0001","bbox":` + topOfPage + `,"element_ref":"e000002"}`, StatusBound, LevelBBox},
	{"region/element-outside-bbox", `{"kind":"region","page_ref":"p0001","bbox":` + topOfPage + `,"element_ref":"e000003"}`, StatusNotFound, ""},
	{"region/element-other-page", `{"kind":"region","page_ref":"p0001","bbox":` + topOfPage + `,"element_ref":"e000005"}`, StatusNotFound, ""},
	{"region/element-missing", `{"kind":"region","page_ref":"p0001","bbox":` + topOfPage + `,"element_ref":"e999999"}`, StatusNotFound, ""},
	{"region/table", `{"kind":"region","page_ref":"p0001","bbox":` + aroundTable + `,"table_ref":"t0001"}`, StatusBound, LevelBBox},
	{"region/table-outside-bbox", `{"kind":"region","page_ref":"p0001","bbox":` + topOfPage + `,"table_ref":"t0001"}`, StatusNotFound, ""},
	{"region/table-missing", `{"kind":"region","page_ref":"p0001","bbox":` + aroundTable + `,"table_ref":"t0099"}`, StatusNotFound, ""},
	{"region/row-column-without-table", `{"kind":"region","page_ref":"p0001","bbox":` + topOfPage + `,"row":99,"column":99}`, StatusNotFound, ""},
	{"region/cell", `{"kind":"region","page_ref":"p0001","bbox":` + aroundTable + `,"table_ref":"t0001","row":2,"column":1}`, StatusBound, LevelBBox},
	{"region/cell-missing", `{"kind":"region","page_ref":"p0001","bbox":` + aroundTable + `,"table_ref":"t0001","row":99,"column":1}`, StatusNotFound, ""},
	{"region/text", `{"kind":"region","page_ref":"p0001","bbox":` + topOfPage + `,"text":"Revenue grew"}`, StatusBound, LevelBBox},
	{"region/text-outside-bbox", `{"kind":"region","page_ref":"p0001","bbox":` + topOfPage + `,"text":"South"}`, StatusMismatch, ""},
	{"region/text-missing", `{"kind":"region","page_ref":"p0001","bbox":` + topOfPage + `,"text":"words on no page anywhere"}`, StatusNotFound, ""},
	{"region/text-blank", `{"kind":"region","page_ref":"p0001","bbox":` + topOfPage + `,"text":" "}`, StatusNotFound, ""},
	{"region/text-not-in-element", `{"kind":"region","page_ref":"p0001","bbox":` + topOfPage + `,"element_ref":"e000001","text":"Revenue grew"}`, StatusMismatch, ""},
	{"region/at-page", `{"kind":"region","page_ref":"p0001","bbox":` + topOfPage + `,"required_anchor_level":"page"}`, StatusBound, LevelPage},
	{"region/at-page-off-page", `{"kind":"region","page_ref":"p0001","bbox":` + offPage + `,"required_anchor_level":"page"}`, StatusMismatch, LevelPage},
	{"region/at-page-element-outside-bbox", `{"kind":"region","page_ref":"p0001","bbox":` + topOfPage + `,"element_ref":"e000003","required_anchor_level":"page"}`, StatusNotFound, ""},
	{"region/at-text-bbox", `{"kind":"region","page_ref":"p0001","bbox":` + topOfPage + `,"text":"Revenue grew","required_anchor_level":"text_bbox"}`, StatusBound, LevelTextBBox},
	{"region/at-text-bbox-outside", `{"kind":"region","page_ref":"p0001","bbox":` + topOfPage + `,"text":"South","required_anchor_level":"text_bbox"}`, StatusMismatch, ""},

	// other: bound on its text like text, or (at page level, without text)
	// on its page like page; the same fields narrow it.
	{"other", `{"kind":"other","text":"Revenue grew"}`, StatusBound, LevelText},
	{"other/text-missing", `{"kind":"other","text":"words on no page anywhere"}`, StatusNotFound, ""},
	{"other/page", `{"kind":"other","text":"Revenue grew","page_ref":"p0001"}`, StatusBound, LevelText},
	{"other/page-other", `{"kind":"other","text":"Revenue grew","page_ref":"p0002"}`, StatusMismatch, ""},
	{"other/element-other", `{"kind":"other","text":"Revenue grew","element_ref":"e000001"}`, StatusMismatch, ""},
	{"other/row-column-without-table", `{"kind":"other","text":"Revenue grew","row":99,"column":99}`, StatusNotFound, ""},
	{"other/cell", `{"kind":"other","text":"950","table_ref":"t0001","row":2,"column":1}`, StatusBound, LevelText},
	{"other/bbox-other", `{"kind":"other","text":"Revenue grew","page_ref":"p0001","bbox":` + aroundTitle + `}`, StatusMismatch, ""},
	{"other/at-page", `{"kind":"other","text":"Revenue grew","required_anchor_level":"page"}`, StatusBound, LevelPage},
	{"other/at-page-without-text", `{"kind":"other","page_ref":"p0001","required_anchor_level":"page"}`, StatusBound, LevelPage},
	{"other/at-page-without-text-missing", `{"kind":"other","page_ref":"p0099","required_anchor_level":"page"}`, StatusNotFound, ""},
	{"other/at-page-without-text-element", `{"kind":"other","page_ref":"p0001","element_ref":"e000002","required_anchor_level":"page"}`, StatusBound, LevelPage},
	{"other/at-page-without-text-element-other-page", `{"kind":"other","page_ref":"p0001","element_ref":"e000005","required_anchor_level":"page"}`, StatusNotFound, ""},
	{"other/at-page-without-text-cell-missing", `{"kind":"other","page_ref":"p0001","table_ref":"t0001","row":99,"column":1,"required_anchor_level":"page"}`, StatusNotFound, ""},
	{"other/at-page-without-text-bbox-off-page", `{"kind":"other","page_ref":"p0001","bbox":` + offPage + `,"required_anchor_level":"page"}`, StatusMismatch, LevelPage},

	// A kind outside v1 is report data, whatever it carries.
	{"chart", `{"kind":"chart","page_ref":"p0099","row":99}`, StatusUnsupportedEvidence, ""},
}

// staticTable: the same fields on a source without boxes (a static-tier
// web page, ethos-document--static-docs): a box the source cannot check
// is capability_limited at the level that did bind, never skipped.
var staticTable = []refCase{
	{"page", `{"kind":"page","page_ref":"p0001"}`, StatusBound, LevelPage},
	{"page/bbox", `{"kind":"page","page_ref":"p0001","bbox":[0,0,10,10]}`, StatusCapabilityLimited, LevelPage},
	{"page/at-bbox", `{"kind":"page","page_ref":"p0001","required_anchor_level":"bbox","bbox":[0,0,10,10]}`, StatusCapabilityLimited, LevelPage},
	{"text/bbox", `{"kind":"text","text":"Unknown options are an error.","page_ref":"p0001","bbox":[0,0,10,10]}`, StatusCapabilityLimited, ""},
	{"text/cell", `{"kind":"text","text":"widget","table_ref":"t0001","row":1,"column":2}`, StatusBound, LevelText},
	{"text/cell-missing", `{"kind":"text","text":"widget","table_ref":"t0001","row":1,"column":9}`, StatusNotFound, ""},
	{"text/at-text-bbox", `{"kind":"text","text":"Unknown options are an error.","required_anchor_level":"text_bbox"}`, StatusCapabilityLimited, LevelText},
	{"text_region/at-text", `{"kind":"text_region","text":"Unknown options are an error.","page_ref":"p0001","bbox":[0,0,10,10],"required_anchor_level":"text"}`, StatusCapabilityLimited, LevelText},
	{"text_region/at-page-text-missing", `{"kind":"text_region","text":"words on no page anywhere","page_ref":"p0001","bbox":[0,0,10,10],"required_anchor_level":"page"}`, StatusNotFound, ""},
	{"table_cell", `{"kind":"table_cell","table_ref":"t0001","row":1,"column":2,"text":"widget"}`, StatusBound, LevelTableCell},
	{"table_cell/bbox", `{"kind":"table_cell","table_ref":"t0001","row":1,"column":2,"bbox":[0,0,10,10]}`, StatusCapabilityLimited, ""},
	{"region", `{"kind":"region","page_ref":"p0001","bbox":[0,0,10,10]}`, StatusCapabilityLimited, LevelPage},
	{"region/at-page", `{"kind":"region","page_ref":"p0001","bbox":[0,0,10,10],"required_anchor_level":"page"}`, StatusCapabilityLimited, LevelPage},
	{"other/at-page-without-text", `{"kind":"other","page_ref":"p0001","required_anchor_level":"page"}`, StatusBound, LevelPage},
	{"other/at-page-without-text-bbox", `{"kind":"other","page_ref":"p0001","bbox":[0,0,10,10],"required_anchor_level":"page"}`, StatusCapabilityLimited, LevelPage},
}

// malformedRefs are refs the request schema refuses: a request holding
// one is a usage error (exit 8, SPEC.md §6.3), whatever the other refs.
var malformedRefs = map[string]string{
	"page_ref empty":               `{"kind":"page","page_ref":""}`,
	"page without page_ref":        `{"kind":"page"}`,
	"page at bbox without bbox":    `{"kind":"page","page_ref":"p0001","required_anchor_level":"bbox"}`,
	"element_ref empty":            `{"kind":"text","text":"Revenue grew","element_ref":""}`,
	"table_ref empty":              `{"kind":"text","text":"Revenue grew","table_ref":""}`,
	"row negative":                 `{"kind":"text","text":"950","table_ref":"t0001","row":-1}`,
	"column negative":              `{"kind":"text","text":"950","table_ref":"t0001","column":-1}`,
	"row fraction":                 `{"kind":"table_cell","table_ref":"t0001","row":1.5,"column":1}`,
	"row a string":                 `{"kind":"table_cell","table_ref":"t0001","row":"2","column":1}`,
	"text blank":                   `{"kind":"text","text":"  "}`,
	"text missing":                 `{"kind":"text"}`,
	"text not a string":            `{"kind":"text","text":950}`,
	"bbox short":                   `{"kind":"region","page_ref":"p0001","bbox":[0,0,10]}`,
	"bbox negative":                `{"kind":"region","page_ref":"p0001","bbox":[-1,0,10,10]}`,
	"bbox empty":                   `{"kind":"region","page_ref":"p0001","bbox":[0,0,0,10]}`,
	"region without bbox":          `{"kind":"region","page_ref":"p0001"}`,
	"region at text_bbox no text":  `{"kind":"region","page_ref":"p0001","bbox":[0,0,10,10],"required_anchor_level":"text_bbox"}`,
	"text_region without page_ref": `{"kind":"text_region","text":"Revenue grew","bbox":[0,0,10,10]}`,
	"table_cell without column":    `{"kind":"table_cell","table_ref":"t0001","row":2}`,
	"table_cell at bbox":           `{"kind":"table_cell","table_ref":"t0001","row":2,"column":1,"required_anchor_level":"bbox"}`,
	"level unknown":                `{"kind":"text","text":"Revenue grew","required_anchor_level":"pixel"}`,
	"other without text":           `{"kind":"other"}`,
	"other at text, page only":     `{"kind":"other","page_ref":"p0001"}`,
	"other at page, nothing":       `{"kind":"other","required_anchor_level":"page"}`,
	"other blank text at page":     `{"kind":"other","page_ref":"p0001","text":" ","required_anchor_level":"page"}`,
	"kind missing":                 `{"page_ref":"p0001"}`,
	"unknown field":                `{"kind":"page","page_ref":"p0001","locator":{"row":1}}`,
}

// request is an anchor request holding refs, each with its case name as
// evidence_id.
func request(cases []refCase) string {
	refs := make([]string, len(cases))
	for i, c := range cases {
		refs[i] = `{"evidence_id":"` + c.name + `",` + c.ref[1:]
	}
	return reqHead + "[" + strings.Join(refs, ",") + "]}"
}

// anchorAll runs `sieve evidence anchor DOC` on one request holding every
// case and checks each anchor's status and achieved level.
func anchorAll(t *testing.T, doc string, cases []refCase) {
	t.Helper()
	dir := t.TempDir()
	req := write(t, dir, "req.json", request(cases))
	out := filepath.Join(dir, "report.json")
	code, _, stderr := run(t, "", "evidence", "anchor", doc, "--evidence-refs", req, "--out", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	report, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if err := schemas.Validate("ethos-evidence-anchor-report", report); err != nil {
		t.Error(err)
	}
	anchors := gjson.GetBytes(report, "anchors").Array()
	if len(anchors) != len(cases) {
		t.Fatalf("%d anchors for %d refs", len(anchors), len(cases))
	}
	for i, c := range cases {
		an := anchors[i]
		if an.Get("evidence_id").Str != c.name {
			t.Fatalf("anchor %d is %s, want %s", i, an.Get("evidence_id").Str, c.name)
		}
		if an.Get("status").Str != c.status || an.Get("achieved_anchor_level").Str != c.achieved {
			t.Errorf("%s: %s at %q (%s), want %s at %q", c.name, an.Get("status").Str, an.Get("achieved_anchor_level").Str, an.Get("reason").Str, c.status, c.achieved)
		}
		if c.achieved == LevelPage && c.status == StatusBound && an.Get("binding.bbox").IsArray() {
			t.Errorf("%s: bound at page level, yet binds a box: %s", c.name, an.Get("binding"))
		}
	}
}

// TestAnchorTable: the status every kind × locator field gives through
// `sieve evidence anchor`, on a source with boxes and tables and on one
// without boxes; a malformed ref is a usage error (exit 8).
func TestAnchorTable(t *testing.T) {
	pdfDoc := write(t, t.TempDir(), "document.ethos.json", string(ethosOf(t, pdfRecord(t))))
	t.Run("pdf", func(t *testing.T) { anchorAll(t, pdfDoc, anchorTable) })
	t.Run("static", func(t *testing.T) {
		anchorAll(t, filepath.Join(examples, "valid", "ethos-document--static-docs.json"), staticTable)
	})
	t.Run("malformed", func(t *testing.T) {
		dir := t.TempDir()
		for name, ref := range malformedRefs {
			// Beside a good ref: the request is refused whole.
			req := write(t, dir, "req.json", reqHead+`[{"evidence_id":"good","kind":"page","page_ref":"p0001"},{"evidence_id":"bad",`+ref[1:]+`]}`)
			code, _, stderr := run(t, "", "evidence", "anchor", pdfDoc, "--evidence-refs", req)
			if code != cliutil.ExitInvalidEvidenceRefs || gjson.Get(stderr, "error.code").Str != "invalid_evidence_refs" {
				t.Errorf("%s: exit %d %s, want %d invalid_evidence_refs", name, code, stderr, cliutil.ExitInvalidEvidenceRefs)
			}
		}
	})
}

// TestOneRefDoesNotSinkTheRequest: good refs of every v1 kind
// and an other ref at page level without text, is one anchor per ref
// (SPEC.md §4.6), not a usage error.
func TestOneRefDoesNotSinkTheRequest(t *testing.T) {
	var cases []refCase
	for _, c := range anchorTable {
		if !strings.Contains(c.name, "/") && c.status == StatusBound {
			cases = append(cases, c)
		}
	}
	cases = append(cases, refCase{"other-page", `{"kind":"other","required_anchor_level":"page","page_ref":"p0001"}`, StatusBound, LevelPage})
	if len(cases) != 7 {
		t.Fatalf("%d refs, want the six v1 kinds' bare refs and the other ref", len(cases))
	}
	anchorAll(t, write(t, t.TempDir(), "document.ethos.json", string(ethosOf(t, pdfRecord(t)))), cases)
}
