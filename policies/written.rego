package agentjail

# What file tools write into files that something else runs or obeys
# later. The daemon computes the file a write leaves and lists, under
# input.agentjail.written, what it adds to each file of a kind below: the
# commands the new content runs that the old did not (each judged by the
# daemon as a Bash call of its own, so every shell rule applies; see
# daemon/policyset/written.go), the watched keys it adds, the lines it
# adds to instructions. Rows are data: a user's policy adds kinds of its own with
# `written_files_extra contains {...}` (they come after the pack's rows,
# and the first row whose pattern matches a path decides its kind). A
# row matches only the files its program runs or obeys: a README or
# notes beside hooks are prose, so hook folders match hook names and
# shell scripts, not *.md.
#
# Row fields (see internal/written.Row): kind, match (a regular expression
# on the path, ~ for the home folder), format (json yaml toml lines shell
# code text), commands (key paths, "/"-separated, * and ** as in globs),
# args (a sibling list appended to each command), lines (a pattern whose
# group 1 is a command), interpreter (code), watch ([{key, value, label}]),
# contained and rules (the rule id prefixes that count for commands run in
# a container or on a CI runner), asks (rule id prefixes whose deny of
# the row's commands is an ask instead), syntax (make, actions), auto (a
# new file runs by itself).

ci_rules := ["network.", "exfil.", "tokens.", "remote.", "env.", "secrets.", "priv.", "git.", "publish.", "infra.", "cloud.", "database.", "self."]

container_rules := ["network.", "exfil.", "tokens.", "remote."]

# Where a file's commands run somewhere else or later, fetching and
# running a program is often what the project wants (an installer's
# curl | sh in a Dockerfile or a setup script): a person decides.
# A payload decoded from bytes nobody can read, or a remote-access tool,
# is no installer: those stay refused.
elsewhere_asks := ["remote.download_to_shell", "remote.bare_address_to_shell", "remote.download_then_run", "remote.run_url", "remote.clone_then_run", "remote.unpacked_then_run", "remote.package_source", "remote.npx_unknown"]

# A project's own scripts run on this machine when someone runs them:
# what they send away, fetch and run, or print of tokens counts; what
# they build, delete or install in the project is their job. A deploy
# script's upload and its token in a request are asked about; a
# credential read sent away or a reverse shell is refused.
script_rules := ["network.", "exfil.", "tokens.", "remote.", "fs.rm_catastrophic", "fs.format_disk", "fs.wipe_disk", "fs.raw_disk", "system.fork_bomb", "system.miner"]

script_asks := array.concat(elsewhere_asks, ["network.secret_in_request", "network.expose_port", "network.serve_folder", "network.open_service", "network.push_url", "exfil.project_sent", "exfil.raw_upload", "exfil.bucket_copy", "exfil.new_remote_push", "tokens.print"])

# An image named by a registry at a bare IP address (FROM
# 203.0.113.10:5000/node, image: 198.51.100.4/app).
raw_registry_image := `^([0-9]{1,3}\.){3}[0-9]{1,3}(:[0-9]+)?/`

raw_registry_from := `(?i)^\s*FROM\s+(--\S+\s+)*([0-9]{1,3}\.){3}[0-9]{1,3}(:[0-9]+)?/`

# What makes a document's command a lure, not an installer: code piped
# from a bare address, a decoded payload run, fetched code run by an
# interpreter.
lure_rules := ["remote.bare_address_to_shell", "remote.decoded_to_shell", "remote.decoded_then_run", "code.decode_run", "code.fetch_run"]

# A package's maintainer scripts run as root when it is installed.
package_script_rules := array.concat(script_rules, ["persist.", "secrets."])

mcp_watch := [
	{"key": "mcpServers/*", "label": "mcp_server"},
	{"key": "servers/*", "label": "mcp_server"},
	{"key": "mcp/servers/*", "label": "mcp_server"},
	{"key": "context_servers/*", "label": "mcp_server"},
]

mcp_commands := ["mcpServers/*/command", "servers/*/command", "mcp/servers/*/command", "context_servers/*/command"]

