package schemas

import (
	"os"
	"slices"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/sieve-dev/sieve/internal/record"
)

// TestStatusEnumIsTheOneList: the schemas' outcome status enum is
// record.Statuses.
func TestStatusEnumIsTheOneList(t *testing.T) {
	b, err := os.ReadFile("defs.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, v := range gjson.GetBytes(b, "$defs.status.enum").Array() {
		got = append(got, v.String())
	}
	if !slices.Equal(got, record.Statuses) {
		t.Errorf("defs.schema.json status enum %v, record.Statuses %v", got, record.Statuses)
	}
}
