package ground

import (
	"fmt"

	"github.com/sieve-dev/sieve/internal/c14n"
	"github.com/sieve-dev/sieve/schemas"
)

// Strict is the one input rule of `sieve verify` and `sieve evidence
// anchor` (SPEC.md §8): b must be canonicalizable JSON (valid UTF-8, no
// duplicate keys, integers only: c14n v1) and valid against the named EEF
// schema. The commands refuse exactly what the schemas refuse, plus the
// few rules a JSON Schema cannot state (unique ids across a list, a
// fingerprint that matches its content), which their callers check after.
func Strict(schema string, b []byte) error {
	if _, err := c14n.Canonicalize(b); err != nil {
		return fmt.Errorf("not canonicalizable JSON (c14n v1): %w", err)
	}
	return schemas.Validate(schema, b)
}
