package ground

// Grounding identifies the source claims or evidence refs were checked
// against: the "grounding" object of verification and anchor reports.
type Grounding struct {
	Identity            Identity     `json:"identity"`
	SourceFingerprint   *string      `json:"source_fingerprint"`
	DocumentFingerprint *string      `json:"document_fingerprint"`
	Capabilities        Capabilities `json:"capabilities"`
}
