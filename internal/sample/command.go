package sample

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/sieve-dev/sieve/internal/cliutil"
)

// Command is sieve-sample: it serves the site on a loopback address until
// interrupted.
func Command() *cli.Command {
	return &cli.Command{
		Name:      "sieve-sample",
		Usage:     "serve the bundled sample site on 127.0.0.1",
		UsageText: "sieve-sample [--addr 127.0.0.1:PORT] [--urls FILE]",
		Description: "Serves the Kettle Ridge sample site, written for sieve's tests and demo, until SIGINT or SIGTERM.\n" +
			"Only loopback addresses are accepted. With --urls, the absolute URL of every page the demo distills\n" +
			"is written to FILE, one per line, once the site is listening.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "addr", Value: "127.0.0.1:0", Usage: "loopback `HOST:PORT` to listen on (port 0 picks a free one)"},
			&cli.StringFlag{Name: "urls", Usage: "write the demo pages' URLs to `FILE` after listening"},
		},
		Action: serveCommand,
	}
}

func serveCommand(c *cli.Context) error {
	if c.NArg() > 0 {
		return cliutil.Usagef("unexpected argument %q", c.Args().First())
	}
	addr := c.String("addr")
	if err := CheckAddr(addr); err != nil {
		return cliutil.Usagef("--addr: %v", err)
	}
	base, shutdown, err := Serve(addr)
	if err != nil {
		return err
	}
	defer shutdown()
	if file := c.String("urls"); file != "" {
		if err := WriteURLs(file, base); err != nil {
			return err
		}
	}
	fmt.Fprintf(cliutil.Stdout(c), "serving the sieve sample site at %s/\n", base)
	<-c.Context.Done()
	return nil
}

// WriteURLs writes base + each of Pages(), one per line, to file. The write
// is atomic, so a script waiting for file never reads half of it.
func WriteURLs(file, base string) error {
	var b strings.Builder
	for _, p := range Pages() {
		b.WriteString(strings.TrimSuffix(base, "/") + p + "\n")
	}
	tmp, err := os.CreateTemp(filepath.Dir(file), ".sieve-sample-urls-*")
	if err != nil {
		return fmt.Errorf("--urls: %w", err)
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		return fmt.Errorf("--urls: %w", err)
	}
	if _, err := tmp.WriteString(b.String()); err != nil {
		tmp.Close()
		return fmt.Errorf("--urls: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("--urls: %w", err)
	}
	if err := os.Rename(tmp.Name(), file); err != nil {
		return fmt.Errorf("--urls: %w", err)
	}
	return nil
}
