package agentjail

# Secrets: private keys, cloud and registry credentials, tokens, keychains,
# browser profiles, shell history, process environments. Denied through
# Bash and through every tool that names a path; a project's .env or key
# file is asked about.

# secret(p): a file or folder whose contents are credentials. The
# patterns are written where they are used, not named: a named one costs
# a lookup on every decision that tests a path.
secret(p) if secret_in_home(home_rel(p))

# Another user's home (/root, /home/x, /Users/x, and under WSL a Windows
# profile, /mnt/c/Users/x) holds the same files.
secret(p) if {
	regex.match(`^(/root|/var/root|/home/[^/]+|/Users/[^/]+|/mnt/[a-z]/Users/[^/]+)/`, p)
	not startswith(p, home_slash)
	secret_in_home(regex.replace(p, `^(/root|/var/root|/home/[^/]+|/Users/[^/]+|/mnt/[a-z]/Users/[^/]+)/`, ""))
}

# Any file in any .ssh folder (a project's too: a key is a key).
secret(p) if regex.match(`/\.ssh/[^/]+$|^(/proc/[^/]+/environ|/etc/(shadow|gshadow|sudoers|master\.passwd)|/private/etc/(master\.passwd|sudoers)|/Library/Keychains(/.*)?|/mnt/[a-z]/Windows/System32/config/(SAM|SYSTEM|SECURITY)(\.LOG\d?)?)$`, p)

# Kerberos ticket caches and the machine's keytab are logins to every
# service of the realm (ATT&CK T1558.005); a keytab elsewhere is a key
# file (key_file).
secret(p) if {
	contains(p, "krb5")
	regex.match(`^/(tmp|var/tmp)/krb5cc[^/]*$|^/run/user/[0-9]+/krb5cc[^/]*(/.*)?$|^/etc/krb5\.keytab$`, p)
}

# A ticket cache named by a word only known when the command runs
# (/tmp/krb5cc_$(id -u), /tmp/krb5cc_*): every cache is a login. The
# Kerberos clients use them without showing them; listers see names.
deny contains {"id": "secrets.credentials", "msg": msg} if {
	contains(input.agentjail.command, "krb5cc")
	some cmd in commands
	not cmd.name in {"klist", "kinit", "kdestroy", "kvno", "kswitch", "ls", "stat", "test", "[", "export", "declare", "typeset", "readonly", "local"}
	some a in cmd.args
	regex.match(`(^|[=:])/(tmp|var/tmp|run/user/[^/]+)/krb5cc`, a)
	msg := sprintf("Blocked: `%s` reads a Kerberos ticket cache (%s), a login to every service of the realm. Use kinit and klist, which use the tickets without showing them.", [cmd.name, a])
}

# secret_in_home(rel): rel, relative to a home directory, is a secret.
# One literal pattern keeps it to one match per path.
secret_in_home(rel) if regex.match(`^(\.ssh(/.*)?|\.gnupg(/.*)?|\.password-store(/.*)?|\.aws(/(credentials|sso/cache(/.*)?|cli/cache(/.*)?))?|\.config/gcloud(/(application_default_credentials\.json|credentials\.db|access_tokens\.db|legacy_credentials(/.*)?))?|\.azure(/(accessTokens\.json|msal_token_cache\..*|service_principal_entries\.json))?|\.kube(/config)?|\.docker/config\.json|\.claude/\.credentials\.json|\.codex/auth\.json|\.gemini/oauth_creds\.json|\.config/github-copilot/(hosts|apps)\.json|\.netrc|\.npmrc|\.pypirc|\.git-credentials|\.cargo/credentials(\.toml)?|\.gem/credentials|\.config/gh/hosts\.yml|\.terraform\.d/credentials\.tfrc\.json|\.vault-token|\.pgpass|\.(bash|zsh|sh|python|node_repl|psql|mysql|irb|sqlite)_history|\.local/share/fish/fish_history|Library/Keychains(/.*)?|Library/Cookies(/.*)?|Library/Safari(/.*)?|Library/Application Support/(Google/Chrome|Chromium|Firefox|BraveSoftware|Microsoft Edge|Arc)(/.*)?|\.config/(google-chrome|chromium|BraveSoftware|microsoft-edge)(/.*)?|\.mozilla/firefox(/.*)?|\.thunderbird(/.*)?|\.mozilla-thunderbird(/.*)?|\.icedove(/.*)?|\.local/share/evolution(/.*)?|Maildir(/.*)?|\.maildir(/.*)?|\.config/(Slack|discord|Signal|Microsoft/Microsoft Teams|teams-for-linux|Element)(/.*)?|\.local/share/TelegramDesktop(/.*)?|AppData/(Roaming|Local)/Microsoft/(Credentials|Vault|Protect)(/.*)?|AppData/Local/(Google/Chrome|Chromium|Microsoft/Edge|BraveSoftware/Brave-Browser)/User Data(/.*)?|AppData/Roaming/(Mozilla/Firefox|Opera Software)(/.*)?|AppData/Roaming/Microsoft/Windows/PowerShell/PSReadLine/ConsoleHost_history\.txt|AppData/Roaming/gcloud(/(application_default_credentials\.json|credentials\.db|access_tokens\.db|legacy_credentials(/.*)?))?|AppData/Roaming/GitHub CLI/hosts\.yml)$`, rel)

