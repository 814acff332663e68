package capture

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"net"
	"strings"
	"syscall"
)

// classify turns a fetch error into an Error whose kind later stages branch
// on; fallback is the kind when nothing more specific is recognised.
func classify(err error, fallback string) *Error {
	return &Error{Kind: errorKind(err, fallback), Message: err.Error()}
}

func errorKind(err error, fallback string) string {
	var denied *deniedError
	var dns *net.DNSError
	switch {
	case errors.As(err, &denied):
		return ErrPrivate
	case errors.As(err, &dns):
		return ErrDNS
	case isTLS(err):
		return ErrTLS
	case isTimeout(err):
		return ErrTimeout
	case isConnect(err):
		return ErrConnect
	}
	return fallback
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout())
}

func isTLS(err error) bool {
	var (
		rh   tls.RecordHeaderError
		cv   *tls.CertificateVerificationError
		alrt tls.AlertError
		ua   x509.UnknownAuthorityError
		hn   x509.HostnameError
		ci   x509.CertificateInvalidError
	)
	return errors.As(err, &rh) || errors.As(err, &cv) || errors.As(err, &alrt) ||
		errors.As(err, &ua) || errors.As(err, &hn) || errors.As(err, &ci) ||
		strings.Contains(err.Error(), "tls: ")
}

func isConnect(err error) bool {
	for _, e := range []error{syscall.ECONNREFUSED, syscall.ECONNRESET, syscall.EHOSTUNREACH,
		syscall.ENETUNREACH, syscall.ECONNABORTED, syscall.EPIPE} {
		if errors.Is(err, e) {
			return true
		}
	}
	var op *net.OpError
	return errors.As(err, &op) && op.Op == "dial"
}
