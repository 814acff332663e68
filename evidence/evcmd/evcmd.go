// Package evcmd is the evidence commands' scaffolding (sieve verify,
// sieve evidence anchor, sieve crop, sieve diff --citations): coded
// failures with their stable messages (SPEC.md §6.4), flags among the
// arguments, the grounding source read from a file (once: Doc), the
// canonical report written to --out or stdout, and the filters' flags,
// action and line stage (sieve-verify, sieve-anchor).
package evcmd

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/sieve-dev/sieve/evidence/eef"
	"github.com/sieve-dev/sieve/evidence/ground"
	"github.com/sieve-dev/sieve/internal/c14n"
	"github.com/sieve-dev/sieve/internal/cliutil"
)

// CodedError is a coded failure: its Error() is the canonical JSON line
// {"error":{"code":…,"detail":…,"message":…}}. Code and Message are stable
// (SPEC.md §6.4: one message per code); Detail says what failed this time
// (file names, offsets, validator text) and is for people, not parsers.
type CodedError struct {
	Exit    int
	Code    string
	Message string
	Detail  string
}

func (e *CodedError) ExitCode() int { return e.Exit }

func (e *CodedError) Error() string {
	m := map[string]string{"code": e.Code, "message": e.Message}
	if e.Detail != "" {
		m["detail"] = e.Detail
	}
	b, err := c14n.Marshal(map[string]any{"error": m})
	if err != nil {
		return `{"error":{"code":"internal_error","message":"internal failure"}}`
	}
	return string(b)
}

// CodedMessages is the one stable message of each code (docs/CLI.md,
// "Coded failures", has the table).
var CodedMessages = map[string]string{
	"internal_error":        "internal failure",
	"io_error":              "a file could not be read or written",
	"invalid_source":        "the source document is not valid",
	"invalid_citations":     "the citations are not valid",
	"invalid_report":        "the verification report is not valid",
	"evidence_ungrounded":   "not all evidence is grounded",
	"invalid_evidence_refs": "the evidence refs are not valid",
	"evidence_unbound":      "not all evidence refs are bound",
}

// Coded builds a CodedError: the code's stable message, the formatted text
// as its detail (TestCodedMessages keeps every code used with a message).
func Coded(exit int, code, format string, a ...any) error {
	msg, ok := CodedMessages[code]
	if !ok {
		msg = code
	}
	return &CodedError{Exit: exit, Code: code, Message: msg, Detail: fmt.Sprintf(format, a...)}
}

// CheckFormat rejects an unknown --grounding value as a usage error.
func CheckFormat(f string) error {
	switch f {
	case ground.FormatAuto, ground.FormatEthos, ground.FormatGraph, ground.FormatOpenDataLoader:
		return nil
	}
	return cliutil.Usagef("unknown --grounding %q (auto, ethos-document, sieve-graph, opendataloader-json)", f)
}

// Doc is a document an evidence command was given, read and loaded once:
// sieve verify --crops hands it to crop as it is.
type Doc struct {
	Path   string
	Bytes  []byte // crop finds the source PDF's and the screenshot's keys in them
	Source ground.Source
}

// ReadDoc reads the document at path and loads its grounding source (with
// the security report beside it, loadBeside), as a coded failure when it
// cannot.
func ReadDoc(format, path string) (Doc, error) {
	path = ArtifactDoc(path)
	b, err := os.ReadFile(path)
	if err != nil {
		return Doc{}, Coded(cliutil.ExitIO, "io_error", "cannot read %s: %v", path, err)
	}
	src, err := loadBeside(format, path, b)
	if err != nil {
		return Doc{}, Coded(cliutil.ExitInvalidSource, "invalid_source", "%v", err)
	}
	return Doc{Path: path, Bytes: b, Source: src}, nil
}

// LoadFile is ReadDoc's grounding source.
func LoadFile(format, path string) (ground.Source, error) {
	d, err := ReadDoc(format, path)
	return d.Source, err
}

// WriteOut writes canonical JSON and a newline to --out or stdout, with
// coded errors (SPEC.md §6.4) when encoding or writing fails.
func WriteOut(c *cli.Context, encode func() ([]byte, error)) error {
	b, err := encode()
	if err != nil {
		return Coded(cliutil.ExitInternal, "internal_error", "%v", err)
	}
	b = append(b, '\n')
	if out := c.String("out"); out != "" {
		if err := os.WriteFile(out, b, 0o644); err != nil {
			return Coded(cliutil.ExitIO, "io_error", "cannot write %s: %v", out, err)
		}
		return nil
	}
	if _, err := cliutil.Stdout(c).Write(b); err != nil {
		return Coded(cliutil.ExitIO, "io_error", "cannot write the report: %v", err)
	}
	return nil
}

// Interspersed returns c's positional arguments after applying the flags
// among them; bools names boolean flags (which take no separate value)
// besides the command's own *cli.BoolFlag flags (crop's --plain on sieve
// verify --crops and sieve crop), which are known without naming them.
func Interspersed(c *cli.Context, bools ...string) ([]string, error) {
	args := c.Args().Slice()
	var pos []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !strings.HasPrefix(a, "-") || a == "-" {
			pos = append(pos, a)
			continue
		}
		name, val, hasVal := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if slices.Contains(bools, name) || isBool(c, name) {
			if err := c.Set(name, orDefault(val, "true")); err != nil {
				return nil, cliutil.Usagef("%s: %v", a, err)
			}
			continue
		}
		if !hasVal {
			if i+1 >= len(args) {
				return nil, cliutil.Usagef("flag needs an argument: %s", a)
			}
			i++
			val = args[i]
		}
		if err := c.Set(name, val); err != nil {
			return nil, cliutil.Usagef("flag provided but not defined: %s", a)
		}
	}
	return pos, nil
}

// isBool says whether name is one of c's command's boolean flags.
func isBool(c *cli.Context, name string) bool {
	if c.Command == nil {
		return false
	}
	for _, f := range c.Command.Flags {
		if bf, ok := f.(*cli.BoolFlag); ok && slices.Contains(bf.Names(), name) {
			return true
		}
	}
	return false
}

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

// loadBeside loads the source in b, read from path; a document.ethos.json
// with its bundle's security_report.json beside it carries that report's
// findings (SPEC.md §4.8), so a report on it warns at their severity. A
// report there that is not the document's is refused, not ignored.
func loadBeside(format, path string, b []byte) (ground.Source, error) {
	src, err := ground.Load(format, b)
	if err != nil || src.Identity().Format != ground.FormatEthos {
		return src, err
	}
	rb, err := os.ReadFile(filepath.Join(filepath.Dir(path), eef.FileSecurityReport))
	if errors.Is(err, fs.ErrNotExist) {
		return src, nil
	}
	if err != nil {
		return nil, err
	}
	return ground.WithSecurityReport(src, rb)
}
