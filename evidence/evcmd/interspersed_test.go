package evcmd

import (
	"io"
	"reflect"
	"testing"

	"github.com/urfave/cli/v2"
)

// TestInterspersedBools (issue 26): a boolean flag of the command after
// DOC (sieve crop DOC --out D --plain, sieve verify DOC … --crops D
// --plain) takes no value and does not swallow the next argument.
func TestInterspersedBools(t *testing.T) {
	for _, tc := range []struct {
		args  []string
		pos   []string
		plain bool
		out   string
	}{
		{[]string{"doc.json", "--out", "d", "--plain"}, []string{"doc.json"}, true, "d"},
		{[]string{"doc.json", "--plain", "--out", "d"}, []string{"doc.json"}, true, "d"},
		{[]string{"doc.json", "--plain=false", "--out=d"}, []string{"doc.json"}, false, "d"},
		{[]string{"doc.json", "--out", "d"}, []string{"doc.json"}, false, "d"},
	} {
		var pos []string
		var plain bool
		var out string
		app := &cli.App{Writer: io.Discard, ErrWriter: io.Discard, Commands: []*cli.Command{{
			Name:  "crop",
			Flags: []cli.Flag{&cli.StringFlag{Name: "out"}, &cli.BoolFlag{Name: "plain"}},
			Action: func(c *cli.Context) error {
				var err error
				pos, err = Interspersed(c)
				plain, out = c.Bool("plain"), c.String("out")
				return err
			},
		}}}
		if err := app.Run(append([]string{"sieve", "crop"}, tc.args...)); err != nil {
			t.Errorf("%v: %v", tc.args, err)
			continue
		}
		if !reflect.DeepEqual(pos, tc.pos) || plain != tc.plain || out != tc.out {
			t.Errorf("%v: pos %v plain %v out %q", tc.args, pos, plain, out)
		}
	}
}
