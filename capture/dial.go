package capture

import (
	"context"
	"fmt"
	"net"
	"net/netip"
	"strconv"
)

// Address ranges refused by default besides what netip classifies.
var deniedPrefixes = []netip.Prefix{
	netip.MustParsePrefix("0.0.0.0/8"),     // "this network"
	netip.MustParsePrefix("100.64.0.0/10"), // carrier-grade NAT
	netip.MustParsePrefix("192.0.0.0/24"),  // IETF protocol assignments
	netip.MustParsePrefix("198.18.0.0/15"), // benchmarking
	netip.MustParsePrefix("240.0.0.0/4"),   // reserved, broadcast
}

// Prefixes that embed an IPv4 address, which is checked in turn.
var (
	nat64 = netip.MustParsePrefix("64:ff9b::/96")
	six24 = netip.MustParsePrefix("2002::/16")
)

// deniedAddr is the default address policy: true for addresses a fetch of
// the public web has no business reaching (private, loopback, link-local,
// unspecified, multicast, CGNAT and other special ranges).
func deniedAddr(a netip.Addr) bool {
	a = a.Unmap()
	if a.IsPrivate() || a.IsLoopback() || a.IsLinkLocalUnicast() || a.IsUnspecified() ||
		a.IsMulticast() || a.IsLinkLocalMulticast() || a.IsInterfaceLocalMulticast() {
		return true
	}
	for _, p := range deniedPrefixes {
		if p.Contains(a) {
			return true
		}
	}
	if v4, ok := embeddedIPv4(a); ok {
		return deniedAddr(v4)
	}
	return false
}

// embeddedIPv4 returns the IPv4 address inside a NAT64 or 6to4 address.
func embeddedIPv4(a netip.Addr) (netip.Addr, bool) {
	b := a.As16()
	switch {
	case !a.Is6():
		return netip.Addr{}, false
	case nat64.Contains(a):
		return netip.AddrFrom4([4]byte(b[12:16])), true
	case six24.Contains(a):
		return netip.AddrFrom4([4]byte(b[2:6])), true
	}
	return netip.Addr{}, false
}

// deniedError says a host resolved only to refused addresses.
type deniedError struct {
	host string
	addr netip.Addr
}

func (e *deniedError) Error() string {
	if e.host == e.addr.String() {
		return fmt.Sprintf("%s is a private, loopback, link-local or reserved address: refused (--allow-private or --allow-addr allows it)", e.addr)
	}
	return fmt.Sprintf("%s resolves to %s, a private, loopback, link-local or reserved address: refused (--allow-private or --allow-addr allows it)", e.host, e.addr)
}

func defaultLookup(ctx context.Context, host string) ([]netip.Addr, error) {
	return net.DefaultResolver.LookupNetIP(ctx, "ip", host)
}

// dial resolves addr's host itself, checks every address against the policy
// and connects to a checked address, so that a second DNS answer (rebinding)
// cannot swap in an address that was never checked. The connect timeout
// covers resolution and connection.
func (c *Capturer) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	host, portStr, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, err
	}
	port, err := strconv.ParseUint(portStr, 10, 16)
	if err != nil {
		return nil, fmt.Errorf("bad port in %q", addr)
	}
	ctx, cancel := context.WithTimeout(ctx, c.opts.ConnectTimeout)
	defer cancel()
	ips, err := c.lookup(ctx, host)
	if err != nil {
		return nil, err
	}
	return c.dialFirst(ctx, network, host, uint16(port), ips)
}

func (c *Capturer) dialFirst(ctx context.Context, network, host string, port uint16, ips []netip.Addr) (net.Conn, error) {
	var denied, dialErr error
	var d net.Dialer
	for _, ip := range ips {
		ip = ip.Unmap()
		if c.deny != nil && c.deny(netip.AddrPortFrom(ip, port)) {
			if denied == nil {
				denied = &deniedError{host: host, addr: ip}
			}
			continue
		}
		conn, err := d.DialContext(ctx, network, netip.AddrPortFrom(ip, port).String())
		if err == nil {
			return conn, nil
		}
		dialErr = err
	}
	switch {
	case dialErr != nil:
		return nil, dialErr
	case denied != nil:
		return nil, denied
	}
	return nil, &net.DNSError{Err: "no addresses", Name: host, IsNotFound: true}
}
