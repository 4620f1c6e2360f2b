package agentjail

# Secrets leaving through version control: a commit made with the secret
# scanner switched off, a project key file posted as a gist, local code
# pushed into a new public repository. Staging a key file (git add .env)
# is secrets.key_file's; a commit of what is already staged is not judged
# (the index is not part of the call).

# secret_scanners are the pre-commit hooks that look for keys in what is
# committed; pre-commit's SKIP names the hooks it leaves out.
secret_scanners := {"gitleaks", "detect-secrets", "trufflehog", "ggshield", "talisman", "git-secrets", "secretlint", "detect-private-key", "ripsecrets"}

# Variables that switch a scanner off for one command, with the value
# that does it ("" for any value).
scanner_off_vars := {"SKIP": "", "GITLEAKS_ENABLE": "^(0|false|no)$", "SKIP_GITLEAKS": "", "TALISMAN_DISABLE": ""}

ask contains {"id": "git.scanner_skipped", "msg": msg} if {
	"git" in input.agentjail.names
	some cmd in commands
	cmd.name == "git"
	cmd.operands[0] in {"commit", "push", "merge", "rebase", "cherry-pick", "am"}
	some v, value in cmd.assigns
	scanner_off(v, value)
	msg := sprintf("`%s=%s git %s` switches off the hook that stops keys from being committed; the user has to approve it. Remove the secret from the change instead, or mark a false positive in the scanner's allow list.", [v, value, cmd.operands[0]])
}

scanner_off(v, value) if {
	v == "SKIP"
	some hook in split(value, ",")
	trim_space(hook) in secret_scanners
}

scanner_off(v, value) if {
	v != "SKIP"
	pattern := scanner_off_vars[v]
	regex.match(pattern, lower(value))
}

# gh gist create FILE: a gist is readable by anyone with its address
# (public ones by everyone), and its history keeps what was removed.
deny contains {"id": "git.secret_gist", "msg": msg} if {
	"gh" in input.agentjail.names
	some cmd in commands
	cmd.name == "gh"
	cmd.operands[0] == "gist"
	cmd.operands[1] in {"create", "new", "edit"}
	some p in cmd.paths
	key_file(p)
	not harmless_key_file(p)
	msg := sprintf("Blocked: this posts %s, a file that usually holds secrets, as a gist on GitHub, where it stays readable and in history. Share .env.example or the variable names instead.", [shown(p)])
}

# gh repo create --public --source DIR --push: the local history,
# with whatever it ever held, becomes public at once.
ask contains {"id": "git.public_repo", "msg": msg} if {
	"gh" in input.agentjail.names
	some cmd in commands
	cmd.name == "gh"
	cmd.operands[0] == "repo"
	cmd.operands[1] == "create"
	has_flag(cmd, {"public"})
	public_repo_pushes(cmd)
	msg := "`gh repo create --public` with this folder's code publishes its whole history, secrets ever committed included; the user has to approve it (or create it --private)."
}

public_repo_pushes(cmd) if has_flag(cmd, {"push"})

public_repo_pushes(cmd) if has_flag(cmd, {"source", "s"})

public_repo_pushes(cmd) if {
	some a in cmd.args
	startswith(a, "--source=")
}
