// Package graph is the third stage: it builds the content graph of a page
// from its normalized nodes: typed blocks in reading order, sections with
// stable ids, content vs chrome, actions, links, media, the quarantined
// latent tier, structured data, gaps, the outcome with its evidence, and
// content_hash.
//
// Reads: "normalized" records. Writes: "graph" records (Record), which are
// content.json plus a "record" key. Other record kinds pass through.
package graph
