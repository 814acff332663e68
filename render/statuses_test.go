package render

import (
	"testing"

	"github.com/sieve-dev/sieve/internal/record"
)

// TestEveryStatusHasMeaning: the views explain every outcome status of
// record.Statuses, and no other.
func TestEveryStatusHasMeaning(t *testing.T) {
	for _, s := range record.Statuses {
		if statusMeaning[s] == "" {
			t.Errorf("status %q has no meaning in statusMeaning", s)
		}
	}
	if len(statusMeaning) != len(record.Statuses) {
		t.Errorf("statusMeaning has %d statuses, record.Statuses %d", len(statusMeaning), len(record.Statuses))
	}
}
