package capture

import (
	"context"
	"net/url"
)

// scopeKey is the context key of a crawl's scope check (WithScope).
type scopeKey struct{}

// WithScope returns a context under which a capture or a Fetch requests no
// URL that check refuses: not the target, not a redirect hop (static or in
// the browser), not a page's own navigation in the browser, and no
// robots.txt of a host the check refuses. check returns nil for a URL in
// scope, else why not ("outside the crawl's scope (--scope host)"). A
// plain sieve-capture has no scope: the hook is for sieve crawl.
func WithScope(ctx context.Context, check func(rawURL string) error) context.Context {
	return context.WithValue(ctx, scopeKey{}, check)
}

// scopeOf is the context's scope check, nil when there is none.
func scopeOf(ctx context.Context) func(string) error {
	check, _ := ctx.Value(scopeKey{}).(func(string) error)
	return check
}

// outOfScope is the error of a capture or fetch about to request u when
// the context's scope refuses it; redirected says u is a redirect hop.
func outOfScope(ctx context.Context, u *url.URL, redirected bool) *Error {
	check := scopeOf(ctx)
	if check == nil {
		return nil
	}
	err := check(u.String())
	if err == nil {
		return nil
	}
	msg := "not requested: " + u.String() + " is " + err.Error()
	if redirected {
		msg = "redirected out of scope to " + u.String() + ", not followed: " + err.Error()
	}
	return &Error{Kind: ErrOutOfScope, Message: msg}
}
