package normalize

import (
	"strings"

	"golang.org/x/net/html"
)

// elementIndex finds the elements a selector can match without testing
// every element: by the id, class or tag its rightmost compound requires.
// The candidates are a superset of the matches; cascadia decides each.
type elementIndex struct {
	all                  []*html.Node
	byID, byClass, byTag map[string][]*html.Node
}

func newElementIndex(elems []*html.Node) *elementIndex {
	x := &elementIndex{
		byID:    map[string][]*html.Node{},
		byClass: map[string][]*html.Node{},
		byTag:   map[string][]*html.Node{},
	}
	for _, e := range elems {
		if e == nil {
			continue
		}
		x.all = append(x.all, e)
		x.byTag[e.Data] = append(x.byTag[e.Data], e)
		for _, a := range e.Attr {
			switch {
			case a.Namespace != "":
			case a.Key == "id":
				x.byID[a.Val] = append(x.byID[a.Val], e)
			case a.Key == "class":
				for _, c := range strings.FieldsFunc(a.Val, selectorSpace) {
					x.byClass[c] = append(x.byClass[c], e)
				}
			}
		}
	}
	return x
}

// selectorSpace is the white space cascadia splits class lists on.
func selectorSpace(r rune) bool {
	return r == ' ' || r == '\t' || r == '\r' || r == '\n' || r == '\f'
}

func (x *elementIndex) candidates(sel string) []*html.Node {
	compound, _ := splitCompounds(sel)
	kind, name := keyOf(compound)
	switch kind {
	case '#':
		return x.byID[name]
	case '.':
		return x.byClass[name]
	case 't':
		return x.byTag[name]
	}
	return x.all
}

// splitCompounds returns the rightmost compound of a complex selector and
// how many combinators precede it.
func splitCompounds(sel string) (string, int) {
	sel = strings.TrimSpace(sel)
	start, depth, combinators := 0, 0, 0
	for i := 0; i < len(sel); i++ {
		switch c := sel[i]; c {
		case '\\':
			i++
		case '"', '\'':
			if j := strings.IndexByte(sel[i+1:], c); j >= 0 {
				i += j + 1
			}
		case '[', '(':
			depth++
		case ']', ')':
			depth--
		case ' ', '\t', '\n', '\r', '\f', '>', '+', '~':
			if depth == 0 {
				if start != i {
					combinators++
				}
				start = i + 1
			}
		}
	}
	return sel[start:], combinators
}

// keyOf picks from a compound selector an id ('#'), else a class ('.'),
// else a tag ('t') every match must have, reading only the top level of
// the compound and plain names; 0 when there is none to rely on.
func keyOf(compound string) (byte, string) {
	if strings.ContainsAny(compound, `\|"'`) {
		return 0, ""
	}
	var class, tag string
	if n := nameLen(compound); n > 0 {
		tag = strings.ToLower(compound[:n])
	}
	depth := 0
	for i := 0; i < len(compound); i++ {
		switch c := compound[i]; c {
		case '[', '(':
			depth++
		case ']', ')':
			depth--
		case '#', '.':
			if depth != 0 {
				continue
			}
			n := nameLen(compound[i+1:])
			if n == 0 {
				return 0, ""
			}
			if c == '#' {
				return '#', compound[i+1 : i+1+n]
			}
			if class == "" {
				class = compound[i+1 : i+1+n]
			}
			i += n
		}
	}
	switch {
	case class != "":
		return '.', class
	case tag != "":
		return 't', tag
	}
	return 0, ""
}

// nameLen is the length of the plain CSS name at the start of s.
func nameLen(s string) int {
	n := 0
	for n < len(s) && (charClass(s[n]) == 1 || s[n] == '-') {
		n++
	}
	return n
}
