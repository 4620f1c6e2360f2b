package agentjail

# Persistence beyond shell start-up files: programs planted where the
# user's shell finds them first, files interpreters and tools run by
# themselves, git settings that run code, login items, keys, and package
# registry swaps.

# Folders on the user's PATH, ahead of the system's.
user_bin_dirs := {"bin", ".local/bin", ".bin", "go/bin", ".cargo/bin", ".npm-global/bin", ".yarn/bin", ".deno/bin", ".bun/bin", ".volta/bin", ".pyenv/shims", ".rbenv/shims", ".asdf/shims", ".nix-profile/bin", "Library/pnpm"}

# Commands an agent or the user runs all the time: a file of that name in
# a user bin folder shadows the real one.
shadowed_commands := {
	"ls", "cat", "cp", "mv", "rm", "cd", "sudo", "su", "doas", "git", "gh", "ssh", "scp", "python", "python3", "pip", "pip3",
	"node", "npm", "npx", "yarn", "pnpm", "bun", "deno", "go", "cargo", "rustc", "make", "bash", "sh", "zsh", "env",
	"which", "ps", "grep", "sed", "awk", "find", "curl", "wget", "docker", "kubectl", "aws", "gcloud", "az", "terraform",
	"java", "ruby", "gem", "bundle", "code", "vim", "nvim", "nano", "less", "more", "man", "open", "xdg-open", "gpg",
	"ssh-add", "ssh-agent", "tar", "head", "tail", "chmod", "chown", "kill", "pkill", "id", "whoami", "agentjail",
	"agentjail-hook", "claude", "codex", "gemini", "passwd", "login", "uv", "poetry", "pytest", "tmux", "screen",
}

# planted(p) is the command name a write plants in a user bin folder.
planted contains [p, name] if {
	input.agentjail.writes[0]
	some p in writes
	rel := home_rel(p)
	some d in user_bin_dirs
	startswith(rel, concat("", [d, "/"]))
	name := base_name(p)
}

# cp/ln/install/mv X ~/.local/bin/: the file keeps its source's name.
planted contains [p, name] if {
	input.agentjail.writes[0]
	some p in writes
	rel := home_rel(p)
	rel in user_bin_dirs
	some cmd in commands
	p in cmd.paths
	some src in cmd.paths
	src != p
	name := base_name(src)
}

deny contains {"id": "persist.path_hijack", "msg": msg} if {
	input.agentjail.writes[0]
	some [p, name] in planted
	name in shadowed_commands
	not links_system_version(p)
	msg := sprintf("Blocked: %s would run instead of the real `%s` every time it is called. Call the program by its full path or give it a name of its own.", [pretty(p), name])
}

ask contains {"id": "persist.user_bin", "msg": msg} if {
	input.agentjail.writes[0]
	some [p, name] in planted
	not name in shadowed_commands
	msg := sprintf("%s puts a program on the user's PATH; the user has to approve it.", [pretty(p)])
}

# ln -s TARGET ~/.local/bin/x: ln's destination is not always a write.
deny contains {"id": "persist.path_hijack", "msg": msg} if {
	"ln" in input.agentjail.names
	some cmd in commands
	cmd.name == "ln"
	count(cmd.paths) > 1
	p := cmd.paths[count(cmd.paths) - 1]
	rel := home_rel(p)
	some d in user_bin_dirs
	startswith(rel, concat("", [d, "/"]))
	base_name(p) in shadowed_commands
	not links_system_version(p)
	msg := sprintf("Blocked: %s would run instead of the real `%s` every time it is called.", [pretty(p), base_name(p)])
}

# ln -s /usr/bin/python3.12 ~/.local/bin/python picks which installed
# version a name runs: the target is a system program of that name, so
# nothing the agent wrote runs. A different program under the name (a
# python3 linked as git reads the arguments as a script) stays a hijack.
system_bin_dirs := {"/usr/bin", "/bin", "/usr/sbin", "/sbin", "/usr/local/bin", "/opt/homebrew/bin", "/usr/libexec"}

links_system_version(p) if {
	some cmd in commands
	cmd.name == "ln"
	count(cmd.paths) == 2
	cmd.paths[1] == p
	src := cmd.paths[0]
	parent_dir(src) in system_bin_dirs
	startswith(base_name(src), base_name(p))
}

