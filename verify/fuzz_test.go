package verify

import (
	"os"
	"testing"

	"github.com/sieve-dev/sieve/evidence/ground"
)

// FuzzParseCitations: whatever citations.json holds, parsing never panics,
// and what it accepts verifies without panicking against a real source.
func FuzzParseCitations(f *testing.F) {
	for _, p := range []string{"testdata/sample-claims.json", "../schemas/testdata/eef/valid/ethos-citations--envelope.json", "../schemas/testdata/eef/valid/ethos-citations--span-region-locators.json"} {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte(`[{"claim_id":"a","kind":"quote","text":"x","locator":{"page":"p0001","bbox":[0,0,1,1],"row":-1}}]`))
	f.Add([]byte(`{"claims":[{"claim_id":"a","kind":"table_cell","locator":{"table":"t0001","row":0,"column":0}}]}`))
	src, err := ground.Load(ground.FormatOpenDataLoader, read(f, "testdata/odl.json"))
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		c, err := ParseCitations(b)
		if err != nil {
			return
		}
		r := Verify(src, c)
		if len(r.Checks) != len(c.Claims) {
			t.Fatalf("%d checks for %d claims", len(r.Checks), len(c.Claims))
		}
	})
}

// FuzzParseClaimLine: a line of sieve-verify's input never panics the parser.
func FuzzParseClaimLine(f *testing.F) {
	f.Add([]byte(`{"claim_id":"q","kind":"quote","text":"x","id":7}`))
	f.Add([]byte(`{"record":"claim","claim_id":"q","kind":"value","value":"$3"}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		_, _ = ParseClaimLine(b)
	})
}
