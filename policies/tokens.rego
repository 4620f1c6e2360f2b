package agentjail

# Token printers: commands whose job is to print a stored credential
# (deny: an agent needs the tool that uses the token, never the token),
# and secret stores whose values some workflows do read (ask).

# token_printers lists, per tool, the verbs (words after the tool, past
# its global options) that print a credential; "flags" when only those
# flags make the verb print it, "arg" a regular expression that one of
# the later words must match.
token_printers := [
	{"tool": "gh", "verbs": ["auth token"]},
	{"tool": "gh", "verbs": ["auth status"], "flags": ["show-token", "t"]},
	{"tool": "glab", "verbs": ["auth status"], "flags": ["show-token", "t"]},
	{"tool": "glab", "verbs": ["config get token"]},
	{"tool": "aws", "verbs": ["configure export-credentials"]},
	{"tool": "aws", "verbs": ["configure get"], "arg": `(?i)secret|session_token|access_key|credential`},
	{"tool": "kubectl", "verbs": ["config view"], "flags": ["raw"]},
	{"tool": "oc", "verbs": ["config view"], "flags": ["raw"]},
	{"tool": "oc", "verbs": ["whoami"], "flags": ["t", "show-token"]},
	{"tool": "git", "verbs": ["credential fill"]},
	{"tool": "git", "verbs": ["credential-store get"]},
	{"tool": "git", "verbs": ["credential-osxkeychain get"]},
	{"tool": "git", "verbs": ["credential-manager get"]},
	{"tool": "git", "verbs": ["credential-libsecret get"]},
	{"tool": "git-credential-osxkeychain", "verbs": ["get"]},
	{"tool": "git-credential-manager", "verbs": ["get"]},
	{"tool": "git-credential-store", "verbs": ["get"]},
	{"tool": "git-credential-libsecret", "verbs": ["get"]},
	{"tool": "pass", "verbs": ["show", "grep", "otp"]},
	{"tool": "gopass", "verbs": ["show", "cat", "otp"]},
	{"tool": "op", "verbs": ["read", "item get", "document get", "inject"]},
	{"tool": "bw", "verbs": ["get", "list items", "export"]},
	{"tool": "lpass", "verbs": ["show", "export"]},
	{"tool": "keepassxc-cli", "verbs": ["show", "clip", "export"]},
	{"tool": "secret-tool", "verbs": ["lookup"]},
	{"tool": "keyring", "verbs": ["get"]},
	{"tool": "gcloud", "arg": `^print-(access|identity|refresh)-token$|^config-helper$`},
	{"tool": "az", "verbs": ["account get-access-token"]},
	{"tool": "heroku", "verbs": ["auth:token"]},
	{"tool": "fly", "verbs": ["auth token"]},
	{"tool": "flyctl", "verbs": ["auth token"]},
	{"tool": "vault", "verbs": ["print token"]},
	{"tool": "docker-credential-desktop", "verbs": ["get", "list"]},
	{"tool": "docker-credential-osxkeychain", "verbs": ["get"]},
	{"tool": "docker-credential-secretservice", "verbs": ["get"]},
	{"tool": "docker-credential-pass", "verbs": ["get"]},
	{"tool": "docker-credential-wincred", "verbs": ["get"]},
	{"tool": "docker-credential-gcloud", "verbs": ["get"]},
	{"tool": "docker-credential-ecr-login", "verbs": ["get"]},
	{"tool": "docker-credential-gcr", "verbs": ["get"]},
	{"tool": "docker-credential-acr-env", "verbs": ["get"]},
]

deny contains {"id": "tokens.print", "msg": msg} if {
	"tokens" in input.agentjail.kinds
	some cmd in commands
	some words in invocations(cmd)
	some row in token_printers
	words[0] == row.tool
	token_verb(words, row)
	token_flags(cmd, row)
	msg := sprintf("Blocked: `%s` prints a stored credential (token, password or key). Use the tool that needs it directly (gh, git, aws, docker), or ask the user for the specific non-secret value you need.", [full_text(cmd)])
}

token_verb(words, row) if {
	some verb in row.verbs
	has_words(array.slice(words, 1, count(words)), verb)
	not row.arg
}

token_verb(words, row) if {
	some verb in row.verbs
	want := split(verb, " ")
	array.slice(words, 1, 1 + count(want)) == want
	some w in array.slice(words, 1 + count(want), count(words))
	regex.match(row.arg, w)
}

token_verb(words, row) if {
	not row.verbs
	some w in array.slice(words, 1, count(words))
	regex.match(row.arg, w)
}

token_flags(_, row) if not row.flags

token_flags(cmd, row) if has_option(cmd, {f | some f in row.flags})

# `pass NAME` shows the entry as much as `pass show NAME` does.
deny contains {"id": "tokens.print", "msg": msg} if {
	"pass" in input.agentjail.names
	some cmd in commands
	cmd.name == "pass"
	pos := positional(cmd)
	count(pos) > 0
	not pos[0] in {"ls", "list", "find", "search", "init", "insert", "add", "generate", "edit", "rm", "remove", "delete", "mv", "rename", "cp", "copy", "git", "help", "version", "show", "grep", "otp"}
	msg := sprintf("Blocked: `%s` prints a stored password. Ask the user for what you need instead.", [full_text(cmd)])
}

# Secret stores that applications read for their configuration; reading
# one needs the user's approval.
ask contains {"id": "tokens.secret_store", "msg": msg} if {
	"tokens" in input.agentjail.kinds
	some cmd in commands
	some words in invocations(cmd)
	reads_secret_store(cmd, words)
	msg := sprintf("`%s` reads secrets out of a secret store; the user has to approve it.", [full_text(cmd)])
}

reads_secret_store(_, words) if {
	words[0] == "vault"
	some verb in ["read", "kv get", "kv get", "kv list"]
	has_words(array.slice(words, 1, count(words)), verb)
}

reads_secret_store(_, words) if {
	words[0] == "npm"
	has_words(array.slice(words, 1, count(words)), "token list")
}

reads_secret_store(_, words) if {
	words[0] == "secret-tool"
	words[1] == "search"
}

# kubectl get secret NAME -o yaml|json|jsonpath: the values, base64.
reads_secret_store(cmd, words) if {
	words[0] in {"kubectl", "oc"}
	words[1] == "get"
	regex.match(`^(secrets?|secret/.+|secrets/.+)$`, words[2])
	some v in option_values(cmd, {"-o", "--output"})
	regex.match(`^(yaml|json|jsonpath|go-template|custom-columns)`, v)
}
