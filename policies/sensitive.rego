package agentjail

# More places that hold credentials, added to secrets.rego's by further
# definitions of secret(p) and key_file(p); searches of the whole home
# directory for secrets; secrets read back out of git history.

# Relative to the home directory.
more_secret_home_pattern := `^(\.config/gh(/hosts\.yml)?|\.config/hub|\.terraformrc|\.terraform\.d/credentials.*|\.composer/auth\.json|\.config/composer/auth\.json|\.config/rclone/rclone\.conf|\.s3cfg|\.boto|\.my\.cnf|\.mylogin\.cnf|\.m2/settings(-security)?\.xml|\.gradle/gradle\.properties|\.cargo/credentials.*|\.local/share/keyrings(/.*)?|\.local/share/kwalletd(/.*)?|\.config/op(/.*)?|\.op(/.*)?|\.config/Bitwarden CLI(/.*)?|\.config/hcloud/cli\.toml|\.config/doctl/config\.yaml|\.fly/config\.yml|\.config/netlify/config\.json|\.netlify/config\.json|\.local/share/com\.vercel\.cli/auth\.json|\.oci/(config|.*\.pem)|\.databrickscfg|\.snowsql/config|\.kaggle/kaggle\.json|\.huggingface/token|\.cache/huggingface/token|\.config/git/credentials|\.dockercfg|\.config/containers/auth\.json|\.wrangler/config/default\.toml|\.config/\.wrangler/config/default\.toml|\.pulumi/credentials\.json|\.config/stripe/config\.toml|\.ngrok2/ngrok\.yml|\.config/ngrok/ngrok\.yml|\.sentryclirc|\.config/helm/registry/config\.json|\.config/sops/age/keys\.txt|\.age/.*|\.config/age/.*|\.gnupg|\.lftp/bookmarks|\.config/filezilla/sitemanager\.xml|\.config/configstore/firebase-tools\.json|\.nuget/NuGet/NuGet\.Config|\.config/NuGet/NuGet\.Config|\.kube/.*\.(ya?ml|conf(ig)?))$`

# home_rel(p) written out: a helper function's call costs more than the
# test, and secret(p) is asked of every unusual path.
secret(p) if {
	startswith(p, home_slash)
	regex.match(more_secret_home_pattern, substring(p, count(home_slash), -1))
}

more_secret_abs_pattern := `^(/etc/ssh/ssh_host_[^/]*_key|/run/secrets(/.*)?|/var/run/secrets(/.*)?|/private/var/run/secrets(/.*)?|/etc/ssl/private(/.*)?|/etc/letsencrypt/(live|archive)/.*/privkey.*\.pem|/etc/kubernetes/(admin|kubelet|controller-manager|scheduler)\.conf|/etc/kubernetes/pki/.*\.key|/var/lib/rancher/k3s/server/(token|cred/.*)|/etc/rancher/k3s/k3s\.yaml)$`

secret(p) if regex.match(more_secret_abs_pattern, p)

# Service-account keys and other JSON credentials kept in a project;
# key stores and keychains; and credential files known by their name
# wherever they are: a copy in a project, a build context or a CI folder
# (deploy/.git-credentials, ctx/.kube/config) holds the same secret as
# the one in HOME. A project's .npmrc and .docker/config.json are not
# here: they are usually registry settings and credential-helper names.
# One pattern, not a definition each: key_file(p) is asked of every
# named path, and each definition entered costs allocations.
key_file(p) if regex.match(`(?i)/([^/]*(service[-_]?account|[-_]sa[-_]key|[-_]sa|gha-creds-[^/]*|adminsdk[^/]*|client[-_]secret[^/]*)\.json|[^/]*\.(kdbx|keychain|keychain-db|gpg|asc|age|p8|mobileprovision)|\.netrc|_netrc|\.git-credentials|\.pgpass|\.vault-token|\.pypirc|\.s3cfg|\.boto|\.my\.cnf|\.aws/credentials|\.kube/config|\.config/gh/hosts\.yml|\.cargo/credentials(\.toml)?|\.terraform\.d/credentials\.tfrc\.json)$`, p)

# A search of the whole home directory, or a credentials folder, for
# secret-looking text reads every secret it finds.
secret_search_pattern := `(?i)(secret|passw(or)?d|passwd|token|api[_-]?key|access[_-]?key|private[_-]?key|aws_secret|BEGIN .*PRIVATE|credential|bearer|auth)`

# search_programs' group narrows the rule's gate ("search" holds git and
# find too); the set is written out in the rule, where a table rule would
# cost each call its evaluation.
search_programs := {"grep", "egrep", "fgrep", "rg", "ag", "ack"}

program_group contains [prog, "text_search"] if some prog in search_programs

deny contains {"id": "secrets.search_home", "msg": msg} if {
	"text_search" in input.agentjail.kinds
	some cmd in commands
	cmd.name in {"grep", "egrep", "fgrep", "rg", "ag", "ack"}
	some a in cmd.args
	secret_search_word(a) # before the paths: most searches look for something else
	not names_of_secret_words(cmd, a)
	some p in cmd.paths
	broad_search_root(p)
	msg := sprintf("Blocked: `%s` searches %s for secrets and would print every key and token it finds. Search the project instead, or ask the user for the value you need.", [cmd.name, pretty(p)])
}

