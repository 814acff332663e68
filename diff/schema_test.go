package diff

import (
	"encoding/json"
	"os"
	"reflect"
	"sort"
	"strings"
	"testing"
)

type objSchema struct {
	Properties map[string]json.RawMessage `json:"properties"`
	Required   []string                   `json:"required"`
	Defs       map[string]objSchema       `json:"$defs"`
}

// Every object of the diff and carry reports has exactly the members its schema
// names, all required: the Go types and schemas/diff*.schema.json cannot
// drift apart.
func TestSchemaMatchesReport(t *testing.T) {
	root, carry, anchors := loadSchema(t, "diff"), loadSchema(t, "diff-citations"), loadSchema(t, "diff-anchors")
	prop := func(root objSchema, name string) objSchema {
		var s objSchema
		if err := json.Unmarshal(root.Properties[name], &s); err != nil {
			t.Fatal(err)
		}
		return s
	}
	cases := map[string]struct {
		schema objSchema
		typ    any
	}{
		"report":          {root, Report{}},
		"summary":         {prop(root, "summary"), Summary{}},
		"latent":          {prop(root, "latent"), LatentSet{}},
		"carry":           {carry, CarryReport{}},
		"carry summary":   {prop(carry, "summary"), CarrySummary{}},
		"carry side":      {carry.Defs["side"], CarrySide{}},
		"carry claim":     {carry.Defs["claim"], Carried{}},
		"anchors":         {anchors, AnchorCarryReport{}},
		"anchors summary": {prop(anchors, "summary"), AnchorSummary{}},
		"anchors ref":     {anchors.Defs["ref"], CarriedRef{}},
		"side":            {root.Defs["side"], Side{}},
		"entry":           {root.Defs["entry"], Entry{}},
		"block_change":    {root.Defs["block_change"], BlockChange{}},
		"word":            {root.Defs["word"], Word{}},
		"cell_change":     {root.Defs["cell_change"], CellChange{}},
		"latent_entry":    {root.Defs["latent_entry"], LatentEntry{}},
	}
	for name, c := range cases {
		var fields []string
		rt := reflect.TypeOf(c.typ)
		for _, f := range reflect.VisibleFields(rt) {
			if f.IsExported() && !f.Anonymous {
				fields = append(fields, strings.Split(f.Tag.Get("json"), ",")[0])
			}
		}
		var props []string
		for p := range c.schema.Properties {
			props = append(props, p)
		}
		req := append([]string(nil), c.schema.Required...)
		sort.Strings(fields)
		sort.Strings(props)
		sort.Strings(req)
		if f, p, r := strings.Join(fields, ","), strings.Join(props, ","), strings.Join(req, ","); f != p || f != r {
			t.Errorf("%s: Go fields %s, schema properties %s, required %s", name, f, p, r)
		}
	}
}

func loadSchema(t *testing.T, name string) objSchema {
	t.Helper()
	b, err := os.ReadFile("../schemas/" + name + ".schema.json")
	if err != nil {
		t.Fatal(err)
	}
	var s objSchema
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	return s
}