# Files that interpreters and tools load and run by themselves, or that
# change where their packages come from.
autorun_pattern := `(^|/)(site|dist)-packages/[^/]*\.pth$|(^|/)(sitecustomize|usercustomize)\.py$`

autorun_home_pattern := `^(\.ipython/profile_[^/]+/(startup/.*|ipython_config\.py)|\.pythonrc(\.py)?|\.irbrc|\.pryrc|\.psqlrc|\.sqliterc|\.gdbinit|\.lldbinit|\.vimrc|\.exrc|\.config/nvim/(init\.(vim|lua)|plugin/.*)|\.emacs|\.emacs\.d/init\.el|\.tmux\.conf|\.screenrc|\.wgetrc|\.curlrc|\.gitconfig|\.config/git/(config|attributes)|\.yarnrc|\.yarnrc\.yml|\.pip/pip\.conf|\.config/pip/pip\.conf|\.pydistutils\.cfg|\.cargo/config(\.toml)?|\.m2/settings\.xml|\.gradle/init\.d/.*|\.gradle/init\.gradle|\.bundle/config|\.gemrc|\.condarc|\.config/uv/uv\.toml|\.config/autostart(/.*)?|\.(vscode|vscode-insiders|vscode-oss|vscode-server|cursor|windsurf|positron)/extensions(/.*)?|Library/LaunchAgents(/.*)?|Library/Application Support/com\.apple\.backgroundtaskmanagementagent/.*|\.config/systemd/user(/.*)?|\.config/environment\.d/.*|\.pam_environment|\.xprofile|\.xsessionrc|\.xinitrc)$`

# The Python rules start with the file name's end, which OPA's rule index
# answers for every write without entering the rule.
deny contains {"id": "persist.python_startup", "msg": msg} if {
	strings.any_suffix_match(input.agentjail.writes, ".pth")
	some p in writes
	regex.match(`(^|/)(site|dist)-packages/[^/]*\.pth$`, p)
	not in_project(p)
	msg := sprintf("Blocked: %s runs its import lines at every Python start. Install packages with pip instead.", [pretty(p)])
}

ask contains {"id": "persist.python_startup", "msg": msg} if {
	strings.any_suffix_match(input.agentjail.writes, ["sitecustomize.py", "usercustomize.py"])
	some p in writes
	regex.match(`(^|/)(sitecustomize|usercustomize)\.py$`, p)
	msg := sprintf("%s runs at every Python start; the user has to approve it.", [pretty(p)])
}

ask contains {"id": "persist.tool_startup", "msg": msg} if {
	input.agentjail.writes[0]
	some p in writes
	regex.match(autorun_home_pattern, home_rel(p))
	not judged_on_content(p)
	msg := sprintf("%s is read by a tool every time it starts (and can run code or change where packages come from); the user has to approve changing it.", [pretty(p)])
}

# judged_on_content(p): the written table read what the call leaves in
# p whole (a user's ~/.gitconfig): what it adds is judged there, not the
# file's name.
judged_on_content(p) if {
	some f in input.agentjail.written
	f.path == p
	f.kind in {"git_global_config"}
	f.problem == ""
	not f.truncated
}

# Hooks of other repositories run at their next commit, checkout or push.
ask contains {"id": "persist.git_hooks", "msg": msg} if {
	input.agentjail.writes[0]
	some p in writes
	contains(p, "/.git/hooks/")
	not in_project(p)
	msg := sprintf("%s is a git hook of another repository; it runs whenever that repository is used. The user has to approve it.", [pretty(p)])
}

# git config keys whose values are commands git runs.
git_code_keys := `(?i)^(core\.(hookspath|fsmonitor|sshcommand|pager|editor|askpass|gitproxy)|alias\..+|url\..+\.(insteadof|pushinsteadof)|credential(\..+)?\.helper|filter\..+\.(clean|smudge|process)|diff\.external|diff\..+\.(textconv|command)|merge\..+\.driver|sequence\.editor|gpg\.(program|.+\.program)|http\.proxy|https?\..*\.proxy|init\.templatedir|include\.path|includeif\..+\.path)$`

