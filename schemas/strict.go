package schemas

import (
	"strings"

	"github.com/sieve-dev/sieve/internal/record"
)

// The artifact-format schemas (every one but the EEF ethos-* schemas) ship
// open: ARTIFACT.md has a consumer ignore fields it does not recognise, so
// a 1.x artifact with a field added later still validates. What sieve
// writes is held to more: the producer variant closes them again, made
// here from the shipped files so the two cannot drift.
//
//   - Every object schema that lists properties (or patternProperties) and
//     says nothing about further members gets additionalProperties: false,
//     unless it only adds conditions to an object defined around it (if,
//     then, else, not, dependentSchemas, allOf, anyOf, oneOf), or it is a
//     body a root schema composes with $ref (manifest_body, graph_body):
//     the root closes those.
//   - A file's root gets unevaluatedProperties: false unless it is a
//     record (it has a "record" property), whose top level carries
//     passthrough fields such as a user's id.
//   - schema_version is pinned to the version sieve writes.
//
// The EEF schemas are closed as shipped (SPEC.md §8: unknown fields are
// rejected unless a schema allows them) and are left as they are.

// isArtifactFormat reports whether the schema file belongs to the artifact
// format rather than EEF.
func isArtifactFormat(file string) bool { return !strings.HasPrefix(file, "ethos-") }

// closeForProducer turns the shipped artifact-format schemas, keyed by file
// name, into their producer variant in place.
func closeForProducer(docs map[string]any) {
	defsDoc, _ := docs[defs+suffix].(map[string]any)
	defsMap, _ := defsDoc["$defs"].(map[string]any)
	bodies := map[string]bool{}
	for file, doc := range docs {
		if file != defs+suffix {
			markBodies(doc.(map[string]any), defsMap, bodies)
		}
	}
	for file, doc := range docs {
		root := doc.(map[string]any)
		closeObjects(root, false)
		if file == defs+suffix {
			continue
		}
		if props, _ := root["properties"].(map[string]any); props["record"] == nil {
			root["unevaluatedProperties"] = false
		}
	}
	for name, def := range defsMap {
		closeObjects(def, !bodies[name])
	}
	if v, ok := defsMap["schema_version"].(map[string]any); ok {
		defsMap["schema_version"] = map[string]any{"description": v["description"], "const": record.SchemaVersion}
	}
}

// markBodies records the $defs a schema composes at its own level ($ref
// beside its keywords, or in allOf), and theirs in turn.
func markBodies(s map[string]any, defsMap map[string]any, bodies map[string]bool) {
	refs := []any{s["$ref"]}
	if all, ok := s["allOf"].([]any); ok {
		for _, a := range all {
			if m, ok := a.(map[string]any); ok {
				refs = append(refs, m["$ref"])
			}
		}
	}
	for _, r := range refs {
		ref, _ := r.(string)
		_, name, ok := strings.Cut(ref, "#/$defs/")
		if !ok || bodies[name] || !(strings.HasPrefix(ref, "#") || strings.HasPrefix(ref, defs+suffix+"#")) {
			continue
		}
		bodies[name] = true
		if body, ok := defsMap[name].(map[string]any); ok {
			markBodies(body, defsMap, bodies)
		}
	}
}

// Keywords whose subschemas only add conditions to the object around them.
var (
	conditionOne  = []string{"if", "then", "else", "not"}
	conditionList = []string{"allOf", "anyOf", "oneOf"}
	// Keywords whose subschemas each describe a value of their own.
	valueOne  = []string{"items", "additionalProperties", "contains", "propertyNames", "unevaluatedItems"}
	valueMaps = []string{"properties", "patternProperties"}
)

// closeObjects closes v (when closeSelf) and every object schema below it
// that describes a value of its own. $defs are left to the caller, which
// knows the bodies.
func closeObjects(v any, closeSelf bool) {
	s, ok := v.(map[string]any)
	if !ok {
		return
	}
	_, hasProps := s["properties"]
	_, hasPatterns := s["patternProperties"]
	_, saysAdditional := s["additionalProperties"]
	_, saysUnevaluated := s["unevaluatedProperties"]
	if closeSelf && (hasProps || hasPatterns) && !saysAdditional && !saysUnevaluated {
		s["additionalProperties"] = false
	}
	for _, k := range conditionOne {
		closeObjects(s[k], false)
	}
	for _, k := range conditionList {
		list, _ := s[k].([]any)
		for _, sub := range list {
			closeObjects(sub, false)
		}
	}
	if deps, ok := s["dependentSchemas"].(map[string]any); ok {
		for _, sub := range deps {
			closeObjects(sub, false)
		}
	}
	for _, k := range valueOne {
		closeObjects(s[k], true)
	}
	if list, ok := s["prefixItems"].([]any); ok {
		for _, sub := range list {
			closeObjects(sub, true)
		}
	}
	for _, k := range valueMaps {
		m, _ := s[k].(map[string]any)
		for _, sub := range m {
			closeObjects(sub, true)
		}
	}
}
