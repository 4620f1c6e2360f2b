package agentjail

# Credentials used where the agent should have none: a token written
# out on the command line (ghp_…, xoxp-…, AKIA…, a JWT), a cloud or forge
# credential variable set to a literal, a token, cookie or key file from
# a temp or hidden folder handed to a client (T1550, T1078.004). The
# model has seen such a credential, and using it acts as whoever it
# belongs to: the user approves. Credentials in the user's own config,
# used by the tools themselves, are not this.

# A token by its shape, long enough not to be a word.
inline_token_pattern := `(^|[^A-Za-z0-9])(gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}|glpat-[A-Za-z0-9_-]{20,}|xox[abprs]-[A-Za-z0-9-]{10,}|(AKIA|ASIA)[A-Z0-9]{16}|sk_live_[A-Za-z0-9]{16,}|AIza[0-9A-Za-z_-]{35}|ya29\.[0-9A-Za-z_-]{20,}|eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*)`

# Variables whose value is a cloud or forge credential.
credential_variables := {
	"AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "GH_TOKEN", "GITHUB_TOKEN", "GITLAB_TOKEN", "GL_TOKEN",
	"SLACK_TOKEN", "AZURE_CLIENT_SECRET", "ARM_CLIENT_SECRET", "GOOGLE_OAUTH_ACCESS_TOKEN", "CLOUDSDK_AUTH_ACCESS_TOKEN",
	"DIGITALOCEAN_TOKEN", "HCLOUD_TOKEN", "VAULT_TOKEN", "NPM_TOKEN", "KUBE_TOKEN", "OKTA_API_TOKEN",
}

# Options whose value is a credential or a file that holds one.
credential_file_options := {"--token", "--access-token-file", "--token-file", "-b", "--cookie", "--load-cookies", "--private-key", "--key-file", "--identity-file", "--credential-file", "--credentials"}

# Each rule first looks at the whole command line once, so a call with
# nothing of the kind costs one match.
ask contains {"id": "tokens.borrowed", "msg": msg} if {
	regex.match(inline_token_pattern, input.agentjail.command)
	some cmd in commands
	some w in array.concat(cmd.args, [v | some _, v in cmd.assigns])
	regex.match(inline_token_pattern, w)
	msg := sprintf("`%s` is given a credential written out on the line (a token, key or session); it acts as whoever the credential belongs to. The user has to approve it.", [cmd.name])
}

ask contains {"id": "tokens.borrowed", "msg": msg} if {
	regex.match(`(AWS_|TOKEN|SECRET)[A-Z_]*=`, input.agentjail.command)
	some cmd in commands
	some k, v in cmd.assigns
	k in credential_variables
	not startswith(v, "$")
	v != ""
	msg := sprintf("`%s` runs with %s set to a credential written on the line; it acts as whoever the credential belongs to. The user has to approve it.", [cmd.name, k])
}

# A Kerberos ticket cache named for the programs that follow: they log
# in as whoever the tickets belong to (ATT&CK T1550.003).
ask contains {"id": "tokens.borrowed", "msg": msg} if {
	contains(input.agentjail.command, "KRB5CCNAME")
	some cmd in commands
	some k, v in object.union(object.get(cmd, "env", {}), object.get(cmd, "assigns", {}))
	k == "KRB5CCNAME"
	v != ""
	msg := sprintf("This call runs %s with the Kerberos tickets in %s, logged in to the realm's services as whoever the tickets belong to; the user has to approve it.", [env_target(cmd), v])
}

# A secret given on the line to a cloud CLI's own options: a storage
# account's key or shared-access token, a service principal's password.
# A variable ($AZ_SECRET) or a file (@path) names one the user keeps.
inline_secret_options := {
	"az": {"--sas-token", "--account-key", "--connection-string", "--client-secret"},
	"az login": {"-p", "--password"},
	"azcopy": {"--sas-token"},
}