written_files_pack := [
	{"kind": "npm_manifest", "match": `(^|/)package\.json$`, "format": "json", "commands": ["scripts/*"], "watch": [
		{"key": "scripts/preinstall", "label": "autorun"}, {"key": "scripts/install", "label": "autorun"},
		{"key": "scripts/postinstall", "label": "autorun"}, {"key": "scripts/prepare", "label": "autorun"},
		{"key": "scripts/preprepare", "label": "autorun"}, {"key": "scripts/postprepare", "label": "autorun"},
		{"key": "scripts/prepublish", "label": "autorun"}, {"key": "scripts/preuninstall", "label": "autorun"},
		{"key": "scripts/postuninstall", "label": "autorun"}, {"key": "scripts/dependencies", "label": "autorun"},
		{"key": "dependencies/*", "value": npm_remote_spec, "label": "package_source"},
		{"key": "devDependencies/*", "value": npm_remote_spec, "label": "package_source"},
		{"key": "optionalDependencies/*", "value": npm_remote_spec, "label": "package_source"},
		{"key": "overrides/*", "value": npm_remote_spec, "label": "package_source"},
		{"key": "resolutions/*", "value": npm_remote_spec, "label": "package_source"},
	]},
	{"kind": "composer_manifest", "match": `(^|/)composer\.json$`, "format": "json", "commands": ["scripts/*", "scripts/*/*"], "watch": [
		{"key": "scripts/pre-install-cmd", "label": "autorun"}, {"key": "scripts/post-install-cmd", "label": "autorun"},
		{"key": "scripts/pre-update-cmd", "label": "autorun"}, {"key": "scripts/post-update-cmd", "label": "autorun"},
		{"key": "scripts/post-autoload-dump", "label": "autorun"}, {"key": "scripts/post-root-package-install", "label": "autorun"},
		{"key": "scripts/post-create-project-cmd", "label": "autorun"},
	]},
	{"kind": "python_project", "match": `(^|/)pyproject\.toml$`, "format": "toml", "commands": ["tool/poe/tasks/*", "tool/poe/tasks/*/cmd", "tool/poe/tasks/*/shell", "tool/hatch/envs/*/scripts/*", "tool/pdm/scripts/*", "tool/pdm/scripts/*/cmd", "tool/pdm/scripts/*/shell"], "watch": [
		{"key": "tool/hatch/build/hooks/*", "label": "autorun"}, {"key": "tool/hatch/build/targets/*/hooks/*", "label": "autorun"},
		{"key": "tool/setuptools/cmdclass/*", "label": "autorun"}, {"key": "build-system/backend-path", "label": "autorun"},
		{"key": "tool/pdm/scripts/post_install", "label": "autorun"}, {"key": "tool/pdm/scripts/pre_install", "label": "autorun"},
	]},
	# Python runs each line of a .pth file that starts with import at
	# every start of the environment; a project's own .venv included.
	{"kind": "python_pth", "match": `(^|/)(site|dist)-packages/[^/]*\.pth$`, "format": "lines", "lines": `^(import[ \t].*)$`, "interpreter": "python3 -c"},
	{"kind": "python_code", "match": `(^|/)(setup|conftest|noxfile|tasks|fabfile|dodo)\.py$`, "format": "code", "interpreter": "python3 -c"},
	{"kind": "ruby_code", "match": `(^|/)(Rakefile|Gemfile|Guardfile|Vagrantfile|[^/]+\.gemspec|[^/]+\.rake)$`, "format": "code", "interpreter": "ruby -e"},
	{"kind": "node_code", "match": `(^|/)((jest|vitest|vite|webpack|rollup|babel|eslint|next|nuxt|svelte|astro|playwright|cypress|karma|tailwind|postcss|metro|tsup|esbuild)\.config|gulpfile|Gruntfile|\.eslintrc|\.mocharc|\.prettierrc|\.babelrc|\.pnpmfile)\.(c|m)?[jt]s$`, "format": "code", "interpreter": "node -e"},
	{"kind": "cargo_build_script", "match": `(^|/)build\.rs$`, "format": "lines", "auto": true, "lines": `Command::new\("(?:sh|bash|zsh)"\)\s*\.args?\(\s*(?:&?\[)?\s*"-c"\s*(?:,|\]?\s*\)\s*\.arg\()\s*"([^"]*)"`},
	{"kind": "cargo_config", "match": `(^|/)\.cargo/config(\.toml)?$`, "format": "toml", "commands": ["target/*/runner", "alias/*"], "watch": [
		{"key": "build/rustc-wrapper", "label": "autorun"}, {"key": "build/rustc", "label": "autorun"}, {"key": "target/*/runner", "label": "autorun"},
		{"key": "source/*/replace-with", "label": "package_source"}, {"key": "source/*/registry", "label": "package_source"},
		{"key": "registries/*/index", "label": "package_source"}, {"key": "http/check-revoke", "value": "^false$", "label": "package_source"},
	]},
	{"kind": "python_requirements", "match": `(^|/)(requirements[^/]*|constraints[^/]*)\.(txt|in)$`, "format": "lines", "lines": `[^\s\S]`, "watch": [{"value": `^\s*(-i|--index-url|--extra-index-url|--trusted-host|-f|--find-links)\b|^\s*(-e\s+)?(git\+|hg\+|svn\+|bzr\+|https?://)|\s@\s*(git\+|https?://)`, "label": "package_source"}]},
	{"kind": "cargo_manifest", "match": `(^|/)Cargo\.toml$`, "format": "toml", "watch": [
		{"key": "dependencies/*/git", "label": "package_source"}, {"key": "dev-dependencies/*/git", "label": "package_source"},
		{"key": "build-dependencies/*/git", "label": "package_source"}, {"key": "workspace/dependencies/*/git", "label": "package_source"},
		{"key": "patch/*/*/git", "label": "package_source"}, {"key": "target/*/dependencies/*/git", "label": "package_source"},
		{"key": "dependencies/*/registry-index", "label": "package_source"},
	]},
	{"kind": "go_module", "match": `(^|/)go\.mod$`, "format": "lines", "lines": `[^\s\S]`, "watch": [{"value": `^\s*(replace\s+)?\S+(\s+v\S+)?\s*=>\s*[a-z0-9-]+(\.[a-z0-9-]+)+/\S+`, "label": "package_source"}]},
	# The package managers' settings files: where packages come from, what
	# runs every script, which proxy and authorities their traffic uses.
	{"kind": "package_config", "match": package_config_files, "format": "lines", "lines": `[^\s\S]`, "watch": [
		{"value": package_setting, "label": "package_source"},
		{"value": `(?i)^\s*["']?(script-shell|shell|node-options|onload-script|init-module|nodeOptions|yarnPath)["']?\s*[:=]`, "label": "autorun"},
		{"value": `(?i)^\s*["']?(proxy|https?-proxy|httpProxy|httpsProxy|cafile|caFilePath|ca(\[\])?|cert|client-cert)["']?\s*[:=]`, "label": "reroute"},
	]},
	{"kind": "lockfile", "match": `(^|/)(package-lock\.json|npm-shrinkwrap\.json|yarn\.lock|pnpm-lock\.yaml|bun\.lock)$`, "format": "lines", "lines": `[^\s\S]`, "watch": [{"value": `^\s*"?(resolved|tarball)"?\s*[:=]?\s*"?(https?|git|file)[:+]`, "label": "lock_source"}]},
	{"kind": "makefile", "match": `(^|/)(GNUmakefile|makefile|Makefile|[^/]+\.mk)$`, "format": "lines", "lines": `^\t[@+-]*\s*(.+)$`, "syntax": "make"},
	{"kind": "justfile", "match": `(^|/)(\.?justfile|Justfile)$`, "format": "lines", "lines": `^(?:\t| {2,})[@-]*(.+)$`},
	{"kind": "taskfile", "match": `(^|/)Taskfile(\.dist)?\.ya?ml$`, "format": "yaml", "commands": ["tasks/*/cmds/*", "tasks/*/cmds/*/cmd", "tasks/*/cmd"]},
	{"kind": "github_workflow", "match": `(^|/)\.github/(workflows/[^/]+|actions/.+/action)\.ya?ml$`, "format": "yaml", "commands": ["jobs/*/steps/*/run", "runs/steps/*/run"], "syntax": "actions", "contained": true, "rules": ci_rules, "asks": elsewhere_asks, "watch": [
		{"key": "on/pull_request_target", "label": "ci_trigger"}, {"key": "on/workflow_run", "label": "ci_trigger"},
		{"key": "on/*", "value": "^(pull_request_target|workflow_run)$", "label": "ci_trigger"},
		{"key": "on", "value": "^(pull_request_target|workflow_run)$", "label": "ci_trigger"},
		{"key": "permissions", "value": "^write-all$", "label": "ci_trigger"},
		{"key": "jobs/*/permissions", "value": "^write-all$", "label": "ci_trigger"},
		{"key": "jobs/*/runs-on", "value": "self-hosted", "label": "ci_trigger"},
		{"key": "jobs/*/runs-on/*", "value": "self-hosted", "label": "ci_trigger"},
		{"key": "jobs/*/steps/*/uses", "value": ci_branch_ref, "label": "ci_unpinned"},
		{"key": "jobs/*/uses", "value": ci_branch_ref, "label": "ci_unpinned"},
		{"key": "runs/steps/*/uses", "value": ci_branch_ref, "label": "ci_unpinned"},
	]},
	{"kind": "gitlab_ci", "match": `(^|/)\.gitlab-ci\.ya?ml$`, "format": "yaml", "commands": ["**/script", "**/before_script", "**/after_script"], "contained": true, "rules": ci_rules, "asks": elsewhere_asks},
	{"kind": "circleci", "match": `(^|/)\.circleci/config\.ya?ml$`, "format": "yaml", "commands": ["**/run", "**/run/command"], "contained": true, "rules": ci_rules, "asks": elsewhere_asks},
	{"kind": "ci_pipeline", "match": `(^|/)(azure-pipelines\.ya?ml|bitbucket-pipelines\.ya?ml|\.travis\.ya?ml|\.drone\.ya?ml|\.buildkite/pipeline\.ya?ml|\.woodpecker\.ya?ml|appveyor\.ya?ml|cloudbuild\.ya?ml|buildspec\.ya?ml)$`, "format": "yaml", "commands": ["**/script", "**/bash", "**/commands", "**/command", "**/install", "**/before_install", "**/before_script", "**/after_success", "**/after_script", "**/build_script", "**/test_script", "**/args"], "contained": true, "rules": ci_rules, "asks": elsewhere_asks},
	{"kind": "jenkinsfile", "match": `(^|/)Jenkinsfile([.-][^/]*)?$`, "format": "lines", "lines": `\bsh\s*\(?\s*(?:script:\s*)?(?:'''|"""|'|")(.+?)(?:'''|"""|'|")`, "contained": true, "rules": ci_rules, "asks": elsewhere_asks},
	{"kind": "pre_commit", "match": `(^|/)\.pre-commit-config\.ya?ml$`, "format": "yaml", "commands": ["repos/*/hooks/*/entry"]},
	{"kind": "vscode_tasks", "match": `(^|/)\.vscode/tasks\.json$`, "format": "json", "commands": ["tasks/*/command"], "args": "args", "watch": [
		{"key": "tasks/*/runOptions/runOn", "value": "^folderOpen$", "label": "autorun"},
	]},
	{"kind": "vscode_settings", "match": `(^|/)(\.vscode/settings\.json|[^/]+\.code-workspace)$`, "format": "json", "watch": [
		{"key": "**/task.allowAutomaticTasks", "value": "^on$", "label": "autorun"},
		# Copilot's agent mode running every tool unasked.
		{"key": "**/chat.tools.autoApprove", "value": "^true$", "label": "agent_unguarded"},
		{"key": "**/chat.tools.global.autoApprove", "value": "^true$", "label": "agent_unguarded"},
		{"key": "**/security.workspace.trust.enabled", "value": "^false$", "label": "editor_exec"},
		{"key": "**/terminal.integrated.shell.*", "label": "editor_exec"},
		{"key": "**/terminal.integrated.shellArgs.*", "label": "editor_exec"},
		{"key": "**/terminal.integrated.profiles.*/*/path", "label": "editor_exec"},
		{"key": "**/terminal.integrated.profiles.*/*/args/*", "label": "editor_exec"},
		{"key": "**/terminal.integrated.automationProfile.*/path", "label": "editor_exec"},
		{"key": "**/terminal.integrated.env.*/*", "label": "env"},
		{"key": "**/claudeCode.environmentVariables/*/name", "label": "env"},
		{"key": "**/terminal.integrated.env.*/*", "value": "(?i)^(NODE_OPTIONS|LD_PRELOAD|DYLD_|PROMPT_COMMAND|BASH_ENV|ENV|PYTHONSTARTUP|PERL5OPT|RUBYOPT)", "label": "editor_exec"},
		{"key": "**/terminal.integrated.env.*/*", "value": "(?i)(curl|wget|\\bnc\\b|/tmp/|\\.sh\\b)", "label": "editor_exec"},
		{"key": "**/*.path", "value": "^(/tmp/|/var/tmp/|/dev/shm/|~/|\\$HOME|.*[;|&`]|.*\\b(curl|wget)\\b)", "label": "editor_exec"},
		{"key": "**/*Path", "value": "^(/tmp/|/var/tmp/|/dev/shm/|~/|\\$HOME|.*[;|&`]|.*\\b(curl|wget)\\b)", "label": "editor_exec"},
	]},
	{"kind": "idea_run_config", "match": `(^|/)\.idea/(runConfigurations/[^/]+|workspace|tasks)\.xml$`, "format": "lines", "lines": `name="(?:SCRIPT_TEXT|scriptText|SCRIPT_PATH|COMMAND)"\s+value="([^"]+)"`},
	{"kind": "git_hook", "match": `(^|/)\.git/hooks/[^/.]+$`, "format": "shell", "auto": true},
	{"kind": "hook_manager", "match": `(^|/)(\.husky|\.githooks|\.lefthook/[^/]+)/[^/._][^/.]*(\.(sh|bash|zsh|ksh|dash))?$`, "format": "shell"},
	{"kind": "lefthook", "match": `(^|/)\.?lefthook(-local)?\.ya?ml$`, "format": "yaml", "commands": ["*/commands/*/run", "*/scripts/*/runner"]},
	{"kind": "git_config", "match": `(^|/)\.git/config$`, "format": "lines", "lines": `^\s*(?:fsmonitor|sshCommand|pager|editor|askpass|gitProxy|clean|smudge|process|textconv|helper|hooksPath|external)\s*=\s*!?(.+)$|^\s*[A-Za-z0-9-]+\s*=\s*!(.+)$`, "watch": [
		# hooksPath inside the project (.githooks, .husky) points at hooks
		# whose writes are judged themselves (hook_manager); an alias runs
		# only when typed, and its command is judged above.
		{"value": `(?i)^\s*(fsmonitor|sshCommand|gitProxy|askpass|clean|smudge|process|textconv|external)\s*=|^\s*hooksPath\s*=\s*(/|~|\$|\.\./)`, "label": "autorun"},
	]},
	# The user's own git settings, read by every git command: judged on
	# what a write adds, as `git config --global` is (persist.git_config),
	# so an edit setting pull.rebase passes where an alias that runs a
	# shell command, a URL rewrite or a credential helper is asked about.
	{"kind": "git_global_config", "match": `^~/(\.gitconfig|\.config/git/config)$`, "format": "lines", "lines": `^\s*(?:\[[^\]]*\]\s*)?(?:fsmonitor|sshCommand|pager|editor|askpass|gitProxy|clean|smudge|process|textconv|helper|hooksPath|command|driver|program|external)\s*=\s*!?(.+)$|^\s*(?:\[[^\]]*\]\s*)?[A-Za-z0-9-]+\s*=\s*!(.+)$`, "watch": [
		{"value": `(?i)^\s*(?:\[[^\]]*\]\s*)?(hooksPath|fsmonitor|sshCommand|pager|editor|askpass|gitProxy|insteadOf|pushInsteadOf|helper|clean|smudge|process|textconv|command|driver|program|proxy|templateDir|path|external)\s*=|^\s*(?:\[[^\]]*\]\s*)?[A-Za-z0-9-]+\s*=\s*!`, "label": "git_code"},
	]},
	# The project's tool shims, run by every npm script, virtualenv or
	# composer command that names the tool (ATT&CK T1574).
	{"kind": "tool_shim", "match": `(^|/)(node_modules/\.bin|\.venv/bin|venv/bin|vendor/bin)/[^/]+$`, "format": "shell"},
	{"kind": "direnv", "match": `(^|/)\.envrc$`, "format": "shell"},
	# mise: [env] sets variables for every command run in the folder,
	# _.source runs a script; tasks' run lines are commands.
	{"kind": "mise", "match": `(^|/)(\.?mise(\.local)?\.toml|\.mise/config\.toml|\.config/mise/config\.toml)$`, "format": "toml", "commands": ["tasks/*/run"], "watch": [
		{"key": "env/*", "label": "env"},
		{"key": "env/_/source", "label": "autorun"},
	]},
	{"kind": "shell_startup", "match": `^~/\.(bashrc|bash_profile|bash_login|bash_logout|profile|zshrc|zshenv|zprofile|zlogin|zlogout|kshrc|mkshrc)$`, "format": "shell"},
	{"kind": "container_build", "match": `(^|/)([^/]*\.)?(Dockerfile|Containerfile)(\.[^/]+)?$`, "format": "lines", "lines": `^\s*RUN\s+(?:--\S+\s+)*(.+)$`, "contained": true, "rules": container_rules, "asks": elsewhere_asks, "watch": [
		# A base image from a registry at a bare address: nobody's
		# registry the project knows, serving what it likes.
		{"value": raw_registry_from, "label": "package_source"},
	]},
	{"kind": "compose", "match": `(^|/)(docker-)?compose(\.[^/]+)?\.ya?ml$`, "format": "yaml", "commands": ["services/*/command", "services/*/entrypoint"], "contained": true, "rules": container_rules, "asks": elsewhere_asks, "watch": [
		{"key": "services/*/image", "value": raw_registry_image, "label": "package_source"},
		{"key": "services/*/privileged", "value": "^true$", "label": "privileged"},
		{"key": "services/*/cap_add/*", "value": "(?i)^(CAP_)?(ALL|SYS_ADMIN|SYS_PTRACE|SYS_MODULE|NET_ADMIN|DAC_READ_SEARCH|SYS_RAWIO|BPF)$", "label": "privileged"},
		{"key": "services/*/security_opt/*", "value": "unconfined|no-new-privileges[:=]false", "label": "privileged"},
		{"key": "services/*/devices/*", "label": "privileged"},
		{"key": "services/*/pid", "value": "^host$", "label": "privileged"},
		{"key": "services/*/ipc", "value": "^host$", "label": "privileged"},
		{"key": "services/*/userns_mode", "value": "^host$", "label": "privileged"},
		{"key": "services/*/network_mode", "value": "^host$", "label": "privileged"},
		{"key": "services/*/volumes/*", "value": host_mount_pattern, "label": "privileged"},
		{"key": "services/*/volumes/*/source", "value": host_mount_source, "label": "privileged"},
	]},
	{"kind": "devcontainer", "match": `(^|/)\.devcontainer(/[^/]+)?/devcontainer\.json$|(^|/)\.devcontainer\.json$`, "format": "json", "commands": ["initializeCommand", "onCreateCommand", "updateContentCommand", "postCreateCommand", "postStartCommand", "postAttachCommand", "initializeCommand/*", "onCreateCommand/*", "postCreateCommand/*", "postStartCommand/*", "postAttachCommand/*"], "watch": [
		{"key": "runArgs/*", "value": "^--(privileged|pid=host|network=host|cap-add=(ALL|SYS_ADMIN))", "label": "privileged"},
		{"key": "privileged", "value": "^true$", "label": "privileged"},
		{"key": "mounts/*", "value": "source=(/|/var/run/docker\\.sock|\\$\\{localEnv:HOME\\}(/\\.(ssh|aws|kube|gnupg|docker|config))?)(,|$)", "label": "privileged"},
	]},
	{"kind": "claude_settings", "match": `(^|/)\.claude/settings(\.local)?\.json$`, "format": "json", "commands": ["hooks/*/*/hooks/*/command", "statusLine/command", "apiKeyHelper", "awsAuthRefresh", "awsCredentialExport", "otelHeadersHelper"], "watch": [
		{"key": "enableAllProjectMcpServers", "value": "^true$", "label": "mcp_server"},
		{"key": "enabledMcpjsonServers/*", "label": "mcp_server"},
		{"key": "permissions/defaultMode", "value": "^bypassPermissions$", "label": "agent_unguarded"},
		{"key": "permissions/allow/*", "value": "^(Bash|Bash\\(\\*\\)|Bash\\(:\\*\\)|mcp__.*|WebFetch|Write|Edit)$", "label": "agent_unguarded"},
	]},
	{"kind": "mcp_config", "match": `(^|/)(\.mcp\.json|\.cursor/mcp\.json|\.vscode/mcp\.json|\.roo/mcp\.json|\.amazonq/mcp\.json|\.kiro/settings/mcp\.json|mcp_config\.json|claude_desktop_config\.json|\.gemini/settings\.json|\.zed/settings\.json)$|^~/\.claude\.json$`, "format": "json", "commands": array.concat(mcp_commands, ["tools/discoveryCommand", "tools/callCommand"]), "args": "args", "watch": array.concat(mcp_watch, [{"key": "tools/discoveryCommand", "label": "autorun"}, {"key": "tools/callCommand", "label": "autorun"}])},
	# opencode's and Kilo's settings: formatters and MCP servers are
	# programs they start, plugins code they load.
	{"kind": "agent_plugin_config", "match": `(^|/)(opencode|kilo)\.jsonc?$|^~/\.config/(opencode|kilo)/[^/]+\.jsonc?$`, "format": "json", "commands": ["formatter/*/command", "mcp/*/command", "lsp/*/command"], "watch": [
		{"key": "formatter/*", "label": "autorun"},
		{"key": "lsp/*", "label": "autorun"},
		{"key": "mcp/*", "label": "mcp_server"},
		{"key": "plugin/*", "label": "autorun"},
	]},
	{"kind": "codex_config", "match": `(^|/)\.codex/config\.toml$`, "format": "toml", "commands": ["mcp_servers/*/command"], "args": "args", "watch": [
		{"key": "mcp_servers/*", "label": "mcp_server"},
		{"key": "sandbox_mode", "value": "^danger-full-access$", "label": "agent_unguarded"},
		{"key": "approval_policy", "value": "^never$", "label": "agent_unguarded"},
	]},
	{"kind": "aider_config", "match": `(^|/)\.aider\.conf\.ya?ml$`, "format": "yaml", "watch": [
		{"key": "yes-always", "value": "^true$", "label": "agent_unguarded"},
	]},
	# Kubernetes manifests: a pod with the node's privileges, namespaces
	# or root folder is the node (ATT&CK T1611).
	{"kind": "k8s_manifest", "match": `(^|/)(k8s|kube|kubernetes|manifests|deploy|charts/[^/]+/templates)/.+\.ya?ml$|(^|/)[^/]*(pod|deployment|daemonset|statefulset|cronjob|job)[^/]*\.ya?ml$`, "format": "yaml", "watch": [
		{"key": "**/securityContext/privileged", "value": "^true$", "label": "privileged"},
		{"key": "**/securityContext/allowPrivilegeEscalation", "value": "^true$", "label": "privileged"},
		{"key": "**/hostPID", "value": "^true$", "label": "privileged"},
		{"key": "**/hostIPC", "value": "^true$", "label": "privileged"},
		{"key": "**/hostNetwork", "value": "^true$", "label": "privileged"},
		{"key": "**/hostPath/path", "value": host_mount_source, "label": "privileged"},
		{"key": "**/capabilities/add/*", "value": "(?i)^(CAP_)?(ALL|SYS_ADMIN|SYS_PTRACE|SYS_MODULE|DAC_READ_SEARCH|SYS_RAWIO|BPF)$", "label": "privileged"},
	]},
	# Debian maintainer scripts, run as root by dpkg (ATT&CK T1546.016).
	{"kind": "package_script", "match": `(^|/)(DEBIAN|debian)/([^/]+\.)?(preinst|postinst|prerm|postrm|config)$`, "format": "shell", "rules": package_script_rules, "asks": elsewhere_asks},
	# The project's own scripts, run by whoever runs them next.
	{"kind": "project_script", "match": `\.(sh|bash|zsh|ksh|command|run)$|(^|/)(scripts|bin|script|tools)/[^/.]+$`, "format": "shell", "rules": script_rules, "asks": script_asks},
	{"kind": "agent_instructions", "match": `(^|/)((CLAUDE|AGENTS|GEMINI|CLAUDE\.local|AGENT|CONVENTIONS)\.md|\.cursorrules|\.windsurfrules|\.clinerules(/.+)?|\.cursor/rules/.+|\.github/copilot-instructions\.md|\.github/instructions/.+\.md|\.github/prompts/.+\.md|\.claude/(commands|agents|skills)/.+\.md|\.gemini/commands/.+\.toml|\.codex/prompts/.+\.md)$`, "format": "text"},
	# Documents people follow: a command they are told to paste runs as
	# theirs (T1204). Installers piped from named hosts are everyday in a
	# README; code from a bare address or a decoded payload is the lure.
	{"kind": "user_docs", "match": `(?i)(^|/)(README|INSTALL|INSTALLING|SETUP|CONTRIBUTING|TROUBLESHOOTING|GETTING[-_]STARTED|QUICKSTART|USAGE|HACKING|BUILDING|FAQ)([-_.][^/]*)?\.(md|markdown|mdx|rst|txt)$|(^|/)docs?/.+\.(md|markdown|mdx|rst)$`, "format": "text", "rules": lure_rules, "asks": lure_rules},
	# A launcher (.desktop) runs its Exec= line when opened, from the
	# desktop, a file manager or a share, named as it likes
	# ("Q3 Bonus.pdf").
	{"kind": "desktop_entry", "match": `\.desktop$`, "format": "lines", "lines": `^\s*(?:Try)?Exec\s*=\s*(.+)$`, "asks": elsewhere_asks},
]

