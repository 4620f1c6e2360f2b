package agentconfig

import "slices"

// GeminiSettings reports whether path is Gemini CLI's ~/.gemini/settings.json.
func GeminiSettings(path, home string) bool {
	return slices.Contains([]string{".gemini/settings.json"}, homeRel(path, home))
}

// judgeGemini keeps the rule that holds until agentjail installs its hook
// here: a file that runs agentjail-hook must keep naming it.
func judgeGemini(cur, res []byte) string { return keepsHookName(cur, res) }