ask contains {"id": "persist.git_config", "msg": msg} if {
	"git" in input.agentjail.names
	some cmd in commands
	"config" in cmd.args # before git_words, which costs every git command its positional words
	words := git_words(cmd)
	words[0] == "config"
	count(words) > 2
	has_flag(cmd, {"global", "system", "file", "f"}) # the project's own config is the project's business
	not has_flag(cmd, {"get", "get-all", "get-regexp", "list", "l", "unset", "unset-all", "show-origin"})
	regex.match(git_code_keys, words[1])
	git_code_value(words[1], words[2])
	msg := sprintf("`git config %s` makes git run a command or fetch from another address; the user has to approve it.", [words[1]])
}

# An alias only runs a shell command when it starts with "!".
git_code_value(key, value) if {
	regex.match(`(?i)^alias\.`, key)
	startswith(value, "!")
}

git_code_value(key, value) if {
	not regex.match(`(?i)^alias\.`, key)
	not same_host_rewrite(key, value)
}

# url.git@github.com:.insteadOf https://github.com/ only switches the
# protocol to the same host (ssh for https): code still comes from there.
same_host_rewrite(key, value) if {
	regex.match(`(?i)^url\..+\.(insteadof|pushinsteadof)$`, key)
	target := regex.replace(key, `(?i)^url\.(.+)\.(insteadof|pushinsteadof)$`, "$1")
	git_url_host(target) == git_url_host(value)
}

git_url_host(u) := lower(regex.replace(u, `^([A-Za-z+]+://)?([^@/]+@)?([^:/]+).*$`, "$3"))

scheduler_programs := {"systemd-run", "osascript", "defaults"}

program_group contains [prog, "schedule"] if some prog in scheduler_programs

ask contains {"id": "persist.scheduled", "msg": msg} if {
	"schedule" in input.agentjail.kinds
	some cmd in commands
	schedules(cmd)
	msg := sprintf("`%s` makes a program start by itself (a timer, a login item or a transient service); the user has to approve it.", [full_text(cmd)])
}

# systemd-run starts a transient service or a timer, unless it runs the
# command in the foreground and ends with it (--scope, --wait, --pty):
# `systemd-run --user --scope make` is make with a memory limit. A timer
# (--on-calendar ...) makes it start later all the same.
schedules(cmd) if {
	cmd.name == "systemd-run"
	not runs_in_foreground(cmd)
}

schedules(cmd) if {
	cmd.name == "systemd-run"
	some a in cmd.args
	startswith(a, "--on-")
}

runs_in_foreground(cmd) if has_flag(cmd, {"scope", "wait", "pty", "t", "pipe", "P", "shell", "S"})

schedules(cmd) if {
	cmd.name == "osascript"
	some a in cmd.args
	regex.match(`(?i)login item`, a)
	regex.match(`(?i)\b(make|set|delete|duplicate|move)\b`, a) # not a listing: get the name of every login item
}

# The same in JXA (osascript -l JavaScript): System Events' loginItems
# grown by push or make.
schedules(cmd) if {
	cmd.name == "osascript"
	some a in cmd.args
	regex.match(`(?i)loginItems\s*\.\s*(push|make)\s*\(|\.LoginItem\s*\(|new\s*:\s*["']loginItem["']`, a)
}

schedules(cmd) if {
	cmd.name == "defaults"
	some a in cmd.args
	regex.match(`(?i)loginitems|LoginHook|LogoutHook`, a)
}

# ssh-copy-id to this machine, or of a key that is not the user's own,
# grants someone a login; the user's own key to another host is ordinary.
deny contains {"id": "persist.ssh_copy_id", "msg": msg} if {
	"ssh-copy-id" in input.agentjail.names
	some cmd in commands
	cmd.name == "ssh-copy-id"
	foreign_key_or_local(cmd)
	msg := "Blocked: this adds a key to this machine's authorized_keys (or copies a key that is not yours), letting someone log in. Ask the user to add keys themselves."
}

foreign_key_or_local(cmd) if {
	some k in option_values(cmd, {"-i"})
	p := abs_from(k, cmd.cwd)
	not startswith(home_rel(p), ".ssh/")
}

foreign_key_or_local(cmd) if {
	some o in cmd.operands
	regex.match(`(^|@)(localhost|127\.[0-9.]+|::1)$`, o)
}

abs_from(p, _) := concat("", [home, substring(p, 1, -1)]) if startswith(p, "~/")

abs_from(p, _) := p if startswith(p, "/")

