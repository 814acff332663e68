// Package render is the fourth stage: it writes one sieve artifact directory
// (ARTIFACT.md) per graph record: manifest.json, content.json, index.md and
// index.html, all derived from the same graph.Record so they cannot disagree.
//
// Reads: "graph" records. Writes: "artifact" records (Artifact), one per
// graph record, naming the directory written. Other record kinds, error
// records included, pass through untouched.
//
// Where an artifact goes. Dir maps the requested URL to DIR/<host>/<name>.
// The host is lower-cased, ":" before a port becomes "_", file: URLs use
// "local", and a URL without a host uses "_nohost". A host that needed any
// other change to be a safe directory name (characters outside
// [a-z0-9.-], leading dots, over 64 bytes) gets "-" and 8 hex of its
// sha256 appended. The name is "index" for the root of an http(s) host with
// no query; otherwise a slug of the path and query (characters outside
// [A-Za-z0-9._-] become "_", segments are joined by "-", leading dots are
// stripped, at most 64 bytes) plus "-" and the first 8 hex of sha256 of the
// URL. No name can be empty, contain "/" or be "." or "..", so nothing
// escapes DIR. The http and https roots of one host share "index".
//
// Writes are atomic: the four files are written into a fresh ".tmp-*"
// directory beside the target, an existing target is renamed aside to
// ".old-*", the new directory is renamed into place and the old one removed.
// A run killed midway leaves at most a stray .tmp-*/.old-* directory, never
// a half-written artifact at the target path.
//
// manifest.json carries outcome first, then schema_version and the rest of
// graph.ManifestKeys in order: ARTIFACT.md says the outcome is the first
// field of the manifest. content.json is the graph record without its
// "record" key, in struct order. Both are 2-space indented with a trailing
// newline and the codec's escaping.
//
// index.md and index.html never carry latent text (the quarantined tier)
// nor the text of chrome blocks; chrome links appear only under
// Navigation. Page text in index.md is escaped by one function
// (escapeMarkdown, see escape.go): it cannot start a line with a
// character that opens a Markdown block (heading, quote, list, fence,
// thematic break, setext underline, table, HTML, link definition), and it
// cannot open a link, image, autolink, code span, emphasis, raw HTML or
// entity, so it reads as the literal text and cannot forge headings, front
// matter or the "<!-- section: ID -->" markers, which always sit on a line
// of their own. Front matter values are one-line YAML double-quoted
// scalars. The only links are sieve's: Links and Navigation entries, and
// images, all with http(s) destinations; a link or action to any other
// scheme (javascript:, data:, file:, mailto:, …) is shown as inert text,
// "text (href)".
// Headings map page level L to Markdown level L+1 (capped at 6): the page
// title is the only "#". The page's content ends at a "---" line followed
// by "<!-- end of page content -->"; after it come sieve's own sections:
// Actions (content actions), Links (content links, by href, at most 100),
// Navigation (chrome links grouped by chrome kind, by href, at most 100),
// Structured data, Gaps and the Extraction audit. Empty sections are left
// out, except the audit.
package render