# written_files is the table the daemon reads (data.agentjail.written_files):
# the pack's rows, then the rows users add to written_files_extra.
written_files := array.concat(written_files_pack, [r | some r in data.agentjail.written_files_extra])

# A compose volume whose host side is the root, the home folder, a system
# folder, a folder of credentials or the container engine's socket.
host_mount_pattern := `^(/|/etc|/root|/home|/Users|/var|/proc|/sys|/dev|/boot|/var/run/docker\.sock|/run/docker\.sock|/run/podman/podman\.sock|~|\$HOME|\$\{HOME\}|(~|\$HOME|\$\{HOME\})/\.(ssh|aws|kube|gnupg|docker|config|azure|gcloud)[^:]*)(:|$)`

host_mount_source := `^(/|/etc|/root|/home|/Users|/var|/proc|/sys|/dev|/var/run/docker\.sock|/run/docker\.sock|~|\$HOME|(~|\$HOME)/\.(ssh|aws|kube|gnupg|docker|config)[^:]*)$`

written := object.get(derived, "written", [])

written_label(label) := [[f, a] |
	some f in written
	some a in f.added
	a.label == label
]

ask contains {"id": "written.autorun", "msg": msg} if {
	input.agentjail.written[0]
	some [f, a] in written_label("autorun")
	not known_install_script(f.kind, a)
	not plain_ssh_command(f.kind, a)
	msg := sprintf("%s: `%s` makes the file run code by itself (on install, on opening the folder, on every build) where it did not before; the user has to approve it.", [pretty(f.path), a.key])
}

