package agentjail

# Settings that make a program run later, or send a tool's traffic
# through another host (or make it trust another authority), set with
# the tool's own command: every later npm script runs through
# `npm config set script-shell`, every later download goes through
# `gsettings set org.gnome.system.proxy.http host`. The same settings
# written into their files are rows of written.rego (package_config,
# mcp_config, agent_plugin_config), the shell's start-up files are
# persistence.rego's, git's settings autorun.rego's.
#
# later_setters: one row per setting. A row:
#   program  the command
#   words    the positional words that come first (npm config set)
#   key      a regular expression the next positional word, up to any
#            "=", must match ("" for none)
#   match    a regular expression the arguments, joined by spaces, must
#            match (optional)
#   effect   runs (a program run later) or reroutes (traffic through
#            another host, or trust in another authority)
# A user's policy adds rows with `later_setter contains {...}`.
later_setters := array.concat(core_later_setters, [r | some r in later_setter])

later_setter contains row if {
	some row in []
}

_npm_run_keys := `(?i)^(script-shell|shell|node-options|onload-script|init-module|git|editor|browser|viewer)$`

_npm_route_keys := `(?i)^(proxy|https-proxy|http-proxy|httpproxy|httpsproxy|cafile|ca|cert|noproxy|no-proxy|strict-ssl|enablestrictssl|cafilepath)$`

_vsix_install := `(?i)--install-extension[\s=]+\S*\.vsix\b|--install-extension[\s=]+(https?:|/tmp/|/var/tmp/|/dev/shm/)`

core_later_setters := [
	{"program": "npm", "words": ["config", "set"], "key": _npm_run_keys, "effect": "runs"},
	{"program": "npm", "words": ["config", "set"], "key": _npm_route_keys, "effect": "reroutes"},
	{"program": "npm", "words": ["set"], "key": _npm_run_keys, "effect": "runs"},
	{"program": "npm", "words": ["set"], "key": _npm_route_keys, "effect": "reroutes"},
	{"program": "pnpm", "words": ["config", "set"], "key": _npm_run_keys, "effect": "runs"},
	{"program": "pnpm", "words": ["config", "set"], "key": _npm_route_keys, "effect": "reroutes"},
	{"program": "yarn", "words": ["config", "set"], "key": _npm_run_keys, "effect": "runs"},
	{"program": "yarn", "words": ["config", "set"], "key": _npm_route_keys, "effect": "reroutes"},
	{"program": "pip", "words": ["config", "set"], "key": `(?i)^[a-z]+\.(proxy|cert|client-cert|trusted-host)$`, "effect": "reroutes"},
	{"program": "pip3", "words": ["config", "set"], "key": `(?i)^[a-z]+\.(proxy|cert|client-cert|trusted-host)$`, "effect": "reroutes"},
	{"program": "conda", "words": ["config"], "key": "", "match": `(?i)--set\s+(proxy_servers|ssl_verify)`, "effect": "reroutes"},
	{"program": "gsettings", "words": ["set"], "key": `(?i)^org\.gnome\.system\.proxy`, "effect": "reroutes"},
	{"program": "dconf", "words": ["write"], "key": `(?i)^/system/proxy`, "effect": "reroutes"},
	{"program": "dconf", "words": ["load"], "key": `(?i)^/system/proxy`, "effect": "reroutes"},
	{"program": "kwriteconfig5", "words": [], "key": "", "match": `(?i)proxy`, "effect": "reroutes"},
	{"program": "kwriteconfig6", "words": [], "key": "", "match": `(?i)proxy`, "effect": "reroutes"},
	{"program": "networksetup", "words": [], "key": "", "match": `(?i)-set(secure)?webproxy|-setsocksfirewallproxy|-setautoproxyurl|-setftpproxy|-setproxyautodiscovery`, "effect": "reroutes"},
	# A certificate authority added to a trust store can sign any site.
	{"program": "certutil", "words": [], "key": "", "match": `(^|\s)-A(\s|$)`, "effect": "reroutes"},
	{"program": "trust", "words": ["anchor"], "key": "", "effect": "reroutes"},
	{"program": "security", "words": ["add-trusted-cert"], "key": "", "effect": "reroutes"},
	{"program": "security", "words": ["add-certificates"], "key": "", "effect": "reroutes"},
	{"program": "docker", "words": ["context", "create"], "key": "", "match": `(?i)host=(tcp|ssh|https?)://`, "effect": "reroutes"},
	{"program": "docker", "words": ["context", "update"], "key": "", "match": `(?i)host=(tcp|ssh|https?)://`, "effect": "reroutes"},
	# An editor extension from a file rather than the marketplace runs in
	# the editor, with the user's rights, every time it starts.
	{"program": "code", "words": [], "key": "", "match": _vsix_install, "effect": "runs"},
	{"program": "code-insiders", "words": [], "key": "", "match": _vsix_install, "effect": "runs"},
	{"program": "codium", "words": [], "key": "", "match": _vsix_install, "effect": "runs"},
	{"program": "cursor", "words": [], "key": "", "match": _vsix_install, "effect": "runs"},
	{"program": "windsurf", "words": [], "key": "", "match": _vsix_install, "effect": "runs"},
	{"program": "positron", "words": [], "key": "", "match": _vsix_install, "effect": "runs"},
	# Certificate checks switched off: any host can pose as the remote.
	{"program": "git", "words": ["config"], "key": `(?i)^http(\..+)?\.sslverify$`, "match": `(?i)\s(false|no|off|0)(\s|$)`, "effect": "reroutes"},
	{"program": "npm", "words": ["config", "set"], "key": `(?i)^strict-ssl$`, "match": `(?i)\s(false|0)(\s|$)`, "effect": "reroutes"},
	# The user's services keep running after they log out, and start at boot.
	{"program": "loginctl", "words": ["enable-linger"], "key": "", "effect": "runs"},
]

