package agentjail

# Secrets: private keys, cloud and registry credentials, tokens, keychains,
# browser profiles, shell history, process environments. Denied through
# Bash and through every tool that names a path; a project's .env or key
# file is asked about.

# secret(p): a file or folder whose contents are credentials.
secret(p) if regex.match(secret_home_pattern, home_rel(p))

# Another user's home (/root, /home/x, /Users/x) holds the same files.
secret(p) if {
	regex.match(`^(/root|/var/root|/home/[^/]+|/Users/[^/]+)/`, p)
	not startswith(p, home_slash)
	regex.match(secret_home_pattern, regex.replace(p, `^(/root|/var/root|/home/[^/]+|/Users/[^/]+)/`, ""))
}

secret(p) if regex.match(secret_abs_pattern, p)


# Relative to the home directory. One literal pattern keeps it to one
# match per path.
secret_home_pattern := `^(\.ssh(/.*)?|\.gnupg(/.*)?|\.password-store(/.*)?|\.aws(/(credentials|sso/cache(/.*)?|cli/cache(/.*)?))?|\.config/gcloud(/(application_default_credentials\.json|credentials\.db|access_tokens\.db|legacy_credentials(/.*)?))?|\.azure(/(accessTokens\.json|msal_token_cache\..*|service_principal_entries\.json))?|\.kube(/config)?|\.docker/config\.json|\.netrc|\.npmrc|\.pypirc|\.git-credentials|\.cargo/credentials(\.toml)?|\.gem/credentials|\.config/gh/hosts\.yml|\.terraform\.d/credentials\.tfrc\.json|\.vault-token|\.pgpass|\.(bash|zsh|sh|python|node_repl|psql|mysql|irb|sqlite)_history|\.local/share/fish/fish_history|Library/Keychains(/.*)?|Library/Cookies(/.*)?|Library/Safari(/.*)?|Library/Application Support/(Google/Chrome|Chromium|Firefox|BraveSoftware|Microsoft Edge|Arc)(/.*)?|\.config/(google-chrome|chromium|BraveSoftware|microsoft-edge)(/.*)?|\.mozilla/firefox(/.*)?)$`

# Any file in any .ssh folder (a project's too: a key is a key).
secret_abs_pattern := `/\.ssh/[^/]+$|^(/proc/[^/]+/environ|/etc/(shadow|gshadow|sudoers|master\.passwd)|/private/etc/(master\.passwd|sudoers)|/Library/Keychains(/.*)?)$`

# Public halves and host lists are not secret.
not_secret(p) if endswith(p, ".pub")

not_secret(p) if regex.match(`/(known_hosts|known_hosts\.old|authorized_keys)$`, p)

# key_file(p): a project file that usually holds a secret.
key_file(p) if regex.match(`(?i)/(\.env(\.[a-z0-9_.-]+)?|\.envrc|[^/]*\.(pem|key|p12|pfx|jks|keystore|ppk)|id_(rsa|dsa|ecdsa|ed25519)|credentials\.json|\.?secrets?\.(ya?ml|json|toml|txt|env)|\.secrets)$`, p)

# Example and template env files hold no secrets.
harmless_key_file(p) if regex.match(`(?i)/\.env(\.[a-z0-9_-]+)*[.-](example|sample|template|dist|defaults|schema|tmpl|tpl)$`, p)

harmless_key_file(p) if regex.match(`(?i)/[^/]*[.-](example|sample|template|dist|tmpl|tpl)(\.[a-z0-9]+)?$`, p)

# Programs that only look at names or metadata, or use a key without
# revealing it, may name a secret path.
metadata_only := {
	"ls", "stat", "test", "[", "cd", "pushd", "mkdir", "echo", "printf", "which", "type", "basename",
	"dirname", "realpath", "readlink", "du", "chmod", "touch", "ssh", "ssh-add", "ssh-keygen", "ssh-copy-id",
}

secret_paths := {p | some p in unusual_paths; secret(p); not not_secret(p)} | protected_named

protected_named := {p |
	count(protected_paths) > 0
	some p in named_paths
	some q in protected_paths
	under(p, q)
}

# secret_access(p): the call reads, copies or changes secret p.
secret_access contains p if {
	some p in tool_paths
	p in secret_paths
}

secret_access contains p if {
	some cmd in commands
	not cmd.name in metadata_only
	some p in cmd.paths
	p in secret_paths
}


secret_access contains r.path if {
	some cmd in commands
	some r in cmd.redirects
	r.path in secret_paths
}

# File-transfer clients read their commands from standard input: a
# here-document or here-string of `put ~/.netrc` uploads that file as
# surely as scp would (sftp host <<< 'put ~/.aws/credentials').
batch_transfer_clients := {"sftp", "ftp", "lftp", "tftp", "ncftp", "smbclient"}

