package evcmd

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/sieve-dev/sieve/internal/cliutil"
	"github.com/sieve-dev/sieve/internal/codec"
)

// TestCodedMessages: every code passed to Coded anywhere in the module has
// its one stable message, and the message never carries the detail.
func TestCodedMessages(t *testing.T) {
	call := regexp.MustCompile(`Coded\([^,]+, "([a-z_]+)"`)
	seen := map[string]bool{}
	err := filepath.WalkDir(filepath.Join("..", ".."), func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && p != filepath.Join("..", "..") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".go") {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for _, m := range call.FindAllStringSubmatch(string(b), -1) {
			seen[m[1]] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(seen) < 5 {
		t.Fatalf("found only %d codes in Coded calls: %v", len(seen), seen)
	}
	for code := range seen {
		if CodedMessages[code] == "" {
			t.Errorf("code %q is used without a stable message in CodedMessages", code)
		}
	}
}

func TestCodedErrorShape(t *testing.T) {
	a := Coded(cliutil.ExitIO, "io_error", "cannot read %s: %v", "/tmp/x/a.json", "no such file")
	b := Coded(cliutil.ExitIO, "io_error", "cannot read %s: %v", "/srv/b.json", "permission denied")
	var ea, eb struct {
		Error struct{ Code, Message, Detail string }
	}
	if err := codec.Unmarshal([]byte(a.Error()), &ea); err != nil {
		t.Fatal(err)
	}
	if err := codec.Unmarshal([]byte(b.Error()), &eb); err != nil {
		t.Fatal(err)
	}
	if ea.Error.Message != eb.Error.Message || ea.Error.Code != "io_error" {
		t.Errorf("messages differ between two io_errors: %q vs %q", ea.Error.Message, eb.Error.Message)
	}
	if strings.Contains(ea.Error.Message, "/tmp") || !strings.Contains(ea.Error.Detail, "/tmp/x/a.json") {
		t.Errorf("the path belongs in detail, not message: %s", a)
	}
	want := `{"error":{"code":"io_error","detail":"cannot read /tmp/x/a.json: no such file","message":"a file could not be read or written"}}`
	if a.Error() != want {
		t.Errorf("got  %s\nwant %s", a, want)
	}
}
