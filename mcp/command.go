package mcp

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/urfave/cli/v2"

	"github.com/sieve-dev/sieve/capture"
	"github.com/sieve-dev/sieve/distill"
	"github.com/sieve-dev/sieve/internal/cliutil"
)

// TokenEnv is the environment variable that may hold the HTTP bearer token.
const TokenEnv = "SIEVE_MCP_TOKEN"

// minTokenLength is the shortest bearer token accepted.
const minTokenLength = 16

// Command is `sieve mcp`.
func Command() *cli.Command {
	flags := append(capture.Flags(),
		&cli.StringFlag{Name: "store", Usage: "store `DIR`ectory for artifacts, kept across calls and restarts (default: the user cache directory's sieve/mcp)"},
		&cli.StringSliceFlag{Name: "shard", Usage: "also serve, read-only, the artifacts of this shard `ARCHIVE` written by sieve distill --shard (NAME.tar.gz, its index beside it), or of every shard in a directory (repeatable)"},
		&cli.StringFlag{Name: "http", Usage: "serve Streamable HTTP on `ADDR` (host:port, loopback unless --allow-remote) at /mcp instead of stdio"},
		&cli.BoolFlag{Name: "allow-remote", Usage: "let --http listen on a non-loopback address (needs a bearer token: --token-file or $" + TokenEnv + ")"},
		&cli.StringFlag{Name: "token-file", Usage: "`FILE` holding the bearer token HTTP clients must send (Authorization: Bearer …)"},
		&cli.BoolFlag{Name: "allow-paths", Usage: "let distill read local files (a path, or a url that is a path or file:// URL); off unless given"},
		&cli.DurationFlag{Name: "session-idle", Value: DefaultSessionIdle, Usage: "close an HTTP session after `DURATION` without a request"},
		&cli.IntFlag{Name: "max-sessions", Value: DefaultMaxSessions, Usage: "most HTTP sessions open at once; a new one past it is refused (HTTP 503)"},
	)
	flags = append(flags, distill.Flags()...)
	return &cli.Command{
		Name:  "mcp",
		Usage: "serve the artifact and evidence tools to agents over MCP (stdio, or Streamable HTTP)",
		UsageText: `sieve mcp [--store DIR] [--shard ARCHIVE|DIR]... [capture options]
sieve mcp --http 127.0.0.1:8765 [--token-file FILE] [--store DIR] [capture options]`,
		Description: `Serves the Model Context Protocol over stdin/stdout (the default) or over
Streamable HTTP at http://ADDR/mcp with --http. Tools: distill, get_section,
get_blocks, search, get_hidden_content, verify_citations, anchor_evidence,
get_crop, diff. Artifacts are kept in --store by URL and content_hash and exposed as resources
(sieve://artifact/<key>/manifest.json, …/index.md); --shard adds the artifacts
of sieve distill --shard archives, read in place, under the handles distill
gives the same reads (docs/SCALE.md). distill takes every capture
option as the default of each read (address policy, robots.txt, politeness,
--tier). --http listens on a loopback address unless --allow-remote is given,
which needs a bearer token (--token-file or $` + TokenEnv + `, at least 16
characters); a token given on loopback is required too. An HTTP session
closes after --session-idle without a request (default 30m); past
--max-sessions open sessions (default 100) a new one is refused with HTTP 503.
Logs go to stderr.
Exit status: 0 when the client closes the connection or on SIGINT/SIGTERM,
2 on bad usage, 3 when the server cannot run.`,
		Flags:  flags,
		Action: run,
	}
}

func run(c *cli.Context) error {
	if c.NArg() > 0 {
		return cliutil.Usagef("sieve mcp takes no arguments, got %q", c.Args().First())
	}
	opts, err := capture.OptionsFrom(c)
	if err != nil {
		return err
	}
	store := c.String("store")
	if store == "" {
		dir, err := os.UserCacheDir()
		if err != nil {
			return cliutil.Usagef("no --store given and no user cache directory: %v", err)
		}
		store = filepath.Join(dir, "sieve", "mcp")
	}
	token, err := bearerToken(c.String("token-file"))
	if err != nil {
		return err
	}
	addr := c.String("http")
	if addr != "" {
		if err := CheckAddr(addr, c.Bool("allow-remote"), token != ""); err != nil {
			return err
		}
	}
	idle, maxSessions := c.Duration("session-idle"), c.Int("max-sessions")
	if idle <= 0 || maxSessions <= 0 {
		return cliutil.Usagef("--session-idle and --max-sessions must be above 0, got %v and %d", idle, maxSessions)
	}
	nlim, glim, err := distill.LimitsFrom(c)
	if err != nil {
		return err
	}
	s, err := New(Options{Capture: opts, Normalize: nlim, Graph: glim, Store: store, Shards: c.StringSlice("shard"), AllowPaths: c.Bool("allow-paths"),
		SessionIdle: idle, MaxSessions: maxSessions, Log: cliutil.Stderr(c), Warm: true})
	if err != nil {
		return err
	}
	defer s.Close()
	defer cliutil.OnForcedExit(c.Context, s.Close)()
	if n := s.store.served; n.archives > 0 {
		fmt.Fprintf(cliutil.Stderr(c), "sieve-mcp: serving %d artifacts of %d shards read-only\n", n.artifacts, n.archives)
	}
	if addr == "" {
		return s.ServeStdio(c.Context, cliutil.Stdin(c), cliutil.Stdout(c))
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("sieve mcp: %w", err)
	}
	fmt.Fprintf(cliutil.Stderr(c), "sieve-mcp: serving Streamable HTTP on http://%s/mcp (store %s)\n", ln.Addr(), store)
	return s.ServeHTTP(c.Context, ln, token)
}