program_group contains [row.program, "later_setting"] if some row in later_setters

# later_hits: [effect, command] for each setting the call makes.
later_hits contains [row.effect, cmd] if {
	"later_setting" in input.agentjail.kinds
	some cmd in commands
	some row in later_setters
	row.program == cmd.name
	pos := positional(cmd)
	array.slice(pos, 0, count(row.words)) == row.words
	later_key(pos, row)
	regex.match(object.get(row, "match", ""), concat(" ", cmd.args))
}

later_key(_, row) if row.key == ""

later_key(pos, row) if {
	row.key != ""
	word := pos[count(row.words)]
	regex.match(row.key, split(word, "=")[0])
}

ask contains {"id": "persist.runs_later", "msg": msg} if {
	"later_setting" in input.agentjail.kinds # answered by the rule index
	some ["runs", cmd] in later_hits
	msg := sprintf("`%s` makes a program run later, outside any call agentjail sees (every script the tool runs, or after you log out); the user has to approve it.", [full_text(cmd)])
}

ask contains {"id": "persist.reroute", "msg": msg} if {
	"later_setting" in input.agentjail.kinds # answered by the rule index
	some ["reroutes", cmd] in later_hits
	msg := sprintf("`%s` sends a tool's traffic through another host, or makes it trust another certificate authority, for every later use; the user has to approve it.", [full_text(cmd)])
}

# A write into a folder found at run time that every program of a
# language loads from: "$(npm root -g)/npm/index.js", a .pth file in
# "$(python3 -c 'import site; print(site.getsitepackages()[0])')".
package_dir_command := `\$\(\s*(npm|pnpm|yarn|bun)\s+(-g\s+)?(root|bin|prefix|config\s+get\s+prefix)\b|\$\(\s*python[0-9.]*\s+(-[a-zA-Z]+\s+)*-c\s+[^)]*\b(site|sysconfig|getsitepackages|getusersitepackages|purelib|platlib)\b|\$\(\s*python[0-9.]*\s+-m\s+site\b|\$\(\s*(gem\s+env|gem\s+contents|ruby\s+-e)|\$\(\s*go\s+env\s+(GOPATH|GOROOT|GOMODCACHE)|\$\(\s*perl\s+-e\s+[^)]*\bINC\b|\$\(\s*(pip[0-9.]*)\s+show`

ask contains {"id": "persist.runs_later", "msg": msg} if {
	input.agentjail.tool_kind == "shell" # answered by the rule index
	contains(input.agentjail.command, "$(") # a folder found at run time
	some cmd in commands
	some target in dynamic_write_targets(cmd)
	regex.match(package_dir_command, target)
	msg := sprintf("This writes into %s, a folder every program of that language loads code from: what it adds runs in every later program; the user has to approve it.", [target])
}

# dynamic_write_targets(cmd): where cmd writes, as written on the line.
dynamic_write_targets(cmd) := ({r.target | some r in cmd.redirects; r.op in {">", ">>", ">|", "&>", "&>>"}} | {a |
	cmd.name == "tee"
	some a in cmd.args
}) | {a |
	cmd.name in {"cp", "mv", "install", "ln", "rsync"}
	a := cmd.args[count(cmd.args) - 1]
} | {a |
	cmd.name == "dd"
	some arg in cmd.args
	startswith(arg, "of=")
	a := substring(arg, 3, -1)
}
