package normalize

import (
	"fmt"
	"strconv"
	"strings"

	"golang.org/x/net/html"
)

// sameColorInline is the static tier's same_color test (ARTIFACT.md: text
// the same colour as its background is latent in every tier): the
// element's inline color equals the background colour that an inline style
// paints under it, its own or the nearest ancestor's that sets one. Style
// sheets are not consulted (a page's body background is often set there),
// so text is flagged only where the markup itself says both colours.
func sameColorInline(n *html.Node, d declSet) (string, bool) {
	c, ok := d.get("color")
	if !ok {
		return "", false
	}
	fg, ok := cssRGB(c.value)
	if !ok {
		return "", false
	}
	bg, where, ok := inlineBackground(n, d)
	if !ok || bg != fg {
		return "", false
	}
	return fmt.Sprintf(`style="color:%s" on background %s (%s)`, c.value, bg, where), true
}

// inlineBackground is the background colour of n's own inline style, else
// of the nearest ancestor whose inline style sets a background. An
// unreadable background (an image, a gradient, a variable) ends the search
// unread.
func inlineBackground(n *html.Node, own declSet) (string, string, bool) {
	d, where := own, "its own inline style"
	for p := n; p != nil && p.Type == html.ElementNode; p = p.Parent {
		if p != n {
			s := attr(p, "style")
			if !strings.Contains(s, "background") || len(s) > maxInlineStyle {
				continue
			}
			d, where = parseDecls(s), "the inline style of <"+p.Data+">"
		}
		v, ok := d.get("background-color")
		if !ok {
			v, ok = d.get("background")
		}
		if !ok {
			continue
		}
		rgb, ok := cssRGB(v.value)
		return rgb, where, ok
	}
	return "", "", false
}

var namedColors = map[string]string{
	"white": "#ffffff", "black": "#000000", "red": "#ff0000", "green": "#008000", "blue": "#0000ff",
	"yellow": "#ffff00", "gray": "#808080", "grey": "#808080", "silver": "#c0c0c0", "navy": "#000080",
	"maroon": "#800000", "purple": "#800080", "teal": "#008080", "olive": "#808000", "lime": "#00ff00",
	"aqua": "#00ffff", "cyan": "#00ffff", "fuchsia": "#ff00ff", "magenta": "#ff00ff", "orange": "#ffa500",
	"whitesmoke": "#f5f5f5", "snow": "#fffafa", "ivory": "#fffff0",
}

// cssRGB reads an opaque CSS colour as #rrggbb: #rgb, #rrggbb, #rgbf/#rrggbbff,
// rgb()/rgba() with integer channels and alpha 1, or a common name.
// Anything else (transparent, currentColor, var(), hsl(), a translucent
// colour) is not read.
func cssRGB(v string) (string, bool) {
	v = strings.ToLower(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "!important")))
	if c, ok := namedColors[v]; ok {
		return c, true
	}
	if strings.HasPrefix(v, "#") {
		h := v[1:]
		switch len(h) {
		case 4:
			if h[3] != 'f' {
				return "", false
			}
			h = h[:3]
		case 8:
			if h[6:] != "ff" {
				return "", false
			}
			h = h[:6]
		}
		if len(h) == 3 {
			h = string([]byte{h[0], h[0], h[1], h[1], h[2], h[2]})
		}
		if len(h) != 6 {
			return "", false
		}
		if _, err := strconv.ParseUint(h, 16, 32); err != nil {
			return "", false
		}
		return "#" + h, true
	}
	for _, fn := range []string{"rgba(", "rgb("} {
		if !strings.HasPrefix(v, fn) || !strings.HasSuffix(v, ")") {
			continue
		}
		parts := strings.FieldsFunc(v[len(fn):len(v)-1], func(r rune) bool { return r == ',' || r == ' ' || r == '/' })
		if len(parts) != 3 && len(parts) != 4 {
			return "", false
		}
		if len(parts) == 4 && parts[3] != "1" && parts[3] != "1.0" && parts[3] != "100%" {
			return "", false
		}
		out := "#"
		for _, p := range parts[:3] {
			n, err := strconv.Atoi(p)
			if err != nil || n < 0 || n > 255 {
				return "", false
			}
			out += fmt.Sprintf("%02x", n)
		}
		return out, true
	}
	return "", false
}