ask contains {"id": "written.autorun", "msg": msg} if {
	input.agentjail.written[0]
	some f in written
	f.auto
	msg := sprintf("%s is a new %s, which runs by itself (on every commit or build); the user has to approve it.", [pretty(f.path), replace(f.kind, "_", " ")])
}

ask contains {"id": "persist.git_config", "msg": msg} if {
	input.agentjail.written[0]
	some [f, a] in written_label("git_code")
	not plain_ssh_command("git_config", a)
	msg := sprintf("%s: `%s` makes git run a command or fetch from another address; the user has to approve it.", [pretty(f.path), trim_space(a.key)])
}

# core.sshCommand set to ssh itself with a key, a port or a known-hosts
# choice (ssh -i ~/.ssh/id_work) runs what git runs anyway for an ssh
# remote; options that run a command of their own (ProxyCommand,
# LocalCommand, another config file) keep the ask.
plain_ssh_command(kind, a) if {
	kind == "git_config"
	regex.match(`(?i)^\s*sshCommand\s*=\s*ssh(\s+-[46AaCgKkMNnqsTtVvXxYy]+|\s+-[ilpJ]\s*[^\s;|&$\x60<>()'"]+|\s+-o\s*(IdentitiesOnly|IdentityFile|IdentityAgent|StrictHostKeyChecking|UserKnownHostsFile|Port|User|ConnectTimeout|ServerAliveInterval|BatchMode|AddKeysToAgent)[= ][^\s;|&$\x60<>()'"]+)*\s*$`, a.key)
}