batch_uploads contains p if {
	input.agentjail.tool_kind == "shell"
	some cmd in commands
	cmd.name in batch_transfer_clients
	some r in cmd.redirects
	startswith(r.op, "<<")
	some line in split(r.target, "\n")
	words := regex.split(`\s+`, trim_space(line))
	words[0] in {"put", "mput", "reput", "append", "send"}
	some w in array.slice(words, 1, count(words))
	not startswith(w, "-")
	p := batch_path(trim(w, `"'`), cmd.cwd)
}

batch_path(w, _) := concat("", [home, substring(w, 1, -1)]) if startswith(w, "~/")

batch_path(w, _) := w if startswith(w, "/")

batch_path(w, cwd) := concat("/", [cwd, w]) if {
	not startswith(w, "/")
	not startswith(w, "~")
}

deny contains {"id": "secrets.credentials", "msg": msg} if {
	some p in batch_uploads
	secret(p)
	not not_secret(p)
	msg := sprintf("Blocked: this uploads %s, which holds private keys, credentials or tokens, through the transfer client's batch input. Ask the user for the specific non-secret value you need.", [pretty(p)])
}

ask contains {"id": "secrets.key_file", "msg": msg} if {
	some p in batch_uploads
	key_file(p)
	not harmless_key_file(p)
	not secret(p)
	msg := sprintf("%s usually holds secrets, and this uploads it through the transfer client's batch input; the user has to approve it.", [pretty(p)])
}

# A word only known when the command runs ($D/credentials, ~/.aws/$F,
# "$HOME/.ssh/$K") that may name a secret file: the daemon lists in
# cmd.maybe the well-known secret files it may stand for.
ask contains {"id": "secrets.unknown", "msg": msg} if {
	input.agentjail.tool_kind == "shell"
	some cmd in commands
	cmd.maybe[0]
	not cmd.name in metadata_only
	some p in cmd.maybe
	secret(p)
	not not_secret(p)
	msg := sprintf("`%s` names a path only known when it runs, and it may be %s, which holds credentials; the user has to approve it. Spell out the path you mean.", [cmd.name, pretty(p)])
}

deny contains {"id": "secrets.credentials", "msg": msg} if {
	input.agentjail.paths[0]
	count(secret_paths) > 0
	some p in secret_access
	msg := sprintf("Blocked: %s holds private keys, credentials or tokens, and agents must not read, copy or change it. Ask the user for the specific non-secret value you need, or use the tool that needs the credential (ssh, aws, gh) without reading it.", [pretty(p)])
}

key_file_paths := {p | some p in named_paths; key_file(p); not harmless_key_file(p)}

# /proc/$$/environ and the like: a process environment, even when the
# pid is only known at run time (so the path is not normalized).
deny contains {"id": "secrets.credentials", "msg": msg} if {
	input.agentjail.tool_kind == "shell"
	some cmd in commands
	cmd.dynamic
	some o in cmd.operands
	regex.match(`^/proc/[^/]+/environ$`, o)
	msg := sprintf("Blocked: %s is a process environment, full of tokens and keys. Ask the user for the specific non-secret value you need.", [o])
}

key_file_access contains p if {
	some p in tool_paths
	p in key_file_paths
}

key_file_access contains p if {
	some cmd in commands
	not cmd.name in metadata_only
	some p in cmd.paths
	p in key_file_paths
}

ask contains {"id": "secrets.key_file", "msg": msg} if {
	input.agentjail.paths[0]
	count(key_file_paths) > 0
	some p in key_file_access
	not p in secret_access
	msg := sprintf("%s usually holds secrets (API keys, passwords, private keys); the user has to approve this. If you only need the variable names, read .env.example instead.", [pretty(p)])
}

deny contains {"id": "secrets.export", "msg": msg} if {
	"export" in input.agentjail.kinds
	some cmd in commands
	exports_secret(cmd)
	msg := sprintf("Blocked: `%s` prints private keys or stored passwords. Ask the user for what you need instead.", [concat(" ", array.concat([cmd.name], cmd.args))])
}

exports_secret(cmd) if {
	cmd.name in {"gpg", "gpg2"}
	has_flag(cmd, {"export-secret-keys", "export-secret-subkeys", "export-ssh-key"})
}

exports_secret(cmd) if {
	cmd.name == "security"
	subcommand(cmd) in {"dump-keychain", "find-generic-password", "find-internet-password", "export"}
}

# Tools' credential configuration: changing it can make the tool run other
# code (ssh ProxyCommand, aws credential_process) or send credentials away.
credential_config_dirs := {".ssh", ".aws", ".gnupg", ".kube", ".docker", ".config/gcloud", ".azure", ".config/gh"}

deny contains {"id": "secrets.config_write", "msg": msg} if {
	input.agentjail.writes[0]
	some p in writes
	some dir in credential_config_dirs
	under(home_rel(p), dir)
	not base_name(p) in {"authorized_keys", "authorized_keys2", "known_hosts"}
	msg := sprintf("Blocked: %s configures credentials; changing it can make tools run other code or send credentials away. Tell the user the change to make.", [pretty(p)])
}