# An agent's login (its facts: agent_places.rego).
secret_in_home(rel) if rel in agent_credentials

# Public halves, host lists and the client's own settings are not
# secret: ~/.ssh/config names hosts and which key file to use, never a
# key. (Writing it stays refused: secrets.config_write.)
not_secret(p) if regex.match(`\.pub$|/(known_hosts|known_hosts\.old|authorized_keys|authorized_keys2)$|/\.ssh/config(\.d/[^/]+)?$`, p)

# key_file(p): a project file that usually holds a secret.
key_file(p) if regex.match(`(?i)/(\.env(\.[a-z0-9_.-]+)?|\.envrc|[^/]*\.(pem|key|p12|pfx|jks|keystore|ppk|keytab)|id_(rsa|dsa|ecdsa|ed25519)|credentials\.json|\.?secrets?\.(ya?ml|json|toml|txt|env)|\.secrets)$`, p)

# Example and template env files hold no secrets, nor do a test suite's
# (.env.test, .env.testing): a local override (.env.test.local) may.
harmless_key_file(p) if regex.match(`(?i)/\.env(\.[a-z0-9_-]+)*[.-](example|sample|template|dist|defaults|schema|tmpl|tpl|test|testing|e2e)$`, p)

harmless_key_file(p) if regex.match(`(?i)/[^/]*[.-](example|sample|template|dist|tmpl|tpl)(\.[a-z0-9]+)?$`, p)

# An armored file beside the file it signs (app.tar.gz.asc) is a detached
# signature, and one named as a public key (pubkey.asc, KEYS.asc) is one.
harmless_key_file(p) if regex.match(`(?i)/[^/]+\.[a-z0-9]+\.asc$|/(pub|public)[^/]*\.asc$|/KEYS\.asc$|/(SHA[0-9]*SUMS|MD5SUMS|CHECKSUMS|checksums)[^/]*\.asc$|/[^/]*[-_.](pub|public|pubkey)\.asc$`, p)

# shown(p) is pretty(p) (lib.rego), ~/.ssh/id_rsa, in one pass: lib's
# three clauses are each evaluated on every message.
shown(p) := sprintf("~%s", [trim_prefix(p, home)]) if {
	startswith(p, home_slash)
} else := "~" if {
	p == home
} else := p

# metadata_only(name): a program that only looks at names or metadata,
# or uses a key without revealing it, may name a secret path. wc prints
# counts, file a type, tree names and the *sum programs a digest: none
# shows a byte of the contents.
metadata_only(name) if name in {
	"ls", "stat", "test", "[", "cd", "pushd", "mkdir", "echo", "printf", "which", "type", "basename",
	"dirname", "realpath", "readlink", "du", "chmod", "touch", "ssh", "ssh-add", "ssh-keygen", "ssh-copy-id",
	"wc", "file", "tree", "md5sum", "sha1sum", "sha224sum", "sha256sum", "sha384sum", "sha512sum", "shasum", "b2sum", "cksum",
}

# names_only_subcommands: subcommands that take a path as a name (to
# stop tracking it, to ask whether it is ignored or tracked) and never
# show its contents. git add is not one: it stages the file for a commit.
names_only_subcommands := {"git": {"rm", "mv", "check-ignore", "check-attr", "ls-files", "status", "update-index"}}

names_only(cmd) if {
	metadata_only(cmd.name)
	not reads_a_list(cmd)
}

