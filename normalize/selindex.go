package normalize

import (
	"strings"

	"golang.org/x/net/html"
)

// elementIndex finds the elements a selector can match without testing
// every element: by the id, class or tag its rightmost compound requires.
// The candidates are a superset of the matches; cascadia decides each.
// Candidates are node ids, in document order, an element once per class
// token it carries. Only the keys some selector asks for are indexed.
type elementIndex struct {
	all                  []int
	byID, byClass, byTag map[string][]int
}

// indexKeys are the ids, classes and tags the selectors ask for, and
// whether one asks for every element.
type indexKeys struct {
	ids, classes, tags map[string]bool
	all                bool
}

func keysOf(rules []hidingRule) indexKeys {
	k := indexKeys{ids: map[string]bool{}, classes: map[string]bool{}, tags: map[string]bool{}}
	for _, r := range rules {
		for _, sel := range r.selectors {
			compound, _ := splitCompounds(sel)
			switch kind, name := keyOf(compound); kind {
			case '#':
				k.ids[name] = true
			case '.':
				k.classes[name] = true
			case 't':
				k.tags[name] = true
			default:
				k.all = true
			}
		}
	}
	return k
}

// newElementIndex indexes elems (nil entries are text nodes) by keys.
func newElementIndex(elems []*html.Node, keys indexKeys) *elementIndex {
	x := &elementIndex{
		byID:    map[string][]int{},
		byClass: map[string][]int{},
		byTag:   map[string][]int{},
	}
	for id, e := range elems {
		if e == nil {
			continue
		}
		if keys.all {
			x.all = append(x.all, id)
		}
		if keys.tags[e.Data] {
			x.byTag[e.Data] = append(x.byTag[e.Data], id)
		}
		for _, a := range e.Attr {
			switch {
			case a.Namespace != "":
			case a.Key == "id" && keys.ids[a.Val]:
				x.byID[a.Val] = append(x.byID[a.Val], id)
			case a.Key == "class" && len(keys.classes) > 0:
				x.addClasses(id, a.Val, keys.classes)
			}
		}
	}
	return x
}

// addClasses indexes id under each wanted token of a class list, split as
// strings.FieldsFunc splits it on selectorSpaceByte.
func (x *elementIndex) addClasses(id int, list string, wanted map[string]bool) {
	for i := 0; i < len(list); {
		for i < len(list) && selectorSpaceByte(list[i]) {
			i++
		}
		j := i
		for j < len(list) && !selectorSpaceByte(list[j]) {
			j++
		}
		if c := list[i:j]; c != "" && wanted[c] {
			x.byClass[c] = append(x.byClass[c], id)
		}
		i = j
	}
}

// selectorSpaceByte is the white space cascadia splits class lists on.
func selectorSpaceByte(c byte) bool {
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f'
}

func (x *elementIndex) candidates(sel string) []int {
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
