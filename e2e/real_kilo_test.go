package e2e

import "testing"

// Kilo CLI (npm @kilocode/cli 7.7.7), a fork of opencode, as measured
// here, headless (`kilo run PROMPT`) against fakeModel's chat
// completions, with its configuration in ~/.config/kilo/kilo.json:
//
//   - Plugins load as opencode's do, from ~/.config/kilo/plugin/ (or
//     plugins/, ~/.kilo/, ~/.kilocode/, a project's .kilo/ or .kilocode/;
//     .opencode/ is not read), with the same tool.execute.before: our
//     one plugin serves both, sending "client":"kilo". Its tools differ
//     somewhat (background_process runs a command; board_post,
//     schedule_wakeup, kilo_local_recall ...).
//   - tool.execute.after is opencode's, with the same arguments. Its
//     record of tool calls is SQLite too: $XDG_DATA_HOME/kilo/kilo.db
//     ($KILO_DB names another), table part, as opencode's.
//   - A thrown error stops the call and reaches the model verbatim, exit
//     0; a plugin that never returns hangs the run for good.
//   - Its own asks are auto-rejected headless as opencode's are, but the
//     run then exits 1 ("run ended with an auto-rejected permission; pass
//     --auto for autonomous use").
//   - At each start it tries to install @kilocode/plugin@7.7.7 from npm
//     into ~/.config/kilo (no such version exists: it fails and goes on),
//     unless node_modules/ and a package-lock.json listing it are there.
//   - --pure (KILO_PURE=1) loads no plugins. /etc/kilo holds only
//     kilo.json(c)/opencode.json(c), read last; it has no plugin folder.
//   - Each run takes 20-30 s here: it waits on telemetry and its model
//     list from the network, which is unreachable.
func TestRealKilo(t *testing.T) {
	testPluginAgent(t, pluginAgent{name: "kilo", rejectExit: 1, gate: "The user rejected permission to use this specific tool call."})
}