ask contains {"id": "tokens.borrowed", "msg": msg} if {
	some cmd in commands
	some key in {cmd.name, verb_key(cmd)}
	opts := inline_secret_options[key]
	some v in option_values(cmd, opts)
	not regex.match(`^[$@~/]|^\.\.?/`, v)
	count(v) >= 8
	msg := sprintf("`%s` is given a credential written out on the line; it acts as whoever the credential belongs to. The user has to approve it.", [clip_text(full_text(cmd))])
}

# verb_key(cmd): the program and its first positional word (az login).
verb_key(cmd) := concat(" ", [cmd.name, positional(cmd)[0]]) if count(positional(cmd)) > 0

else := cmd.name

# gcloud acting as a service account through the user's own login.
ask contains {"id": "tokens.borrowed", "msg": msg} if {
	contains(input.agentjail.command, "impersonate-service-account")
	some cmd in commands
	cmd.name == "gcloud"
	some v in option_values(cmd, {"--impersonate-service-account"})
	msg := sprintf("`%s` acts as the service account %s, with its permissions rather than the user's; the user has to approve it.", [clip_text(full_text(cmd)), v])
}

# Another session's ssh-agent socket: its keys sign for whoever holds
# it (ATT&CK T1563.001).
ask contains {"id": "tokens.borrowed", "msg": msg} if {
	contains(input.agentjail.command, "SSH_AUTH_SOCK")
	some cmd in commands
	some k, v in object.union(object.get(cmd, "env", {}), object.get(cmd, "assigns", {}))
	k == "SSH_AUTH_SOCK"
	regex.match(`^/(tmp|var/tmp|run/user/[0-9]+)/|^/private/tmp/`, v)
	msg := sprintf("This call hands %s the ssh-agent socket %s, another session's keys; the user has to approve it.", [env_target(cmd), v])
}

# A key from a temp or hidden folder used as an identity (ssh -i).
ask contains {"id": "tokens.borrowed", "msg": msg} if {
	"network" in input.agentjail.kinds
	some cmd in commands
	cmd.name in {"ssh", "scp", "sftp", "autossh", "rsync"}
	some u in object.get(cmd, "uses", [])
	not startswith(u, home_slash)
	borrowed_file(u)
	not only_loopback(cmd)
	msg := sprintf("`%s` logs in with the key %s, which is no key of the user's; the user has to approve it.", [cmd.name, u])
}

# env_target(cmd): what a variable cmd sets applies to, for messages.
env_target(cmd) := "the programs started after it" if cmd.name in {"export", "declare", "typeset"}

else := sprintf("`%s`", [cmd.program])

# A credential file from a temp or hidden folder, or read by $(cat …),
# handed to a client.
ask contains {"id": "tokens.borrowed", "msg": msg} if {
	regex.match(`--token|--access-token-file|--token-file|(^|\s)-b\s|--cookie|--load-cookies|--private-key|--key-file|--identity-file|--credential`, input.agentjail.command)
	some cmd in commands
	some v in option_values(cmd, credential_file_options)
	borrowed_file(v)
	not only_loopback(cmd)
	msg := sprintf("`%s` is given a credential from %s, which is no tool's own credential file; the user has to approve it.", [cmd.name, v])
}

ask contains {"id": "tokens.borrowed", "msg": msg} if {
	contains(input.agentjail.command, "$(")
	some cmd in commands
	some w in cmd.args
	regex.match(`(?i)authori[sz]ation:\s*(bearer|token|basic)\s+\$\((cat|<)\s+\S*(/tmp/|/\.|\.loot|stolen|leak)`, w)
	not only_loopback(cmd)
	msg := sprintf("`%s` sends a credential read out of a file that is no tool's own; the user has to approve it.", [cmd.name])
}

borrowed_file(v) if regex.match(`^(/tmp/|/var/tmp/|/dev/shm/)|/\.(loot|cache/\.)|stolen|leak|loot`, v)

borrowed_file(v) if regex.match(`^\$\((cat|<)\s`, v)
