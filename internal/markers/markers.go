// Package markers holds the page facts more than one stage looks for, so
// that capture's tier decision and graph's outcome agree on them.
package markers

// MountIDs are the element ids single-page-application frameworks mount
// into; an empty one in served HTML marks an unhydrated shell.
var MountIDs = map[string]bool{
	"root": true, "app": true, "__next": true, "__nuxt": true,
	"___gatsby": true, "svelte": true, "main-app": true, "app-root": true,
}
