// Package normalize is the second stage: it parses the served HTML of a
// capture record into a flat, ordered node list with normalised text and a
// static visibility verdict per element.
//
// Reads: "capture" records. Writes: "normalized" records (Record). Other
// record kinds pass through unchanged; top-level fields the capture record
// does not define (a user's "id") are carried into the normalized record.
//
// # Content types
//
// text/html and application/xhtml+xml are parsed with golang.org/x/net/html
// (scripting on, as in a browser). A missing or generic type
// (application/octet-stream) is sniffed: HTML-looking bodies are parsed,
// plain-text-looking ones read as text/plain. text/plain becomes one "pre"
// element (Path "pre") holding one preformatted text node. A capture with a
// fetch error or an empty body gives a valid record with no nodes: the
// failure is data for the graph. Any other type (JSON, XML, images, PDF, a
// body omitted as binary) is an error (ErrUnsupported), which the record
// loop turns into an error record.
//
// # Nodes
//
// Nodes are elements and text nodes in document pre-order; Parent is the
// index of the parent element (-1 for html). Path names an element by tag
// names from html, with the 1-based position among same-tag siblings when
// it is not the first ("html/body/main/p", "html/body/main/p[2]").
//
// Never nodes: comments, doctype; script, style, template and noscript
// elements and their content; head content other than <title> (meta, link,
// base become document facts; <meta>/<link> with itemprop outside head are
// nodes, for microdata); a <title> outside head; the internals of svg and
// math (the svg or math element is a node, an svg's <title> becomes its
// "title" attribute); the children of iframe, noembed and noframes (raw
// text to the parser) and of canvas (fallback); the children of video and
// audio other than source and track. object's children (its fallback
// content) are read. All of these are counted in Stats.SkippedNodes. The
// head element is a node whose only child is its title: it is document
// metadata, not content, and later stages treat it so.
//
// Role is the first token of the role attribute, else the implicit ARIA
// role: nav navigation, aside complementary, main main, form form, search
// search, a[href] link, button button, h1–h6 heading, ul/ol list, li
// listitem, table table, img img, article article, dialog dialog, figure
// figure, and header banner / footer contentinfo unless inside article,
// aside, main, nav or section. Level is set on headings: a valid aria-level
// (capped at 6), else the h1–h6 number, else 2 for role=heading.
//
// Text follows internal/textnorm: text nodes are normalised with
// textnorm.Text, so a text node of white space only is a single " " (it
// separates inline runs); text under pre, textarea, listing, xmp or
// plaintext uses textnorm.Pre and sets Pre. Text that normalises to
// nothing is dropped. Attributes kept are listed in KeptAttrs.
//
// # Visibility
//
// Each element carries its own verdict only (Hidden, a reason constant,
// and HiddenRule, the evidence); descendants of a hidden element are
// hidden too but do not repeat it. aria-hidden is not visual hiding and
// gives no verdict. The first source that applies wins, in this order:
//
//  1. <input type=hidden>: HiddenInput, `input type="hidden"`.
//  2. The hidden attribute: HiddenAttr, `attribute hidden` (or
//     `attribute hidden="until-found"`), unless the inline style sets a
//     display other than none.
//  3. <dialog> without open: HiddenDialog, "dialog without open" (same
//     inline display exception).
//  4. A closed <details>: every child except the first <summary> element
//     is collapsed. Child elements, and text nodes directly under the
//     details, carry HiddenDetails, "details without open" themselves.
//  5. The inline style, e.g. `style="display:none"`.
//  6. A screen-reader-only class (SROnlyClasses): HiddenSROnly,
//     `class="sr-only"`.
//  7. A rule of the page's own <style> blocks, e.g. `.promo { display: none }`.
//
// Style declarations (inline or in a rule) hide an element when they say:
// display:none; visibility:hidden or collapse; opacity 0 (0, 0.0, 0%);
// text-indent ≤ -999px, or position absolute/fixed with left, top, right or
// margin-left ≤ -999px (offscreen; em and rem count as 16px, pt as 4/3px);
// clip to an empty rect ("rect(0 0 0 0)", "rect(1px,1px,1px,1px)") or
// clip-path inset(≥50%) / circle(0) / ellipse(0 …); font-size 0 in any
// unit; width, height, max-width or max-height of at most 1px with
// overflow hidden or clip (zero_size). Declarations are parsed with
// github.com/aymerick/douceur. Properties combine within one declaration
// block only (a position from one rule and a left from another do not).
//
// Style sheets: the text of <style> blocks whose type is CSS and whose
// media is empty, "all" or "screen" is parsed with douceur; top-level rules
// and rules inside @media blocks with such a query count (print, width
// conditions, @supports and other at-rules are skipped). Each selector of a
// hiding rule is compiled with github.com/andybalholm/cascadia and tested
// against the elements it can match (by the id, class or tag of its
// rightmost compound). Selectors that fail to compile, and selectors with
// pseudo-elements, dynamic pseudo-classes (:hover, :focus…), :has,
// :nth-*, text matching or the ~ combinator, are skipped. The first matching
// hiding rule in document order gives the verdict, with the element's
// inline style laid over the rule's declarations (an !important rule
// declaration beating a normal inline one), so style="display:block" undoes
// a sheet's display:none. For display, visibility and opacity the cascade
// is then worked out on the elements a sheet hid (cascade.go): a showing
// rule that beats every hiding one for the property that hid the element
// (!important, then specificity, then document order) lifts the verdict,
// as `.tab.active { display: block }` shows the active tab of `.tab {
// display: none }`; another property that still hides takes over, a hide
// of another kind (offscreen, clip, zero size) keeps it, and past the
// matching bounds every verdict stands. Style sheets linked from other
// files are not read.
// Stats.StyleRules counts the qualified rules in applicable scope.
//
// # Document facts
//
// Doc holds the first <title> (normalised, trimmed), lang (<html lang>,
// else the first Content-Language value), the resolved <base href>, the
// first <link rel=canonical> (resolved), meta content by name, property or
// http-equiv for description, keywords, author, robots, generator, refresh
// and og:*, twitter:*, article:* (names lower-cased, the first of a name
// wins), the raw text of each application/ld+json script (at most 20, each
// cut at 256 KiB), the text of each non-empty <noscript> (read from its
// markup, scripts and styles left out; at most 20, each cut at 4 KiB), and
// a script summary: count and inline bytes of the other scripts, their
// resolved src URLs (at most 50), and the ScriptMarkers found.
//
// # Hostile input
//
// x/net/html refuses documents nested deeper than 512 open elements; such a
// document is parsed again with start tags beyond a nesting of 256 (by a
// token-level estimate) dropped and counted as skipped, their text kept
// under a shallower parent. Attribute values are cut at 2048 bytes and
// style attributes read up to 8 KiB. Style sheets are read up to 1 MiB per
// block and 4 MiB per page; CSS that would make douceur's parser do more
// than linear work (long runs of tokens between ";", "{" and "}") is
// skipped; at most 1000 hiding selectors are matched, and matching stops
// when the work (candidates tested, weighted by ancestor walks) passes
// 20 million. The node list itself is linear in the input.
package normalize