# A recursive search given no folder searches where it runs: the home
# folder, for an agent started there.
deny contains {"id": "secrets.search_home", "msg": msg} if {
	"tree_search" in input.agentjail.kinds
	some cmd in commands
	count(cmd.paths) == 0
	tree_search_roots(cmd)
	some a in cmd.args
	secret_search_word(a)
	broad_search_root(cmd.cwd)
	msg := sprintf("Blocked: `%s` searches %s, where it runs, for secrets and would print every key and token it finds. Search the project instead, or ask the user for the value you need.", [cmd.name, pretty(cmd.cwd)])
}

# secret_search_word(a): a looks for secrets by name (password, token)
# or by their shape (secret_shape_word).
secret_search_word(a) if regex.match(secret_search_pattern, a)

secret_search_word(a) if secret_shape_word(a)

# secret_shape_word(a): a looks for secrets by their shape (AKIA...,
# ghp_..., PRIVATE KEY): even the names of the files that match say
# where live credentials are.
secret_shape_word(a) if regex.match(token_prefix_pattern, a)

secret_shape_word(a) if regex.match(`(?i)(private\s+key|BEGIN\s+(OPENSSH|RSA|DSA|EC|PGP|ENCRYPTED)|xox)`, a)

# names_of_secret_words(cmd, a): cmd shows only the names of the files
# whose text has a secret's name in it (grep -rl password ~): no secret
# is shown.
names_of_secret_words(cmd, a) if {
	shows_names_only(cmd)
	not secret_shape_word(a)
}

# find ~ -name '*.pem' / -name id_rsa: collects key files.
deny contains {"id": "secrets.search_home", "msg": msg} if {
	"find" in input.agentjail.names
	some cmd in commands
	cmd.name == "find"
	some p in cmd.paths
	broad_search_root(p)
	some v in option_values(cmd, {"-name", "-iname", "-path", "-ipath", "-regex"})
	regex.match(`(?i)(id_(rsa|dsa|ecdsa|ed25519)|\.pem|\.key|credentials|\.netrc|\.env|secret|token|\.p12|\.pfx|kubeconfig|\.git-credentials|\.npmrc|\.pypirc)`, v)
	some other in commands
	other.name in {"cat", "head", "tail", "less", "more", "xargs", "tar", "zip", "cp", "curl", "base64", "strings"}
	msg := sprintf("Blocked: this collects key and credential files from all of %s. Ask the user for the value you need.", [pretty(p)])
}

broad_search_root(p) if p == home

broad_search_root(p) if p == "/"

# Every folder that holds credential places (bulk_copy.rego).
broad_search_root(p) if secret_holder(p)

broad_search_root(p) if {
	rel := home_rel(p)
	regex.match(`^(\.config|\.local|\.local/share|Library|Library/Application Support|\.cache)$`, rel)
}

# Any agent's content search tool (Grep, grep_search, grep, rg ...) over
# all of HOME or ~/.config for secret-looking text; the canonical view
# has its pattern and glob whatever the agent names them.
deny contains {"id": "secrets.search_home", "msg": msg} if {
	input.agentjail.tool == "search"
	s := input.agentjail.search
	s.lines
	p := input.agentjail.file_path
	broad_search_root(p)
	some field in ["pattern", "glob"]
	v := s[field]
	v != ""
	regex.match(secret_search_pattern, v)
	msg := sprintf("Blocked: this search of %s for secrets would return every key and token it finds. Search the project instead.", [pretty(p)])
}

deny contains {"id": "secrets.search_home", "msg": msg} if {
	input.agentjail.tool == "search"
	s := input.agentjail.search
	s.lines
	p := input.agentjail.file_path
	broad_search_root(p)
	v := s.glob
	v != ""
	regex.match(`(?i)(\.npmrc|\.netrc|\.pypirc|credentials|id_rsa|id_ed25519|\.pem|\.env|\.git-credentials|config\.json)`, v)
	msg := sprintf("Blocked: this search of %s reads credential files. Search the project instead.", [pretty(p)])
}

# Secrets read back out of git history: git show REV:.env, git log -p
# -- .env, git cat-file -p REV:id_rsa.
ask contains {"id": "secrets.git_history", "msg": msg} if {
	"git" in input.agentjail.names
	some cmd in commands
	cmd.name == "git"
	some verb in cmd.args
	verb in {"show", "cat-file", "archive"} # a cheap test before git_words works out positional words
	words := git_words(cmd)
	words[0] == verb
	some w in array.slice(words, 1, count(words))
	contains(w, ":")
	path := concat("/", ["", regex.replace(w, `^[^:]*:`, "")])
	history_secret(path)
	msg := sprintf("`git %s %s` prints a file that usually holds secrets, from history; the user has to approve it.", [words[0], w])
}

ask contains {"id": "secrets.git_history", "msg": msg} if {
	"git" in input.agentjail.names
	some cmd in commands
	cmd.name == "git"
	some verb in cmd.args
	verb in {"log", "diff", "show"}
	has_flag(cmd, {"p", "patch", "u"})
	words := git_words(cmd)
	words[0] == verb
	some w in array.slice(words, 1, count(words))
	history_secret(concat("/", ["", w]))
	msg := sprintf("`git %s -p` on %s prints the contents of a file that usually holds secrets; the user has to approve it.", [words[0], w])
}

history_secret(path) if {
	key_file(path)
	not harmless_key_file(path)
}

history_secret(path) if regex.match(`(^|/)(\.aws/credentials|\.netrc|\.git-credentials|\.npmrc|\.pypirc|\.kube/config|id_(rsa|dsa|ecdsa|ed25519))$`, path)
