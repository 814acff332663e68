package pdf

import "testing"

// TestBoldName: the names that say bold, TeX's by prefix, and names that
// do not (Medium is 500, CMR10 is TeX's roman).
func TestBoldName(t *testing.T) {
	for name, want := range map[string]bool{
		"Helvetica-Bold": true, "ABCDEF+CMBX10": true, "SFBX1000": true, "ECBX1200": true, "CMB10": true,
		"NimbusRomNo9L-Medi": true, "MyriadPro-Semibold": true, "Arial-Black": true,
		"Helvetica": false, "SFRM1000": false, "ABCDEF+CMR10": false, "Roboto-Medium": false, "CMBXX": true,
	} {
		if got := boldName(name); got != want {
			t.Errorf("boldName(%q) = %v, want %v", name, got, want)
		}
	}
}
