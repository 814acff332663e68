package c14n

import (
	_ "embed"
	"sync"
)

// ProfileName names the deterministic profile sieve's EEF artifacts follow.
const ProfileName = "ethos-deterministic-v1"

// Names the profile pins.
const (
	CoordinateProfile = "ethos_quantized_top_left_v1"
	TextNormalization = "ethos_collapse_whitespace_v1"
	KeyOrder          = "unicode_code_points" // CompareKeys
)

//go:embed ethos-deterministic-v1.json
var profileSource []byte

var profileOnce = sync.OnceValues(func() ([]byte, error) { return Canonicalize(profileSource) })

// Profile is the deterministic profile in canonical form. The file in the
// repository is indented for reading; its identity is its canonical bytes.
func Profile() []byte {
	b, err := profileOnce()
	if err != nil {
		panic("c14n: the embedded profile is not canonicalizable: " + err.Error()) // caught by the tests
	}
	return b
}

// ProfileSHA256 is the fingerprint of Profile().
func ProfileSHA256() string { return Fingerprint(Profile()) }
