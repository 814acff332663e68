package record

// Statuses are the outcome statuses, a closed set (ARTIFACT.md "Read
// outcome first"), in the order the docs list them: the one list --fail-on,
// the views and the MCP tool text read. graph's Status constants, render's
// meanings and the schemas' enum are held to it by tests.
var Statuses = []string{"ok", "blocked", "challenge", "auth_required", "spa_shell", "empty_after_render", "partial"}
