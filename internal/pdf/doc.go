// Package pdf reads born-digital PDFs with PDFium compiled to WebAssembly
// (github.com/klippa-app/go-pdfium's webassembly mode, run by wazero and
// embedded in the binary: no cgo, no system library, nothing downloaded).
//
// The engine starts lazily, once per process, on the first Parse, and Close
// releases it. wazero's compiled code is cached under the user cache dir
// (os.UserCacheDir()/sieve/wazero), which cuts the start of every later
// process from seconds to tens of milliseconds; when that dir is not
// writable the module is compiled in memory each time. The sandbox gets no
// file system: documents go in as bytes. The per-character and per-object
// facts are read by calling the module's functions directly (rawText),
// with go-pdfium's requests as the fallback; both give the same Document.
//
// Parse returns every page's size and rotation and its characters with
// boxes in top-left page coordinates: points on the page as displayed
// (after /Rotate, relative to the CropBox's top-left corner), rounded to
// 1/100 pt, and their style (font, weight, italic, fill colour and alpha,
// render mode, marked-content id); per page the structure tree of a tagged
// PDF, the painted paths, links and annotations; and the document's
// metadata, outline, JavaScript count, attachments and form type.
// Page.Lines groups characters into lines of words, split where the style
// changes. Limits on pages, characters, tree size, paths and time keep
// hostile files from hanging a run; what they cut is said where it matters
// (see docs/DECISIONS.md, "PDF engine").
package pdf
