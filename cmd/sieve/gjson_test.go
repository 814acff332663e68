package main

import "github.com/tidwall/gjson"

func gjsonGet(line, path string) string { return gjson.Get(line, path).String() }

func latentTexts(content string) []string {
	var out []string
	for _, l := range gjson.Get(content, "latent.#.text").Array() {
		out = append(out, l.String())
	}
	return out
}