ask contains {"id": "written.reroute", "msg": msg} if {
	input.agentjail.written[0]
	some [f, a] in written_label("reroute")
	msg := sprintf("%s: `%s` sends the tool's traffic through another host, or makes it trust another certificate authority; the user has to approve it.", [pretty(f.path), trim_space(a.key)])
}

ask contains {"id": "written.mcp_server", "msg": msg} if {
	input.agentjail.written[0]
	some [f, a] in written_label("mcp_server")
	not project_own_servers(f)
	msg := sprintf("%s: `%s` adds an MCP server, a program an agent starts and whose tools it then calls; the user has to approve it.", [pretty(f.path), a.key])
}

deny contains {"id": "written.agent_unguarded", "msg": msg} if {
	input.agentjail.written[0]
	some [f, a] in written_label("agent_unguarded")
	msg := sprintf("Blocked: %s: `%s = %s` lets an agent run tools without the user's approval. Ask the user to change their agent's permissions themselves.", [pretty(f.path), a.key, a.value])
}

ask contains {"id": "written.privileged", "msg": msg} if {
	input.agentjail.written[0]
	some [f, a] in written_label("privileged")
	msg := sprintf("%s: `%s: %s` gives a container this machine's privileges, devices or files (the root, the home folder, credentials or the engine's socket); the user has to approve it.", [pretty(f.path), a.key, a.value])
}

