package graph

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"golang.org/x/net/html"

	"github.com/sieve-dev/sieve/internal/textnorm"
)

// schemaTypes are the schema.org types whose facts are kept, and for each
// the properties kept. Everything else in the page's JSON-LD is dropped:
// structured data is page-controlled input, so only plain, well-known facts
// pass.
var schemaTypes = map[string][]string{
	"Article":             articleProps,
	"NewsArticle":         articleProps,
	"BlogPosting":         articleProps,
	"TechArticle":         articleProps,
	"ScholarlyArticle":    articleProps,
	"Report":              articleProps,
	"WebPage":             {"name", "description", "datePublished", "dateModified", "inLanguage"},
	"Product":             {"name", "description", "brand", "sku", "gtin13", "mpn", "offers", "aggregateRating"},
	"Offer":               {"price", "priceCurrency", "availability", "validFrom"},
	"AggregateOffer":      {"lowPrice", "highPrice", "priceCurrency", "offerCount"},
	"AggregateRating":     {"ratingValue", "ratingCount", "reviewCount", "bestRating"},
	"Organization":        {"name", "legalName", "description", "address", "telephone", "email"},
	"LocalBusiness":       {"name", "description", "address", "telephone", "openingHours", "priceRange"},
	"Person":              {"name", "jobTitle", "affiliation"},
	"Event":               {"name", "description", "startDate", "endDate", "location", "organizer", "eventStatus"},
	"Recipe":              {"name", "description", "recipeIngredient", "recipeYield", "totalTime", "cookTime", "prepTime"},
	"HowTo":               {"name", "description", "totalTime", "step"},
	"HowToStep":           {"name", "text"},
	"Review":              {"name", "author", "reviewRating", "reviewBody", "datePublished"},
	"Rating":              {"ratingValue", "bestRating"},
	"SoftwareApplication": {"name", "applicationCategory", "operatingSystem", "softwareVersion", "offers"},
	"Book":                {"name", "author", "isbn", "datePublished", "publisher"},
	"Course":              {"name", "description", "provider"},
	"JobPosting":          {"title", "description", "datePosted", "hiringOrganization", "jobLocation", "employmentType", "validThrough"},
	"VideoObject":         {"name", "description", "uploadDate", "duration"},
	"Place":               {"name", "address"},
	"PostalAddress":       {"streetAddress", "addressLocality", "addressRegion", "postalCode", "addressCountry"},
	"BreadcrumbList":      {"itemListElement"},
	"ListItem":            {"name", "position"},
}

var articleProps = []string{"headline", "name", "description", "author", "datePublished", "dateModified", "publisher", "articleSection", "inLanguage", "wordCount"}

// maxItems bounds how many structured items one page contributes.
const maxItems = 50

// structuredData reads the page's JSON-LD into whitelisted facts keyed by
// schema.org type, and FAQPage question/answer pairs. Malformed JSON-LD is
// skipped and counted in the returned note.
func structuredData(raw []string) (map[string]any, []FAQ, []string) {
	out := map[string]any{}
	faq := []FAQ{}
	var notes []string
	n := 0
	for i, r := range raw {
		var v any
		dec := json.NewDecoder(strings.NewReader(r))
		dec.UseNumber()
		if err := dec.Decode(&v); err != nil {
			notes = append(notes, fmt.Sprintf("JSON-LD block %d is not valid JSON; skipped", i+1))
			continue
		}
		for _, obj := range ldObjects(v, 0) {
			types := ldTypes(obj["@type"])
			for _, t := range types {
				if t == "FAQPage" {
					faq = append(faq, faqPairs(obj)...)
					continue
				}
				props, ok := schemaTypes[t]
				if !ok || n >= maxItems {
					continue
				}
				item := ldItem(obj, props, 0)
				if len(item) == 0 {
					continue
				}
				list, _ := out[t].([]map[string]any)
				out[t] = append(list, item)
				n++
			}
		}
	}
	return out, faq, notes
}

// ldObjects flattens top-level arrays and @graph containers.
func ldObjects(v any, depth int) []map[string]any {
	if depth > 3 {
		return nil
	}
	switch x := v.(type) {
	case []any:
		var out []map[string]any
		for _, e := range x {
			out = append(out, ldObjects(e, depth+1)...)
		}
		return out
	case map[string]any:
		if g, ok := x["@graph"]; ok {
			return ldObjects(g, depth+1)
		}
		return []map[string]any{x}
	}
	return nil
}

func ldTypes(v any) []string {
	var out []string
	switch x := v.(type) {
	case string:
		out = append(out, strings.TrimPrefix(strings.TrimPrefix(x, "https://schema.org/"), "http://schema.org/"))
	case []any:
		for _, e := range x {
			out = append(out, ldTypes(e)...)
		}
	}
	return out
}

// ldItem keeps the whitelisted properties of obj as plain strings, lists of
// strings, or nested whitelisted objects.
func ldItem(obj map[string]any, props []string, depth int) map[string]any {
	item := map[string]any{}
	for _, p := range props {
		v, ok := obj[p]
		if !ok {
			continue
		}
		if val := ldValue(v, depth); val != nil {
			item[p] = val
		}
	}
	return item
}

func ldValue(v any, depth int) any {
	if depth > 3 {
		return nil
	}
	switch x := v.(type) {
	case string:
		s := plainText(x)
		if s == "" {
			return nil
		}
		return excerpt(s, 2000)
	case json.Number:
		return x.String()
	case bool:
		return fmt.Sprint(x)
	case []any:
		var out []any
		for _, e := range x {
			if val := ldValue(e, depth+1); val != nil {
				out = append(out, val)
			}
			if len(out) == 50 {
				break
			}
		}
		if len(out) == 0 {
			return nil
		}
		return out
	case map[string]any:
		types := ldTypes(x["@type"])
		for _, t := range types {
			if props, ok := schemaTypes[t]; ok {
				if item := ldItem(x, props, depth+1); len(item) > 0 {
					item["@type"] = t
					return item
				}
			}
		}
		if name, ok := x["name"].(string); ok {
			return plainText(name)
		}
	}
	return nil
}

func faqPairs(obj map[string]any) []FAQ {
	var out []FAQ
	for _, q := range ldObjects(obj["mainEntity"], 0) {
		if !slices.Contains(ldTypes(q["@type"]), "Question") {
			continue
		}
		name, _ := q["name"].(string)
		var answer string
		for _, a := range ldObjects(q["acceptedAnswer"], 0) {
			if t, ok := a["text"].(string); ok {
				answer = t
				break
			}
		}
		f := FAQ{Question: plainText(name), Answer: plainText(answer)}
		if f.Question != "" && f.Answer != "" {
			out = append(out, f)
		}
	}
	return out
}

// plainText strips markup from a JSON-LD string (answers often carry HTML)
// and normalises it.
func plainText(s string) string {
	if !strings.ContainsAny(s, "<&") {
		return strings.TrimSpace(textnorm.Text(s))
	}
	z := html.NewTokenizer(strings.NewReader(s))
	var b strings.Builder
	for {
		switch z.Next() {
		case html.ErrorToken:
			return strings.TrimSpace(textnorm.Text(b.String()))
		case html.TextToken:
			b.Write(z.Text())
		case html.StartTagToken, html.EndTagToken, html.SelfClosingTagToken:
			b.WriteByte(' ')
		}
	}
}