// ServeStdio serves one client on r and w until it closes the connection
// or ctx is done.
func (s *Server) ServeStdio(ctx context.Context, r io.Reader, w io.Writer) error {
	err := s.srv.Run(ctx, &mcp.IOTransport{Reader: io.NopCloser(r), Writer: nopWriteCloser{w}})
	if err == nil || ctx.Err() != nil || errors.Is(err, io.EOF) || errors.Is(err, mcp.ErrConnectionClosed) {
		return nil
	}
	return err
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }

// Handler is the Streamable HTTP handler at /mcp, behind the bearer token
// when token is not empty. A session closes after SessionIdle without a
// request; past MaxSessions a new one is refused.
func (s *Server) Handler(token string) http.Handler {
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s.srv },
		&mcp.StreamableHTTPOptions{SessionTimeout: s.opts.SessionIdle})
	mux := http.NewServeMux()
	mux.Handle("/mcp", requireToken(token, s.capSessions(h)))
	return mux
}

// sessionHeader names the session a Streamable HTTP request belongs to; a
// POST without it opens a new session.
const sessionHeader = "Mcp-Session-Id"

// capSessions refuses a request that would open a session while
// MaxSessions are open or being opened. Refusing rather than closing the
// idlest session: a refusal is seen by the client that asked, while an
// eviction would end another client's work (a read in progress included)
// without telling it, and would let one client churn every other out.
func (s *Server) capSessions(h http.Handler) http.Handler {
	var mu sync.Mutex
	opening := 0
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.Header.Get(sessionHeader) != "" {
			h.ServeHTTP(w, r)
			return
		}
		mu.Lock()
		if s.liveSessions()+opening >= s.opts.MaxSessions {
			mu.Unlock()
			w.Header().Set("Retry-After", "60")
			http.Error(w, fmt.Sprintf("too many sessions: %d are open, the most this server allows (--max-sessions); "+
				"a session closes after %v without a request, or when its client ends it (DELETE)", s.opts.MaxSessions, s.opts.SessionIdle),
				http.StatusServiceUnavailable)
			return
		}
		opening++
		mu.Unlock()
		defer func() {
			mu.Lock()
			opening--
			mu.Unlock()
		}()
		h.ServeHTTP(w, r)
	})
}

// liveSessions counts the server's open sessions.
func (s *Server) liveSessions() int {
	n := 0
	for range s.srv.Sessions() {
		n++
	}
	return n
}

// ServeHTTP serves Streamable HTTP on ln until ctx is done.
func (s *Server) ServeHTTP(ctx context.Context, ln net.Listener, token string) error {
	srv := &http.Server{Handler: s.Handler(token), ReadHeaderTimeout: 10 * time.Second}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return fmt.Errorf("sieve mcp: %w", err)
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if srv.Shutdown(sctx) != nil {
		srv.Close()
	}
	return nil
}

func requireToken(token string, h http.Handler) http.Handler {
	if token == "" {
		return h
	}
	want := []byte("Bearer " + token)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if subtle.ConstantTimeCompare([]byte(r.Header.Get("Authorization")), want) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="sieve-mcp"`)
			http.Error(w, "a bearer token is required", http.StatusUnauthorized)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// bearerToken reads the token from file, else from $SIEVE_MCP_TOKEN.
func bearerToken(file string) (string, error) {
	tok := os.Getenv(TokenEnv)
	if file != "" {
		b, err := os.ReadFile(file)
		if err != nil {
			return "", cliutil.Usagef("--token-file: %v", err)
		}
		tok = string(b)
	}
	tok = strings.TrimSpace(tok)
	if tok != "" && len(tok) < minTokenLength {
		return "", cliutil.Usagef("the bearer token is shorter than %d characters", minTokenLength)
	}
	return tok, nil
}

// CheckAddr refuses an --http address that is not loopback unless remote
// access was asked for, with a token.
func CheckAddr(addr string, allowRemote, haveToken bool) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return cliutil.Usagef("--http %q: %v", addr, err)
	}
	if host == "localhost" {
		return nil
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return nil
	}
	if !allowRemote {
		return cliutil.Usagef("--http %q is not a loopback address: give --allow-remote (and a bearer token) to listen on a network", addr)
	}
	if !haveToken {
		return cliutil.Usagef("--allow-remote needs a bearer token: --token-file FILE or $%s", TokenEnv)
	}
	return nil
}