ask contains {"id": "written.editor_exec", "msg": msg} if {
	input.agentjail.written[0]
	some [f, a] in written_label("editor_exec")
	msg := sprintf("%s: `%s` changes what the editor runs for the user (shell, interpreter, environment, workspace trust); the user has to approve it.", [pretty(f.path), a.key])
}

ask contains {"id": "written.ci_trigger", "msg": msg} if {
	input.agentjail.written[0]
	some [f, a] in written_label("ci_trigger")
	msg := sprintf("%s: `%s` runs the workflow with write access or secrets for code from others, or on a self-hosted machine; the user has to approve it.", [pretty(f.path), a.key])
}

# Secrets of a CI run printed so the log's masking does not hide them, or
# all of them at once.
ci_secret_dump := `(?i)toJSON\(\s*secrets\s*\)|secrets\.[A-Za-z0-9_]+\s*\}\}[^\n]*\|\s*(base64|xxd|od|rev|hexdump|sed|tr|cut|fold)\b|(echo|printf)[^\n|]*\$\{\{\s*secrets\.[^\n]*\|\s*(base64|xxd|od|rev|hexdump|sed|tr|cut|fold)\b`

deny contains {"id": "written.ci_secrets", "msg": msg} if {
	input.agentjail.written[0]
	some f in written
	f.contained
	some c in f.commands
	regex.match(ci_secret_dump, c)
	msg := sprintf("Blocked: %s would print the CI run's secrets in a form the log does not mask (`%s`). Pass a secret only to the step that needs it, through env:.", [pretty(f.path), c])
}

