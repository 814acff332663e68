package verify

// CitationsExample is sieve verify --help's citations.json: every claim
// kind and every locator field (docs/EVIDENCE.md has the same file).
const CitationsExample = `citations.json: a bare array of claims, or {"claims": [...]} with the
document_fingerprint / source_fingerprint they were made against. kind is
quote, value, presence, table_cell, region (or other: reported, not checked);
every locator field narrows the search. row and column are 0-based (the
header row is row 0); page is p0001 for the first page; bbox is [x, y, w, h]
from the page's top left (PDF points, CSS px); section, element, span,
table and region are ids of document.ethos.json (or the manifest's).

  {"claims": [
    {"claim_id": "q1", "kind": "quote", "text": "Widget reads its settings from widget.toml",
     "statement": "Widget is configured by a file.", "locator": {"section": "s_intro"}},
    {"claim_id": "v1", "kind": "value", "value": "3", "locator": {"element": "b_004"}},
    {"claim_id": "p1", "kind": "presence", "text": "unknown OPTIONS are an error", "locator": {"span": "s000012"}},
    {"claim_id": "t1", "kind": "table_cell", "text": "3", "locator": {"table": "t0001", "row": 2, "column": 2}},
    {"claim_id": "r1", "kind": "region", "text": "Options", "locator": {"page": "p0001", "bbox": [0, 0, 100, 100]}},
    {"claim_id": "r2", "kind": "region", "text": "Options", "locator": {"region": "r0001"}},
    {"claim_id": "o1", "kind": "other", "text": "it is fast"}
  ]}`
