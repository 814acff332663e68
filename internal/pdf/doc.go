// Package pdf reads born-digital PDFs with PDFium compiled to WebAssembly
// (github.com/klippa-app/go-pdfium's webassembly mode, run by wazero and
// embedded in the binary: no cgo, no system library, nothing downloaded).
//
// The engine starts lazily, once per process, on the first Parse, and Close
// releases it. wazero's compiled code is cached under the user cache dir
// (os.UserCacheDir()/sieve/wazero), which cuts the start of every later
// process from seconds to tens of milliseconds; when that dir is not
// writable the module is compiled in memory each time. The sandbox gets no
// file system: documents go in as bytes.
//
// Parse returns every page's size and rotation and its characters with
// boxes in top-left page coordinates: points on the page as displayed
// (after /Rotate, relative to the CropBox's top-left corner), rounded to
// 1/100 pt. Words groups characters into words and lines.
package pdf