# Options with which a metadata program reads a file's lines (as names
# to look at, checksums to check or magic to match) and prints them back
# in its errors: wc --files0-from=~/.aws/credentials shows the file.
list_options := {
	"wc": {"files0-from"}, "du": {"files0-from", "X", "exclude-from"}, "file": {"f", "files-from", "m", "magic-file"},
	"tree": {"fromfile"}, "md5sum": {"c", "check"}, "sha1sum": {"c", "check"}, "sha224sum": {"c", "check"},
	"sha256sum": {"c", "check"}, "sha384sum": {"c", "check"}, "sha512sum": {"c", "check"}, "shasum": {"c", "check"},
	"b2sum": {"c", "check"},
}

reads_a_list(cmd) if has_flag(cmd, list_options[cmd.name])

names_only(cmd) if cmd.operands[0] in names_only_subcommands[cmd.name]

# A search that prints only counts, file names or its exit status
# (grep -c, -l, -L, -q) shows none of the lines of a project's key file
# (a credential place stays refused: its exit status, asked again and
# again, would spell a key out).
counts_only(cmd) if {
	cmd.name in {"grep", "egrep", "fgrep", "rg"}
	has_flag(cmd, {"c", "count", "l", "files-with-matches", "L", "files-without-match", "q", "quiet", "silent"})
	not has_flag(cmd, {"o", "only-matching", "A", "B", "C", "context", "after-context", "before-context", "f", "file"})
}

# Checking a signature prints whether it is good and whose it is, never
# the key's or the file's bytes (gpg --verify x.asc, gpgv).
names_only(cmd) if {
	cmd.name in {"gpg", "gpg2"}
	has_flag(cmd, {"verify"})
	not has_flag(cmd, {"output", "o"})
}

names_only(cmd) if cmd.name == "gpgv"

# find prints names unless an action runs, prints into a file or deletes.
names_only(cmd) if {
	cmd.name == "find"
	not find_acts(cmd)
}

find_acts(cmd) if {
	some a in cmd.args
	a in {"-delete", "-fprint", "-fprint0", "-fprintf", "-fls", "-files0-from"}
}

# The daemon lifts -exec's and -ok's command out as a command of its own,
# run via find.
find_acts(_) if {
	some other in input.agentjail.commands
	startswith(other.via, "find ")
}

# Listing tools and a search of names (Glob) see names, not contents: a
# project key file's name is no secret. (A search of names under a
# credential folder stays denied: secret_read.)
names_only_tool if input.agentjail.tool_kind == "list"

names_only_tool if {
	input.agentjail.tool_kind == "search"
	input.agentjail.search.content == false
}

# secret_path(p): p, one of the call's paths, is a secret.
secret_path(p) if {
	p in input.agentjail.unusual_paths
	secret(p)
	not not_secret(p)
}

secret_path(p) if {
	data.config.protected_paths[0]
	p in protected_named
}

protected_named := {p |
	count(protected_paths) > 0
	some p in named_paths
	some q in protected_paths
	under(p, q)
}

# reads_contents(p): p, one of the call's paths, is named by a file tool
# (every path of a call that is not a shell's), or is an operand of a
# program that does more than look at names (metadata_only).
reads_contents(p) if {
	not shell_call
	input.agentjail.tool_kind != "list"
}

reads_contents(p) if {
	some cmd in input.agentjail.commands
	p in cmd.paths
	not names_only(cmd)
}

# key_file_read(p): the call reads a project key file, other than as the
# destination of a copy (cp .env.example .env fills it, shows nothing).
key_file_read(p) if {
	not shell_call
	not names_only_tool
}

key_file_read(p) if {
	some cmd in input.agentjail.commands
	p in cmd.paths
	not names_only(cmd)
	not copy_destination(cmd, p)
	not option_output(cmd, p)
	not counts_only(cmd)
	not made_by_call(p)
}

# made_by_call(p): a command of the same call wrote p through an output
# option (openssl genpkey -out /tmp/k.pem && openssl pkey -in /tmp/k.pem):
# a key the call made shows nothing of one the user had.
made_by_call(p) if {
	some other in input.agentjail.commands
	option_output(other, p)
}

# option_output(cmd, p): p is the value of an option through which the
# program writes a new file (openssl req -keyout certs/dev.key, sort -o):
# making a key shows nothing of one.
option_output(cmd, p) if {
	p in cmd.writes
	row := file_functions[cmd.name].writes
	row.options
	not row.operands
	not row.words
}

