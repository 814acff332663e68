package capture

import (
	"fmt"
	"net/netip"
	"sort"
	"strings"
)

// addrPolicy is the one address policy: the static fetch's dialer and the
// browser's proxy both ask it about every address they are about to dial.
type addrPolicy struct {
	allowPrivate bool                    // --allow-private: every address
	allow        map[netip.AddrPort]bool // --allow-addr: exactly these
}

func newAddrPolicy(o Options) *addrPolicy {
	p := &addrPolicy{allowPrivate: o.AllowPrivate, allow: map[netip.AddrPort]bool{}}
	for _, ap := range o.AllowAddrs {
		p.allow[netip.AddrPortFrom(ap.Addr().Unmap(), ap.Port())] = true
	}
	return p
}

// denied reports whether dialling ap is refused.
func (p *addrPolicy) denied(ap netip.AddrPort) bool {
	if p.allowPrivate {
		return false
	}
	ap = netip.AddrPortFrom(ap.Addr().Unmap(), ap.Port())
	return !p.allow[ap] && deniedAddr(ap.Addr())
}

// ParseAllowAddrs reads --allow-addr values: each an IP:PORT (IPv6 in
// brackets). Host names are refused: the allowance is for one address.
func ParseAllowAddrs(vals []string) ([]netip.AddrPort, error) {
	out := []netip.AddrPort{}
	for _, v := range vals {
		for _, s := range strings.Split(v, ",") {
			s = strings.TrimSpace(s)
			if s == "" {
				continue
			}
			ap, err := netip.ParseAddrPort(s)
			if err != nil || ap.Port() == 0 {
				return nil, fmt.Errorf("--allow-addr %q: want IP:PORT, such as 127.0.0.1:8080 or [::1]:8080", s)
			}
			out = append(out, ap)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].String() < out[j].String() })
	return out, nil
}

func addrStrings(aps []netip.AddrPort) []string {
	if len(aps) == 0 {
		return nil
	}
	out := make([]string, len(aps))
	for i, ap := range aps {
		out[i] = ap.String()
	}
	return out
}
