package agentjail

# Cloud and SaaS accounts reached through the credentials already on the
# machine: commands that mint a credential (an access key, a service
# account key, a temporary session), widen who can do what (policies,
# role bindings, users, deploy keys, collaborators), make data public, or
# read a value out of a secret manager. Listing names, describing, and
# running a program with the secrets injected stay allowed.

# access_verbs: per tool, per word, the verbs that do one of those acts,
# found wherever they stand after the tool's options (gcloud alpha
# secrets versions access, gcloud storage buckets add-iam-policy-binding).
# Keyed by tool and word like token_printer_index, so a call looks up its
# own words and most aws or gh calls match nothing. A row:
#   verb    the words, starting with the key ("*": any call of the tool)
#   act     credential, audit_off (deny); grant, public, reveal (ask)
#   alone   no positional word may follow the verb (doppler secrets)
#   secret  a positional word after the verb must name a secret, as
#           environment.rego's secret_var_pattern judges variable names
#           (terraform output db_password, not terraform output vpc_id)
#   flags   one of these options must be given (--with-decryption)
#   unless  none of these options may be given (--only-names)
#   match   regular expressions the arguments, joined by spaces, must
#           all match (--acl public-read, --cidr 0.0.0.0/0)
# A user's policy adds a tool by adding a key to this object.
access_verbs := {
	"aws": {
		"iam": [
			{"verb": "iam create-access-key", "act": "credential"},
			{"verb": "iam create-login-profile", "act": "credential"},
			{"verb": "iam update-login-profile", "act": "credential"},
			{"verb": "iam create-service-specific-credential", "act": "credential"},
			{"verb": "iam reset-service-specific-credential", "act": "credential"},
			{"verb": "iam create-user", "act": "grant"},
			{"verb": "iam create-role", "act": "grant"},
			{"verb": "iam attach-user-policy", "act": "grant"},
			{"verb": "iam attach-role-policy", "act": "grant"},
			{"verb": "iam attach-group-policy", "act": "grant"},
			{"verb": "iam put-user-policy", "act": "grant"},
			{"verb": "iam put-role-policy", "act": "grant"},
			{"verb": "iam put-group-policy", "act": "grant"},
			{"verb": "iam update-assume-role-policy", "act": "grant"},
			{"verb": "iam add-user-to-group", "act": "grant"},
			{"verb": "iam create-policy-version", "act": "grant"},
			{"verb": "iam set-default-policy-version", "act": "grant"},
			{"verb": "iam add-role-to-instance-profile", "act": "grant"},
			{"verb": "iam upload-ssh-public-key", "act": "grant"},
			{"verb": "iam create-saml-provider", "act": "grant"},
			{"verb": "iam create-open-id-connect-provider", "act": "grant"},
		],
		"sts": [
			{"verb": "sts get-session-token", "act": "credential"},
			{"verb": "sts get-federation-token", "act": "credential"},
			{"verb": "sts assume-role", "act": "credential"},
			{"verb": "sts assume-role-with-web-identity", "act": "credential"},
			{"verb": "sts assume-role-with-saml", "act": "credential"},
		],
		"sso": [{"verb": "sso get-role-credentials", "act": "credential"}],
		"s3api": [
			{"verb": "s3api put-bucket-acl", "act": "public", "match": [`(?i)public-read|authenticated-read|/global/(AllUsers|AuthenticatedUsers)`]},
			{"verb": "s3api put-object-acl", "act": "public", "match": [`(?i)public-read|authenticated-read|/global/(AllUsers|AuthenticatedUsers)`]},
			{"verb": "s3api put-bucket-policy", "act": "grant"},
			{"verb": "s3api put-public-access-block", "act": "public", "match": [`(?i)(=|":\s*)false`]},
			{"verb": "s3api delete-public-access-block", "act": "public"},
		],
		"s3control": [
			{"verb": "s3control put-public-access-block", "act": "public", "match": [`(?i)(=|":\s*)false`]},
			{"verb": "s3control delete-public-access-block", "act": "public"},
		],
		"ec2": [
			{"verb": "ec2 modify-snapshot-attribute", "act": "public", "match": [`(?i)(^|[\s=:"])all($|[\s}\]"',])`]},
			{"verb": "ec2 modify-image-attribute", "act": "public", "match": [`(?i)(^|[\s=:"])all($|[\s}\]"',])`]},
			{"verb": "ec2 authorize-security-group-ingress", "act": "public", "match": [`0\.0\.0\.0/0|::/0`]},
		],
		"rds": [
			{"verb": "rds modify-db-snapshot-attribute", "act": "public", "match": [`(?i)(^|[\s=:"])all($|[\s}\]"',])`]},
			{"verb": "rds modify-db-cluster-snapshot-attribute", "act": "public", "match": [`(?i)(^|[\s=:"])all($|[\s}\]"',])`]},
		],
		"lambda": [
			# The whole configuration, or its environment, holds the
			# function's secrets (as heroku config does an app's).
			{"verb": "lambda get-function-configuration", "act": "reveal", "unless": {"query"}},
			{"verb": "lambda get-function-configuration", "act": "reveal", "match": [`(?i)--query[ =]\S*environment`]},
			{"verb": "lambda add-permission", "act": "public", "match": [`--principal[ =]\*`]},
			{"verb": "lambda create-function-url-config", "act": "public", "match": [`(?i)--auth-type[ =]NONE`]},
		],
		"cloudtrail": [
			{"verb": "cloudtrail stop-logging", "act": "audit_off"},
			{"verb": "cloudtrail delete-trail", "act": "audit_off"},
		],
		"configservice": [
			{"verb": "configservice stop-configuration-recorder", "act": "audit_off"},
			{"verb": "configservice delete-configuration-recorder", "act": "audit_off"},
		],
		"guardduty": [
			{"verb": "guardduty delete-detector", "act": "audit_off"},
			{"verb": "guardduty update-detector", "act": "audit_off", "flags": {"no-enable"}},
		],
		"secretsmanager": [
			{"verb": "secretsmanager get-secret-value", "act": "reveal"},
			{"verb": "secretsmanager batch-get-secret-value", "act": "reveal"},
		],
		"ssm": [
			{"verb": "ssm get-parameter", "act": "reveal", "flags": {"with-decryption"}},
			{"verb": "ssm get-parameters", "act": "reveal", "flags": {"with-decryption"}},
			{"verb": "ssm get-parameters-by-path", "act": "reveal", "flags": {"with-decryption"}},
			{"verb": "ssm get-parameter-history", "act": "reveal", "flags": {"with-decryption"}},
		],
	},
	"aws-vault": {"export": [{"verb": "export", "act": "credential"}]},
	"gcloud": {
		"iam": [{"verb": "iam service-accounts keys create", "act": "credential"}],
		"add-iam-policy-binding": [
			{"verb": "add-iam-policy-binding", "act": "grant"},
			{"verb": "add-iam-policy-binding", "act": "public", "match": [`(?i)allUsers|allAuthenticatedUsers`]},
		],
		"set-iam-policy": [{"verb": "set-iam-policy", "act": "grant"}],
		"secrets": [{"verb": "secrets versions access", "act": "reveal"}],
		"logging": [
			{"verb": "logging sinks delete", "act": "audit_off"},
			{"verb": "logging sinks update", "act": "audit_off", "flags": {"disabled"}},
		],
	},
	"gsutil": {
		"iam": [
			{"verb": "iam ch", "act": "public", "match": [`(?i)allUsers|allAuthenticatedUsers`]},
			{"verb": "iam set", "act": "grant"},
		],
		"acl": [{"verb": "acl ch", "act": "public", "match": [`(?i)allUsers|allAuthenticatedUsers`]}],
	},
	"az": {
		"ad": [
			{"verb": "ad sp create-for-rbac", "act": "credential"},
			{"verb": "ad sp credential reset", "act": "credential"},
			{"verb": "ad app credential reset", "act": "credential"},
			{"verb": "ad user create", "act": "grant"},
			{"verb": "ad group member add", "act": "grant"},
			{"verb": "ad app permission grant", "act": "grant"},
			{"verb": "ad app permission admin-consent", "act": "grant"},
		],
		"role": [{"verb": "role assignment create", "act": "grant"}],
		"keyvault": [
			{"verb": "keyvault set-policy", "act": "grant"},
			{"verb": "keyvault secret show", "act": "reveal"},
			{"verb": "keyvault secret download", "act": "reveal"},
		],
		"storage": [
			{"verb": "storage account keys list", "act": "credential"},
			{"verb": "storage container set-permission", "act": "public", "match": [`(?i)--public-access[ =](blob|container)`]},
			{"verb": "storage account update", "act": "public", "match": [`(?i)--allow-blob-public-access[ =]true`]},
		],
		"acr": [{"verb": "acr credential show", "act": "credential"}],
		"monitor": [{"verb": "monitor diagnostic-settings delete", "act": "audit_off"}],
	},
	"gh": {
		"repo": [{"verb": "repo deploy-key add", "act": "grant"}],
		"ssh-key": [{"verb": "ssh-key add", "act": "grant"}],
		# gh api sends a POST as soon as it is given fields.
		"api": [{"verb": "api", "act": "grant", "match": [
			`(^|\s)/?(repos/[^/\s]+/[^/\s]+/(collaborators/|keys)|orgs/[^/\s]+/(memberships/|invitations|outside_collaborators/|teams/[^/\s]+/memberships/)|user/(keys|ssh_signing_keys))`,
			`(?i)(^|\s)(-X|--method)[ =]?(PUT|POST|PATCH)(\s|$)|(^|\s)(-f|-F|--field|--raw-field|--input)(\s|=|$)`,
		]}],
	},
	"glab": {
		"token": [{"verb": "token create", "act": "credential"}],
		"deploy-key": [{"verb": "deploy-key add", "act": "grant"}],
		"ssh-key": [{"verb": "ssh-key add", "act": "grant"}],
		# glab api, like gh api, sends a POST as soon as it is given fields.
		"api": [{"verb": "api", "act": "grant", "match": [
			`(^|\s)/?(projects|groups)/\S+/(members|invitations|deploy_keys|access_tokens)`,
			`(?i)(^|\s)(-X|--method)[ =]?(PUT|POST|PATCH)(\s|$)|(^|\s)(-f|-F|--field|--raw-field|--input)(\s|=|$)`,
		]}],
	},
	# kubectl create token (a short-lived service-account token) is
	# containers.rego's k8s.token, an ask.
	"kubectl": {"create": [
		{"verb": "create clusterrolebinding", "act": "grant"},
		{"verb": "create rolebinding", "act": "grant"},
	]},
	"vault": vault_verbs,
	"bao": vault_verbs, # OpenBao, vault's fork, keeps its commands
	"conjur": {"variable": [{"verb": "variable get", "act": "reveal"}]},
	"akeyless": {"get-secret-value": [{"verb": "get-secret-value", "act": "reveal"}]},
	# Infrastructure state and outputs hold the passwords and keys the
	# code created: all outputs at once, or one whose name says so.
	"terraform": {
		"output": [{"verb": "output", "act": "reveal", "alone": true, "flags": {"json"}}, {"verb": "output", "act": "reveal", "secret": true}],
		"state": [{"verb": "state pull", "act": "reveal"}],
	},
	"tofu": {
		"output": [{"verb": "output", "act": "reveal", "alone": true, "flags": {"json"}}, {"verb": "output", "act": "reveal", "secret": true}],
		"state": [{"verb": "state pull", "act": "reveal"}],
	},
	"pulumi": {
		"stack": [
			{"verb": "stack output", "act": "reveal", "flags": {"show-secrets"}},
			{"verb": "stack export", "act": "reveal", "flags": {"show-secrets"}},
		],
		"config": [{"verb": "config", "act": "reveal", "flags": {"show-secrets"}}, {"verb": "config get", "act": "reveal", "secret": true}],
	},
	"doppler": {"secrets": [
		{"verb": "secrets", "act": "reveal", "alone": true, "unless": {"only-names"}},
		{"verb": "secrets get", "act": "reveal"},
		{"verb": "secrets download", "act": "reveal"},
	]},
	"infisical": {
		"export": [{"verb": "export", "act": "reveal"}],
		"secrets": [{"verb": "secrets", "act": "reveal", "alone": true}, {"verb": "secrets get", "act": "reveal"}],
	},
	"railway": {"variables": [
		{"verb": "variables", "act": "reveal", "alone": true, "unless": {"set"}},
		{"verb": "variables get", "act": "reveal"},
	]},
	"heroku": {"config:get": [{"verb": "config:get", "act": "reveal"}]},
	"vercel": {"env": [{"verb": "env pull", "act": "reveal"}]},
	"netlify": {
		"env:get": [{"verb": "env:get", "act": "reveal"}],
		"env:list": [{"verb": "env:list", "act": "reveal", "flags": {"plain", "json"}}],
	},
	"firebase": {"functions:config:get": [{"verb": "functions:config:get", "act": "reveal"}]},
	"sops": {
		"*": [{"act": "reveal", "flags": {"d", "decrypt"}}],
		"decrypt": [{"verb": "decrypt", "act": "reveal"}],
	},
	"chamber": {
		"read": [{"verb": "read", "act": "reveal"}],
		"export": [{"verb": "export", "act": "reveal"}],
		"env": [{"verb": "env", "act": "reveal"}],
	},
	"bws": {"secret": [{"verb": "secret get", "act": "reveal"}, {"verb": "secret list", "act": "reveal"}]},
	"oci": {"secrets": [{"verb": "secrets secret-bundle get", "act": "reveal"}]},
	"kubeseal": {"*": [{"act": "reveal", "flags": {"recovery-unseal"}}]},
}

