package eef

import "strings"

// Source pointer: evidence/source.json says where the source bytes are.
const (
	TypeSourcePointer = "sieve.source_pointer.v1"
	FileSource        = "source.json"
	// FileSourceHTML and FileSourcePDF are the source bytes in the bundle
	// (SPEC.md §3's source.pdf; source.html for a web page).
	FileSourceHTML = "source.html"
	FileSourcePDF  = "source.pdf"
)

// SourcePointer is evidence/source.json: where the bytes that
// source.fingerprint covers can be read. File names them in the bundle
// when they are there; BlobPath is where the capture's blob store
// (capture --blobs DIR) keeps them, DIR/BlobPath; URL and FinalURL are
// where they were fetched (a new fetch may give other bytes: compare the
// fingerprint). Note says why File is null.
type SourcePointer struct {
	ArtifactType      string  `json:"artifact_type"`
	SchemaVersion     string  `json:"schema_version"`
	SourceFingerprint *string `json:"source_fingerprint"`
	MediaType         string  `json:"media_type"`
	Bytes             int64   `json:"bytes"`
	File              *string `json:"file"`
	BlobPath          *string `json:"blob_path"`
	URL               string  `json:"url"`
	FinalURL          string  `json:"final_url"`
	Note              string  `json:"note,omitempty"`
}

// SourceFileName is the bundle name of doc's source bytes.
func SourceFileName(doc *Document) string {
	if doc.Source.MediaType == MediaPDF {
		return FileSourcePDF
	}
	return FileSourceHTML
}

// Pointer is the source pointer of doc: included says that the bundle
// holds the bytes (as SourceFileName(doc)); note says why not otherwise.
func Pointer(doc *Document, included bool, note string) SourcePointer {
	s := doc.Source
	p := SourcePointer{ArtifactType: TypeSourcePointer, SchemaVersion: SchemaVersion, SourceFingerprint: s.Fingerprint,
		MediaType: s.MediaType, Bytes: s.Bytes, URL: s.URL, FinalURL: s.FinalURL}
	if s.Fingerprint != nil && len(*s.Fingerprint) == len("sha256:")+64 {
		h := strings.TrimPrefix(*s.Fingerprint, "sha256:")
		bp := h[:2] + "/" + h
		p.BlobPath = &bp
	}
	if included {
		f := SourceFileName(doc)
		p.File = &f
	} else {
		p.Note = note
	}
	return p
}
