package graph

import (
	"encoding/json"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/sieve-dev/sieve/internal/textnorm"
)

// A recipe's ingredients and steps often sit in their own boxes beside the
// introduction that wins the container score (a description, a tip). The
// page says which text they are: schema.org Recipe microdata marks the
// elements (itemprop recipeIngredient, ingredients, recipeInstructions),
// and Recipe JSON-LD repeats the steps' text. The element that holds most
// of the marked blocks of one kind joins the container as a sibling; the
// usual chrome signals still apply inside it. Linear in the blocks and
// their ancestors.

// recipeMinMarks is the least number of marked ingredients or steps that
// makes a region.
const recipeMinMarks = 2

// recipeStepMinChars is the least text a block needs to be matched against
// a JSON-LD step: short lines ("Zubereitung") match anything.
const recipeStepMinChars = 30

// recipeRegions returns the elements that hold the page's recipe
// ingredients and steps, outside the container and not around it.
func (b *builder) recipeRegions(c *container) []int {
	steps, items := recipeTexts(b.jsonld)
	props := b.recipeProps()
	if len(steps) == 0 && len(items) == 0 && len(props) == 0 {
		return nil
	}
	ingredients, instructions := b.recipeMicrodata(props)
	found := false
	for k := range b.blocks {
		d := &b.blocks[k]
		if d.node < 0 {
			continue
		}
		prop := b.recipePropOf(props, d.node)
		if ingredients[k] == 0 && (prop == "ingredients" || len(items) > 0 && matchesIngredient(d, items)) {
			ingredients[k] = 1
		}
		if instructions[k] == 0 && (prop == "instructions" || len(steps) > 0 && matchesStep(d.Text, steps)) {
			instructions[k] = 1
		}
		found = found || ingredients[k] > 0 || instructions[k] > 0
	}
	if !found {
		return nil
	}
	var out []int
	for _, marked := range [][]int{ingredients, instructions} {
		r := b.regionOf(marked)
		if r >= 0 && !c.holds(b.t, r) && !c.inside(b.t, c.node, r) {
			out = append(out, r)
		}
	}
	return out
}

// recipeMicrodata counts, per block, the elements with a recipe microdata
// property that lie inside the block's element (the ingredient rows of a
// table block).
func (b *builder) recipeMicrodata(props map[int]string) (ingredients, instructions []int) {
	ingredients, instructions = make([]int, len(b.blocks)), make([]int, len(b.blocks))
	t := b.t
	blockOf := make(map[int]int, len(b.blocks))
	holds := make([]bool, len(t.nodes)) // a block's element is at or below
	for k := len(b.blocks) - 1; k >= 0; k-- {
		if n := b.blocks[k].node; n >= 0 {
			blockOf[n] = k
			for a := n; a >= 0 && !holds[a]; a = t.nodes[a].Parent {
				holds[a] = true
			}
		}
	}
	for i, kind := range props {
		marks := ingredients
		if kind == "instructions" {
			marks = instructions
		}
		if holds[i] {
			continue // its blocks lie inside it: recipePropOf marks them
		}
		for a := i; a >= 0; a = t.nodes[a].Parent {
			if k, ok := blockOf[a]; ok {
				marks[k]++
				break
			}
		}
	}
	return ingredients, instructions
}

// recipeProps maps the elements that carry a recipe microdata property to
// "ingredients" or "instructions".
func (b *builder) recipeProps() map[int]string {
	var out map[int]string
	for i := range b.t.nodes {
		kind := ""
		switch strings.ToLower(b.t.nodes[i].Attrs["itemprop"]) {
		case "":
			continue
		case "recipeingredient", "ingredients":
			kind = "ingredients"
		case "recipeinstructions":
			kind = "instructions"
		default:
			continue
		}
		if out == nil {
			out = make(map[int]string)
		}
		out[i] = kind
	}
	return out
}

// recipePropOf is the recipe property element i or one of its ancestors
// carries, or "".
func (b *builder) recipePropOf(props map[int]string, i int) string {
	if len(props) == 0 {
		return ""
	}
	for ; i >= 0; i = b.t.nodes[i].Parent {
		if kind, ok := props[i]; ok {
			return kind
		}
	}
	return ""
}

