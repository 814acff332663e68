package cli

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/sieve-dev/sieve/anchor"
	"github.com/sieve-dev/sieve/capture"
	"github.com/sieve-dev/sieve/crop"
	"github.com/sieve-dev/sieve/diff"
	"github.com/sieve-dev/sieve/frontier"
	"github.com/sieve-dev/sieve/graph"
	"github.com/sieve-dev/sieve/internal/cliutil"
	"github.com/sieve-dev/sieve/internal/pdf"
	"github.com/sieve-dev/sieve/internal/sample"
	"github.com/sieve-dev/sieve/normalize"
	"github.com/sieve-dev/sieve/render"
	"github.com/sieve-dev/sieve/verify"
)

// Binaries are the stage binaries beside sieve, by name: the one list
// of them. Each has its cmd/NAME (a main that runs it through cliutil.Exec)
// and its man page; the Makefile's CMDS and cmd/sieve's test programs are
// held to it by TestBinaries.
func Binaries() map[string]func() *cli.Command {
	return map[string]func() *cli.Command{
		"sieve-capture":   capture.Command,
		"sieve-normalize": normalize.Command,
		"sieve-graph":     graph.Command,
		"sieve-render":    render.Command,
		"sieve-verify":    verify.FilterCommand,
		"sieve-anchor":    anchor.FilterCommand,
		"sieve-crop":      crop.Command,
		"sieve-diff":      diff.Command,
		"sieve-sample":    sample.Command,
		"sieve-frontier":  frontier.Command,
	}
}

// Programs are sieve and its Binaries, by name.
func Programs() map[string]func() *cli.Command {
	p := Binaries()
	p["sieve"] = Command
	return p
}

// completionCommand is `sieve completion bash|zsh|fish`.
func completionCommand() *cli.Command {
	return &cli.Command{
		Name:      "completion",
		Usage:     "print the shell completion script for bash, zsh or fish",
		UsageText: "sieve completion bash|zsh|fish",
		Description: `Prints a script that completes sieve's commands and flags. Load it with
   source <(sieve completion bash)           # bash, e.g. in ~/.bashrc
   source <(sieve completion zsh)            # zsh, after compinit
   sieve completion fish | source            # fish
or save it where your shell loads completions from
(make install puts them under PREFIX/share).`,
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return cliutil.Usagef("sieve completion needs one shell: bash, zsh or fish")
			}
			var script string
			switch sh := c.Args().First(); sh {
			case "bash":
				script = bashCompletion
			case "zsh":
				script = zshCompletion
			case "fish":
				s, err := c.App.ToFishCompletion()
				if err != nil {
					return err
				}
				script = s
			default:
				return cliutil.Usagef("sieve completion: no completion for %q; use bash, zsh or fish", sh)
			}
			_, err := fmt.Fprint(cliutil.Stdout(c), strings.ReplaceAll(script, "@PROG@", c.App.Name))
			return err
		},
	}
}

// prepareCommand is `sieve prepare`: what a first run would otherwise
// do slowly, done now (make install runs it).
func prepareCommand() *cli.Command {
	return &cli.Command{
		Name:      "prepare",
		Usage:     "compile the PDF engine into its cache now, so the first PDF read is not slow",
		UsageText: "sieve prepare",
		Description: `The PDF engine (PDFium as WebAssembly, inside the binary) is compiled once
per machine and kept in the user cache dir ($XDG_CACHE_HOME/sieve/wazero or
~/.cache/sieve/wazero): the first PDF read takes some 15-20 s, later ones
well under a second. sieve prepare does that compilation now, and says
whether Chromium (the render tier) is there. make install runs it.`,
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return cliutil.Usagef("sieve prepare takes no arguments, not %q", c.Args().First())
			}
			start := time.Now()
			pdf.SetNotice(cliutil.Stderr(c))
			dir, err := pdf.Warm()
			if err != nil {
				return fmt.Errorf("starting the PDF engine: %w", err)
			}
			out := cliutil.Stdout(c)
			if dir == "" {
				dir = "no cache dir can be written (set XDG_CACHE_HOME), so every run compiles it"
			}
			fmt.Fprintf(out, "PDF engine: ready in %s (%s)\n", time.Since(start).Round(100*time.Millisecond), dir)
			if path, err := exec.LookPath(capture.DefaultChromium); err == nil {
				fmt.Fprintf(out, "Chromium:   %s (the render tier)\n", path)
			} else {
				fmt.Fprintf(out, "Chromium:   not found at %s: the render tier needs it (apt-get install chromium); static reads and PDFs do not\n", capture.DefaultChromium)
			}
			return nil
		},
	}
}

// manCommand is `sieve man [--dir DIR]`.
func manCommand() *cli.Command {
	return &cli.Command{
		Name:      "man",
		Usage:     "print sieve's man page, or write every binary's man page into a directory",
		UsageText: "sieve man > sieve.1\nsieve man --dir share/man/man1",
		Flags:     []cli.Flag{&cli.StringFlag{Name: "dir", Usage: "write sieve.1 and one page per stage binary into `DIR`"}},
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return cliutil.Usagef("sieve man takes no arguments, not %q", c.Args().First())
			}
			page, err := c.App.ToManWithSection(1)
			if err != nil {
				return err
			}
			dir := c.String("dir")
			if dir == "" {
				_, err = fmt.Fprint(cliutil.Stdout(c), page)
				return err
			}
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return err
			}
			if err := os.WriteFile(filepath.Join(dir, "sieve.1"), []byte(page), 0o644); err != nil {
				return err
			}
			for name, cmd := range Binaries() {
				app := cliutil.App(name, cmd(), cliutil.IO{})
				page, err := app.ToManWithSection(1)
				if err != nil {
					return err
				}
				if err := os.WriteFile(filepath.Join(dir, name+".1"), []byte(page), 0o644); err != nil {
					return err
				}
			}
			return nil
		},
	}
}

// The scripts ask the program for its completions (urfave/cli's
// --generate-bash-completion), so they follow the commands and flags.
const bashCompletion = `# bash completion for @PROG@ (sieve completion bash)
_@PROG@_complete() {
  local cur="${COMP_WORDS[COMP_CWORD]}" words=("${COMP_WORDS[@]:0:$COMP_CWORD}")
  local opts
  if [[ "$cur" == -* ]]; then
    opts=$("${words[@]}" "$cur" --generate-bash-completion 2>/dev/null)
  else
    opts=$("${words[@]}" --generate-bash-completion 2>/dev/null)
  fi
  COMPREPLY=($(compgen -W "$opts" -- "$cur"))
}
complete -o bashdefault -o default -F _@PROG@_complete @PROG@
`

const zshCompletion = `#compdef @PROG@
# zsh completion for @PROG@ (sieve completion zsh)
_@PROG@_complete() {
  local -a opts
  local cur=${words[-1]}
  if [[ "$cur" == -* ]]; then
    opts=("${(@f)$(${words[@]:0:#words[@]-1} ${cur} --generate-bash-completion 2>/dev/null)}")
  else
    opts=("${(@f)$(${words[@]:0:#words[@]-1} --generate-bash-completion 2>/dev/null)}")
  fi
  if [[ "${opts[1]}" != "" ]]; then
    _describe 'values' opts
  else
    _files
  fi
}
compdef _@PROG@_complete @PROG@
`