ask contains {"id": "written.ci_secrets", "msg": msg} if {
	input.agentjail.written[0]
	some f in written
	f.contained
	some c in f.commands
	not regex.match(ci_secret_dump, c)
	regex.match(`(?i)\b(echo|printf|cat)\b[^\n|>]*\$\{\{\s*secrets\.`, c)
	msg := sprintf("%s would print a CI secret into the run's log (`%s`); the user has to approve it.", [pretty(f.path), c])
}

# Instructions an agent obeys: text that tells it to drop its guard, hide
# what it does or send data away.
injection_pattern := `(?i)(ignore|disregard|forget|override)\s+(all\s+|any\s+)?(the\s+)?(previous|prior|above|earlier|system|safety|security|user'?s?)\s+(instructions|rules|prompts?|guidelines|restrictions)|do\s+not\s+(ask|wait)\s+(the\s+user\s+)?(for\s+)?(permission|approval|confirmation)|without\s+(asking|telling|informing|notifying)\s+the\s+user|(don't|do\s+not|never)\s+(tell|inform|mention\s+(this\s+)?to|notify)\s+the\s+user|(don't|do\s+not|never)\s+(mention|reveal|report|disclose|show)\s+(this|these|that|it|them|anything)(\s+[a-z]+){0,2}\s+to\s+the\s+user|(paste|include|put|copy|print|post|add)\s+(the\s+)?(contents?\s+of\s+)?(\.env\b|secrets?|tokens?|credentials|api[ _-]?keys?|passwords?)[^.]{0,40}\b(into|in|to)\s+(the\s+)?(pr|pull\s+request|issue|comment|description|commit\s+message|logs?)\b|dangerously-skip-permissions|--yolo\b|bypass(Permissions|\s+(the\s+)?(hook|guard|agentjail|sandbox|permission))|\b(disable|turn\s+off|stop|kill|uninstall|remove)\s+(the\s+)?(agentjail|hooks?\b|pre-?tool-?use|guard)|(send|post|upload|exfiltrate|forward)\s+.{0,60}(\b(secrets?|tokens?|credentials|api[ _-]?keys?|ssh\s+keys?|environment\s+variables)\b|\.env\b).{0,40}\b(to|at)\s+(https?://|\S+\.(com|net|io|xyz|site|example))`