key_file_read(p) if {
	some cmd in input.agentjail.commands
	some r in cmd.redirects
	r.path == p
	r.op in {"<", "<>"}
}

# key_copy_programs write their last path operand from the others
# (internal/shell/writes.go's writesLastPath less ln and scp; a remote
# destination such as host:/dir is a path of its own, so the key file is
# not last and still counts as read).
key_copy_programs := {"cp", "install", "rsync", "ditto"}

copy_destination(cmd, p) if {
	cmd.name in key_copy_programs
	not has_flag(cmd, {"t", "target-directory"}) # cp -t DIR names the destination first
	count(cmd.paths) > 1
	cmd.paths[count(cmd.paths) - 1] == p
	count([q | some q in cmd.paths; q == p]) == 1
}

# secret_read(p): the call reads, copies or changes p; a redirect counts
# whatever the program.
secret_read(p) if reads_contents(p)

secret_read(p) if {
	some cmd in input.agentjail.commands
	some r in cmd.redirects
	r.path == p
}

# File-transfer clients read their commands from standard input: a
# here-document or here-string of `put ~/.netrc` uploads that file as
# surely as scp would (sftp host <<< 'put ~/.aws/credentials').
batch_transfer_clients := {"sftp", "ftp", "lftp", "tftp", "ncftp", "smbclient"}

program_group contains [prog, "transfer"] if some prog in batch_transfer_clients

batch_uploads contains p if {
	input.agentjail.tool_kind == "shell"
	some cmd in commands
	cmd.name in batch_transfer_clients
	some line in batch_lines(cmd)
	words := regex.split(`\s+`, trim_space(line))
	words[0] in {"put", "mput", "reput", "append", "send"}
	some w in array.slice(words, 1, count(words))
	not startswith(w, "-")
	p := batch_path(trim(w, `"'`), cmd.cwd)
}

# batch_lines(cmd): the client's commands, from a here-document or
# from its command option (smbclient -c 'put F', lftp -c, ftp -e).
batch_lines(cmd) := {line |
	some r in cmd.redirects
	startswith(r.op, "<<")
	some line in split(r.target, "\n")
} | {line |
	some v in option_values(cmd, {"-c", "--command", "-e"})
	some line in regex.split(`[;\n]`, v)
}

batch_path(w, _) := concat("", [home, substring(w, 1, -1)]) if startswith(w, "~/")

batch_path(w, _) := w if startswith(w, "/")

batch_path(w, cwd) := concat("/", [cwd, w]) if {
	not startswith(w, "/")
	not startswith(w, "~")
}

deny contains {"id": "secrets.credentials", "msg": msg} if {
	"transfer" in input.agentjail.kinds
	some p in batch_uploads
	secret(p)
	not not_secret(p)
	msg := sprintf("Blocked: this uploads %s, which holds private keys, credentials or tokens, through the transfer client's batch input. Ask the user for the specific non-secret value you need.", [shown(p)])
}

ask contains {"id": "secrets.key_file", "msg": msg} if {
	"transfer" in input.agentjail.kinds
	some p in batch_uploads
	key_file(p)
	not harmless_key_file(p)
	not secret(p)
	msg := sprintf("%s usually holds secrets, and this uploads it through the transfer client's batch input; the user has to approve it.", [shown(p)])
}

# A word only known when the command runs ($D/credentials, ~/.aws/$F,
# "$HOME/.ssh/$K") that may name a secret file: the daemon lists in
# cmd.maybe the well-known secret files it may stand for.
ask contains {"id": "secrets.unknown", "msg": msg} if {
	input.agentjail.tool_kind == "shell"
	some cmd in input.agentjail.commands
	cmd.maybe[0]
	not metadata_only(cmd.name)
	some p in cmd.maybe
	secret(p)
	not not_secret(p)
	msg := sprintf("`%s` names a path only known when it runs, and it may be %s, which holds credentials; the user has to approve it. Spell out the path you mean.", [cmd.name, shown(p)])
}

