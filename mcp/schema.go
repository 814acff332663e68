package mcp

import "github.com/google/jsonschema-go/jsonschema"

// inputProperties replace the schemas made from the input types where a
// rawJSON argument has a shape an agent should see (the type alone says
// only "array or object"), by tool and argument.
var inputProperties = map[string]map[string]*jsonschema.Schema{
	"verify_citations": {"claims": claimsSchema()},
}

// claimsSchema is citations.json as sieve verify --citations reads it: a
// non-empty array of claims, or {claims: [...]} with the fingerprints the
// claims were made against. What is required is said, not enforced here:
// sieve verify's own check gives the coded invalid_citations error, which
// says what is wrong; the SDK's schema check would not.
func claimsSchema() *jsonschema.Schema {
	return &jsonschema.Schema{
		Description: "a non-empty array of claims, or {claims: [...]}",
		OneOf: []*jsonschema.Schema{claimList(), {Type: "object", Properties: map[string]*jsonschema.Schema{
			"claims": {Type: "array", Description: "claims as in the array form"},
		}}},
	}
}

// claimList is an array of claims.
func claimList() *jsonschema.Schema {
	str := func(d string) *jsonschema.Schema { return &jsonschema.Schema{Type: "string", Description: d} }
	claim := &jsonschema.Schema{Type: "object", Properties: map[string]*jsonschema.Schema{
		"claim_id":  str("required, unique"),
		"kind":      str("required: quote, value, presence, table_cell or region"),
		"text":      str("the exact text"),
		"value":     str("kind value: as written"),
		"statement": str("your claim (not checked)"),
		"locator": {Type: "object", Description: "where to look (optional)", Properties: map[string]*jsonschema.Schema{
			"section": str(""), "page": str("p0001"), "element": str(""), "span": str(""), "region": str(""), "table": str("t0001"),
			"row":    {Type: "integer", Description: "0-based"},
			"column": {Type: "integer", Description: "0-based"},
			"bbox":   {Type: "array", Items: &jsonschema.Schema{Type: "integer"}, Description: "[x, y, w, h]"},
		}},
	}}
	return &jsonschema.Schema{Type: "array", Items: claim}
}
