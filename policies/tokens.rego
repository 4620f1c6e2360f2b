package agentjail

# Token printers: commands whose job is to print a stored credential
# (deny: an agent needs the tool that uses the token, never the token),
# and secret stores whose values some workflows do read (ask).

# token_printer_index: per tool, per first word of a verb (the words after
# the tool, past its global options), the verbs that print a credential;
# "flags" when only those flags make the verb print it, "arg" a regular
# expression that one of the later words must match (the verb then comes
# first). Keyed by tool and word, so a call looks up its own words
# instead of going through every row: git is a token tool, and most git
# calls print nothing.
token_printer_index := {
	"gh": {"auth": [{"verb": "auth token"}, {"verb": "auth status", "flags": {"show-token", "t"}}]},
	"glab": {"auth": [{"verb": "auth status", "flags": {"show-token", "t"}}], "config": [{"verb": "config get token"}]},
	"aws": {"configure": [{"verb": "configure export-credentials"}, {"verb": "configure get", "arg": `(?i)secret|session_token|access_key|credential`}]},
	"kubectl": {"config": [{"verb": "config view", "flags": {"raw"}}]},
	"oc": {"config": [{"verb": "config view", "flags": {"raw"}}], "whoami": [{"verb": "whoami", "flags": {"t", "show-token"}}]},
	"git": {
		"credential": [{"verb": "credential fill"}],
		"credential-store": [{"verb": "credential-store get"}],
		"credential-osxkeychain": [{"verb": "credential-osxkeychain get"}],
		"credential-manager": [{"verb": "credential-manager get"}],
		"credential-libsecret": [{"verb": "credential-libsecret get"}],
	},
	"git-credential-osxkeychain": {"get": [{"verb": "get"}]},
	"git-credential-manager": {"get": [{"verb": "get"}]},
	"git-credential-store": {"get": [{"verb": "get"}]},
	"git-credential-libsecret": {"get": [{"verb": "get"}]},
	"pass": {"show": [{"verb": "show"}], "grep": [{"verb": "grep"}], "otp": [{"verb": "otp"}]},
	"gopass": {"show": [{"verb": "show"}], "cat": [{"verb": "cat"}], "otp": [{"verb": "otp"}]},
	"op": {"read": [{"verb": "read"}], "item": [{"verb": "item get"}], "document": [{"verb": "document get"}], "inject": [{"verb": "inject"}]},
	"bw": {"get": [{"verb": "get"}], "list": [{"verb": "list items"}], "export": [{"verb": "export"}]},
	"lpass": {"show": [{"verb": "show"}], "export": [{"verb": "export"}]},
	"keepassxc-cli": {"show": [{"verb": "show"}], "clip": [{"verb": "clip"}], "export": [{"verb": "export"}]},
	"secret-tool": {"lookup": [{"verb": "lookup"}]},
	"keyring": {"get": [{"verb": "get"}]},
	"gcloud": {
		"print-access-token": [{"verb": "print-access-token"}],
		"print-identity-token": [{"verb": "print-identity-token"}],
		"print-refresh-token": [{"verb": "print-refresh-token"}],
		"config-helper": [{"verb": "config-helper"}],
	},
	"az": {"account": [{"verb": "account get-access-token"}]},
	"heroku": {"auth:token": [{"verb": "auth:token"}]},
	"fly": {"auth": [{"verb": "auth token"}]},
	"flyctl": {"auth": [{"verb": "auth token"}]},
	"vault": {"print": [{"verb": "print token"}]},
	"docker-credential-desktop": {"get": [{"verb": "get"}], "list": [{"verb": "list"}]},
	"docker-credential-osxkeychain": {"get": [{"verb": "get"}]},
	"docker-credential-secretservice": {"get": [{"verb": "get"}]},
	"docker-credential-pass": {"get": [{"verb": "get"}]},
	"docker-credential-wincred": {"get": [{"verb": "get"}]},
	"docker-credential-gcloud": {"get": [{"verb": "get"}]},
	"docker-credential-ecr-login": {"get": [{"verb": "get"}]},
	"docker-credential-gcr": {"get": [{"verb": "get"}]},
	"docker-credential-acr-env": {"get": [{"verb": "get"}]},
}

# token_printers are the same rows as a list, each with its "tool", for
# rules elsewhere that go through them (network.rego's leaks_from).
token_printers := [object.union(row, {"tool": tool}) |
	some tool, verbs in token_printer_index
	some rows in verbs
	some row in rows
]

deny contains {"id": "tokens.print", "msg": msg} if {
	"tokens" in input.agentjail.kinds
	some cmd in commands
	some words in invocations(cmd)
	verbs := token_printer_index[words[0]]
	some i, w in words
	i > 0
	some row in verbs[w]
	token_verb_at(words, i, row)
	token_flags(cmd, row)
	msg := sprintf("Blocked: `%s` prints a stored credential (token, password or key). Use the tool that needs it directly (gh, git, aws, docker), or ask the user for the specific non-secret value you need.", [full_text(cmd)])
}

# token_verb(words, row): words (a tool and its verbs) run row's verb.
token_verb(words, row) if {
	some i, _ in words
	i > 0
	token_verb_at(words, i, row)
}

# token_verb_at(words, i, row): row's verb starts at words[i]; a verb
# with an "arg" comes first, and a later word matches it.
token_verb_at(words, i, row) if {
	not row.arg
	want := split(row.verb, " ")
	array.slice(words, i, i + count(want)) == want
}

token_verb_at(words, 1, row) if {
	want := split(row.verb, " ")
	array.slice(words, 1, 1 + count(want)) == want
	some w in array.slice(words, 1 + count(want), count(words))
	regex.match(row.arg, w)
}

token_flags(_, row) if not row.flags

token_flags(cmd, row) if has_option(cmd, row.flags)

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
# one needs the user's approval. Cloud and SaaS secret managers (vault,
# aws secretsmanager, doppler ...) are rows of access_verbs (cloudiam.rego).
ask contains {"id": "tokens.secret_store", "msg": msg} if {
	"tokens" in input.agentjail.kinds
	some cmd in commands
	some words in invocations(cmd)
	words[0] in {"npm", "secret-tool", "kubectl", "oc"} # the tools reads_secret_store knows
	reads_secret_store(cmd, words)
	msg := sprintf("`%s` reads secrets out of a secret store; the user has to approve it.", [full_text(cmd)])
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
	not secret_metadata_only(v)
}

# A template that names only a secret's name, labels, type or kind
# (-o jsonpath='{.type}', custom-columns=NAME:.metadata.name) prints no
# value; one that names its data, its annotations (kubectl apply keeps
# the whole secret in one), its whole metadata or no field prints them.
secret_metadata_only(v) if {
	regex.match(`^(jsonpath|go-template|custom-columns)`, v)
	regex.match(`\.(metadata\.|type\b|kind\b|apiVersion\b)`, v)
	not regex.match(`(?i)(^|[^a-z])(string|binary)?data\b|annotations|managedFields|\.metadata([^.]|$)`, v)
}