# A secret is an unusual path (one not deep inside the project, see
# lib.rego) or a protected one, so each rule goes through those lists
# and nothing else: an ordinary call has neither and costs nothing here.
deny contains {"id": "secrets.credentials", "msg": msg} if {
	input.agentjail.unusual == true
	some p in input.agentjail.unusual_paths

	# Every secret definition (here and in sensitive.rego) names a path
	# with a dot folder or file (/.ssh, /.aws), a Library or AppData
	# folder, or under /proc, /etc, /private, /run, /var or a Windows
	# drive's Windows folder, or is a Kerberos cache or a Maildir, so any
	# other path (/tmp/x, ./...) is passed over with this one test.
	regex.match(`/\.[^/.]|/Library/|/AppData/|^/(proc|etc|private|run|var)/|^/mnt/[a-z]/Windows/|/krb5cc|/Maildir(/|$)`, p)
	secret_path(p)
	secret_read(p)
	msg := secret_read_message(p)
}

deny contains {"id": "secrets.credentials", "msg": msg} if {
	data.config.protected_paths[0]
	some p in protected_named
	secret_read(p)
	msg := secret_read_message(p)
}

# A path that is protected only because the user listed it (a folder of
# notes) is named by its entry in config.yaml, not called a key file.
secret_read_message(p) := protected_message(p) if {
	p in protected_named
	not known_secret(p)
} else := sprintf("Blocked: %s holds private keys, credentials or tokens, and agents must not read, copy or change it. Ask the user for the specific non-secret value you need, or use the tool that needs the credential (ssh, aws, gh) without reading it.", [shown(p)])

known_secret(p) if {
	secret(p)
	not not_secret(p)
}

# protected_message(p) names the nearest protected_paths entry that holds
# p: of the entries p is under (each a prefix of it), the greatest string
# is the longest.
protected_message(p) := sprintf("Blocked: %s is in protected_paths in %s, so agents must not read, copy or change it. Ask the user for what you need from it.", [shown(p), config_file]) if {
	p in protected_paths
} else := sprintf("Blocked: %s is under %s, which is in protected_paths in %s, so agents must not read, copy or change it. Ask the user for what you need from it.", [shown(p), shown(entry), config_file]) if {
	entry := max({q | some q in protected_paths; under(p, q)})
}

# config_file is the user's config.yaml as they would write it.
config_file := concat("", [shown(agentjail_home), "/config.yaml"]) if startswith(agentjail_home, "/")
else := "~/.agentjail/config.yaml"

# /proc/$$/environ and the like: a process environment, even when the
# pid is only known at run time (so the path is not normalized).
deny contains {"id": "secrets.credentials", "msg": msg} if {
	input.agentjail.tool_kind == "shell"
	some cmd in input.agentjail.commands
	cmd.dynamic
	some o in cmd.operands
	regex.match(`^/proc/[^/]+/environ$`, o)
	msg := sprintf("Blocked: %s is a process environment, full of tokens and keys. Ask the user for the specific non-secret value you need.", [o])
}

ask contains {"id": "secrets.key_file", "msg": msg} if {
	some p in input.agentjail.paths

	# Every key_file definition (here and in sensitive.rego) ends in a
	# name of one of these shapes, so a path of any other shape (src,
	# main.go) is passed over with this one test (the pattern is written
	# here, not named: a named one costs a lookup per decision). A new
	# key_file spelling needs its shape here; secrets_test.rego checks.
	regex.match(`(?i)(/\.[^/.][^/]*|\.(pem|key|p12|pfx|jks|keystore|ppk|json|ya?ml|toml|txt|env|kdbx|keychain|keychain-db|gpg|asc|age|p8|mobileprovision|keytab)|/(id_(rsa|dsa|ecdsa|ed25519)|_netrc|credentials|config))$`, p)
	not secret_path(p) # denied as a secret
	key_file(p)
	not harmless_key_file(p)
	key_file_read(p)
	msg := sprintf("%s usually holds secrets (API keys, passwords, private keys); the user has to approve this. If you only need the variable names, read .env.example instead.", [shown(p)])
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
	input.agentjail.unusual == true # home dot folders are
	some p in input.agentjail.writes
	rel := home_rel(p)
	startswith(rel, ".") # every one is a dot folder: a project's files skip the loop
	some dir in credential_config_dirs
	under(rel, dir)
	not base_name(p) in {"authorized_keys", "authorized_keys2", "known_hosts"}
	msg := sprintf("Blocked: %s configures credentials; changing it can make tools run other code or send credentials away. Tell the user the change to make.", [shown(p)])
}