vault_verbs := {
	"kv": [{"verb": "kv get", "act": "reveal"}],
	"read": [{"verb": "read", "act": "reveal"}],
	"token": [{"verb": "token create", "act": "credential"}],
}

program_group contains [prog, "access"] if some prog, _ in access_verbs

# access_hits are the [command, row] pairs of the call: each command
# read as a tool and its verbs (invocations: npx vercel env pull too).
# Worked out once per call for the four rules below.
access_hits contains [cmd, row] if {
	"access" in input.agentjail.kinds
	some cmd in commands
	some words in invocations(cmd)
	verbs := access_verbs[words[0]]
	some row in access_rows(verbs, words)
	access_options(cmd, row)
}

access_rows(verbs, words) := {row |
	some i, w in words
	i > 0
	some row in verbs[w]
	access_verb_at(words, i, row)
} | {row | some row in object.get(verbs, "*", [])}

# access_verb_at(words, i, row): row's verb starts at words[i] (and,
# for an "alone" row, ends the words).
access_verb_at(words, i, row) if {
	want := split(row.verb, " ")
	array.slice(words, i, i + count(want)) == want
	not row.alone
	not row.secret
}

access_verb_at(words, i, row) if {
	want := split(row.verb, " ")
	array.slice(words, i, i + count(want)) == want
	row.secret
	some w in array.slice(words, i + count(want), count(words))
	regex.match(secret_var_pattern, w)
}