ask contains {"id": "written.instructions", "msg": msg} if {
	input.agentjail.written[0]
	some f in written
	f.kind == "agent_instructions"
	some line in f.text
	regex.match(injection_pattern, line)
	msg := sprintf("%s is read by coding agents as instructions, and this adds one that tells them to drop their guard, hide what they do or send data away (`%s`); the user has to approve it.", [pretty(f.path), line])
}

ask contains {"id": "written.unchecked", "msg": msg} if {
	input.agentjail.written[0]
	some f in written
	f.problem != ""
	msg := sprintf("%s is a %s that something runs later, and this call would %s; the user has to approve it.", [pretty(f.path), replace(f.kind, "_", " "), f.problem])
}

ask contains {"id": "written.unchecked", "msg": msg} if {
	input.agentjail.written[0]
	some f in written
	f.truncated
	msg := sprintf("%s is a %s that something runs later, and this call adds more commands than agentjail checks at once; the user has to approve it.", [pretty(f.path), replace(f.kind, "_", " ")])
}

ask contains {"id": "written.unchecked", "msg": msg} if {
	input.agentjail.written[0]
	n := sum([count(f.commands) | some f in written])
	n > 64
	msg := sprintf("This call adds %d commands to files that run later, more than the 64 agentjail judges in one call; the user has to approve it.", [n])
}