// regionOf is the deepest element that holds at least two thirds of the
// marks (and at least recipeMinMarks of them), or -1; marked counts the
// marks per block.
func (b *builder) regionOf(marked []int) int {
	t := b.t
	count := make(map[int]int)
	total := 0
	for k, m := range marked {
		if m == 0 {
			continue
		}
		total += m
		for a := b.blocks[k].node; a >= 0; a = t.nodes[a].Parent {
			count[a] += m
		}
	}
	if total < recipeMinMarks {
		return -1
	}
	best, depth := -1, -1
	for a, n := range count {
		if 3*n >= 2*total && b.depthOf(a) > depth {
			if tag := t.nodes[a].Tag; tag != "body" && tag != "html" {
				best, depth = a, b.depthOf(a)
			}
		}
	}
	return best
}

func (b *builder) depthOf(i int) int {
	d := 0
	for ; i >= 0; i = b.t.nodes[i].Parent {
		d++
	}
	return d
}

// matchesStep reports whether a block's text is (part of) one of the
// steps' texts.
func matchesStep(text string, steps []string) bool {
	if utf8.RuneCountInString(text) < recipeStepMinChars {
		return false
	}
	key := textnorm.Key(text)
	for _, s := range steps {
		if strings.Contains(s, key) || strings.Contains(key, s) && utf8.RuneCountInString(s) >= recipeStepMinChars {
			return true
		}
	}
	return false
}

// matchesIngredient reports whether a short block, a list item or a table
// names one of the ingredients: its letters hold one, or are part of one.
func matchesIngredient(d *draft, items []string) bool {
	if d.Type != TypeTable && d.Type != TypeListItem && utf8.RuneCountInString(d.Text) > ingredientMaxChars {
		return false
	}
	key := lettersOf(d.Text)
	if utf8.RuneCountInString(key) < ingredientMinLetters {
		return false
	}
	for _, it := range items {
		if strings.Contains(key, it) || strings.Contains(it, key) {
			return true
		}
	}
	return false
}

// ingredientMaxChars bounds the paragraphs matched against ingredients, and
// ingredientMinLetters is the least an ingredient or a block needs to be
// matched ("Ei" matches too much).
const (
	ingredientMaxChars   = 120
	ingredientMinLetters = 4
)

// lettersOf is the lower-cased letters of s, without spaces, digits or
// punctuation: "125 g | Mehl" and "125 g Mehl" become one key.
func lettersOf(s string) string {
	var sb strings.Builder
	for _, r := range strings.ToLower(s) {
		if unicode.IsLetter(r) {
			sb.WriteRune(r)
		}
	}
	return sb.String()
}

// maxRecipeTexts bounds the steps and the ingredients read from JSON-LD:
// each is matched against every block, and a real recipe has dozens.
const maxRecipeTexts = 500

// recipeTexts reads the Recipe objects in the page's JSON-LD: the step
// texts as normalized keys, one per paragraph, and the ingredients as
// letter keys (lettersOf).
func recipeTexts(raw []string) (steps, items []string) {
	for _, r := range raw {
		if !strings.Contains(r, "recipeInstructions") && !strings.Contains(r, "recipeIngredient") {
			continue
		}
		var v any
		if json.Unmarshal([]byte(r), &v) != nil {
			continue
		}
		for _, obj := range ldObjects(v, 0) {
			steps = appendStepTexts(steps, obj["recipeInstructions"], 0)
			list, _ := obj["recipeIngredient"].([]any)
			for _, e := range list {
				if s, ok := e.(string); ok && len(items) < maxRecipeTexts {
					if k := lettersOf(s); utf8.RuneCountInString(k) >= ingredientMinLetters {
						items = append(items, k)
					}
				}
			}
		}
	}
	return steps, items
}

// appendStepTexts adds the text of a recipeInstructions value: a string,
// a HowToStep's text, or a list or HowToSection of them.
func appendStepTexts(out []string, v any, depth int) []string {
	if depth > 3 {
		return out
	}
	switch x := v.(type) {
	case string:
		for _, p := range strings.Split(x, "\n") {
			if k := textnorm.Key(p); utf8.RuneCountInString(k) >= recipeStepMinChars && len(out) < maxRecipeTexts {
				out = append(out, k)
			}
		}
	case []any:
		for _, e := range x {
			out = appendStepTexts(out, e, depth+1)
		}
	case map[string]any:
		if t, ok := x["text"]; ok {
			out = appendStepTexts(out, t, depth+1)
		}
		if l, ok := x["itemListElement"]; ok {
			out = appendStepTexts(out, l, depth+1)
		}
	}
	return out
}

// inRecipe reports whether element i lies in one of the container's recipe
// regions (and not in the container itself): such text does not vouch
// for the container's pick.
func (c *container) inRecipe(t *tree, i int) bool {
	return !c.inside(t, i, c.node) && c.insideAny(t, i, c.recipe)
}