access_verb_at(words, i, row) if {
	want := split(row.verb, " ")
	array.slice(words, i, i + count(want)) == want
	row.alone
	count(words) == i + count(want)
}

access_options(cmd, row) if {
	access_flags(cmd, row)
	not access_unless(cmd, row)
	line := concat(" ", cmd.args)
	every re in object.get(row, "match", []) {
		regex.match(re, line)
	}
}

access_flags(_, row) if not row.flags

access_flags(cmd, row) if has_option(cmd, row.flags)

access_unless(cmd, row) if has_option(cmd, row.unless)

deny contains {"id": "cloud.credential_create", "msg": msg} if {
	"access" in input.agentjail.kinds # answered by the rule index
	some [cmd, row] in access_hits
	row.act == "credential"
	msg := sprintf("Blocked: `%s` creates or prints a new credential for a cloud or SaaS account (an access key, a service account key, a token, a password); it would land in the transcript and outlive the task. Use the credentials already configured (--profile, the tool's login), or ask the user to create the credential and store it where the tool reads it.", [full_text(cmd)])
}

# T1562.008: the account's audit trail switched off or deleted; what
# happens next, the agent's acts included, leaves no record.
deny contains {"id": "cloud.audit_off", "msg": msg} if {
	"access" in input.agentjail.kinds # answered by the rule index
	some [cmd, row] in access_hits
	row.act == "audit_off"
	msg := sprintf("Blocked: `%s` switches off or deletes a cloud account's audit logging or threat detection, and what happens meanwhile is never recorded. Tell the user the change you need.", [full_text(cmd)])
}

ask contains {"id": "cloud.access_grant", "msg": msg} if {
	"access" in input.agentjail.kinds # answered by the rule index
	some [cmd, row] in access_hits
	row.act == "grant"
	msg := sprintf("`%s` widens who can do what in a cloud or SaaS account (a user, role, policy, key or collaborator); the user has to approve it. Reading policies (get-*, list-*) needs no approval.", [full_text(cmd)])
}

ask contains {"id": "cloud.public_access", "msg": msg} if {
	"access" in input.agentjail.kinds # answered by the rule index
	some [cmd, row] in access_hits
	row.act == "public"
	msg := sprintf("`%s` makes cloud data or a service reachable by anyone on the internet; the user has to approve it.", [full_text(cmd)])
}

ask contains {"id": "tokens.secret_store", "msg": msg} if {
	"access" in input.agentjail.kinds # answered by the rule index
	some [cmd, row] in access_hits
	row.act == "reveal"
	msg := sprintf("`%s` reads secret values out of a secret manager into the transcript; the user has to approve it. Listing the names needs no approval, and a program that needs the values can be started through the manager (doppler run -- CMD).", [full_text(cmd)])
}