abs_from(p, cwd) := concat("/", [cwd, p]) if {
	not startswith(p, "/")
	not startswith(p, "~/")
}

# Package registries swapped for the user or the machine. registry_verbs
# is the word each program's setting needs: looking for it among the
# words is a cheap test before swaps_registry works out positional words.
registry_verbs := {
	"npm": "set", "pnpm": "set", "yarn": "set", "pip": "config", "pip3": "config", "gem": "sources", "go": "env",
	"conda": "config", "bundle": "config", "composer": "config",
}

program_group contains [prog, "registry"] if some prog, _ in registry_verbs

ask contains {"id": "persist.registry_swap", "msg": msg} if {
	"registry" in input.agentjail.kinds
	some cmd in commands
	registry_verbs[cmd.name] in cmd.args
	swaps_registry(cmd)
	msg := sprintf("`%s` changes where packages are downloaded from, for every project; the user has to approve it.", [full_text(cmd)])
}

swaps_registry(cmd) if {
	cmd.name in {"npm", "pnpm", "yarn"}
	pos := positional(cmd)
	some i, w in pos
	w == "set"
	key := pos[i + 1]
	regex.match(`(?i)(^|:)(registry|npmRegistryServer|unsafeHttpWhitelist|strict-ssl|enableStrictSsl|_auth|_authToken)(=|$)|^@[^:]+:registry`, key)
	not default_registry_setting(key, word_at(pos, i + 2))
}

# word_at(words, i) is words[i], or "" past the end.
word_at(words, i) := words[i] if i < count(words)
else := ""

# Setting the registry back to the default one changes nothing.
default_registry_setting(key, value) if {
	regex.match(`(?i)^(registry|npmRegistryServer)$`, key)
	regex.match(default_indexes, value)
}

default_registry_setting(key, _) if regex.match(`(?i)^(registry|npmRegistryServer)=https://(registry\.npmjs\.org|registry\.yarnpkg\.com)/?$`, key)

swaps_registry(cmd) if {
	cmd.name in {"pip", "pip3"}
	pos := positional(cmd)
	pos[0] == "config"
	pos[1] == "set"
	regex.match(`(?i)index-url|trusted-host|find-links`, pos[2])
	not regex.match(default_indexes, word_at(pos, 3))
}

swaps_registry(cmd) if {
	cmd.name == "gem"
	positional(cmd)[0] == "sources"
	has_flag(cmd, {"a", "add"})
}

swaps_registry(cmd) if {
	cmd.name == "go"
	positional(cmd)[0] == "env"
	has_flag(cmd, {"w"})
	some a in cmd.args
	regex.match(`^(GOPROXY|GONOSUMDB|GONOSUMCHECK|GOSUMDB|GOINSECURE|GOFLAGS|GOPRIVATE|GONOPROXY)=`, a)
	not go_env_ordinary(a)
}

# GOPRIVATE and GONOPROXY naming one's own organisation's modules
# (host/path patterns) are how private modules are fetched; a whole host
# or * turns checks off for everyone's. GOFLAGS without -insecure, and
# the default proxy, change nothing about where code comes from.
go_env_ordinary(a) if {
	regex.match(`^(GOPRIVATE|GONOPROXY)=`, a)
	every p in split(substring(a, indexof(a, "=") + 1, -1), ",") {
		regex.match(`^[^*/]+\.[^/]+/[^*]`, p)
	}
}

go_env_ordinary(a) if {
	startswith(a, "GOFLAGS=")
	not contains(a, "-insecure")
}

go_env_ordinary(a) if regex.match(`^GOPROXY=(https://proxy\.golang\.org(,direct)?|direct)$`, a)

swaps_registry(cmd) if {
	cmd.name == "conda"
	positional(cmd)[0] == "config"
	has_flag(cmd, {"add", "append", "prepend", "set"})
	some a in cmd.args
	a in {"channels", "custom_channels", "channel_alias", "ssl_verify"}
}

swaps_registry(cmd) if {
	cmd.name == "bundle"
	positional(cmd)[0] == "config"
	some w in positional(cmd)
	startswith(w, "mirror.")
}

swaps_registry(cmd) if {
	cmd.name == "composer"
	positional(cmd)[0] == "config"
	has_flag(cmd, {"g", "global"})
	some w in positional(cmd)
	regex.match(`^repo(sitories)?`, w)
}
