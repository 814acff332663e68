package schemas

import (
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// third_party/jsonschema compiles the draft meta-schemas on the first
// Compile instead of at start (THIRD_PARTY.md). A schema that breaks the
// 2020-12 meta-schema must still be refused, also by the first compile of
// the process when several run at once.
func TestMetaSchemaChecked(t *testing.T) {
	errs := make(chan error, 4)
	for range cap(errs) {
		go func() {
			c := jsonschema.NewCompiler()
			c.DefaultDraft(jsonschema.Draft2020)
			if err := c.AddResource("https://example.test/bad.json", map[string]any{"type": 5.0}); err != nil {
				errs <- err
				return
			}
			_, err := c.Compile("https://example.test/bad.json")
			errs <- err
		}()
	}
	for range cap(errs) {
		err := <-errs
		if err == nil {
			t.Fatal(`{"type": 5} compiled: the meta-schema was not applied`)
		}
		if !strings.Contains(err.Error(), "bad.json") {
			t.Errorf("error does not name the schema: %v", err)
		}
	}
}
