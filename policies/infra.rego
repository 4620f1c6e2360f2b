package agentjail

# Infrastructure: deleting clusters' workloads, cloud resources, volumes,
# stacks and deployed apps (ask: operators do this, but a human must
# approve each time, and a dry run or a listing stays allowed).

# infra_destroys lists, per tool, the verbs (words after the tool, past
# its global options, in order) that delete infrastructure, and the
# flags without which the verb is harmless ("flags") or with which it is
# ("unless"). "match" is a regular expression on the word at index "at".
infra_destroys := [
	{"tool": "kubectl", "verbs": ["delete", "drain"]},
	{"tool": "kubectl", "verbs": ["replace"], "flags": ["force"]},
	{"tool": "kubectl", "verbs": ["apply"], "flags": ["prune"]},
	{"tool": "kubectl", "verbs": ["scale"], "zero": true},
	{"tool": "kubectl", "verbs": ["patch"], "zero_patch": true},
	{"tool": "oc", "verbs": ["patch"], "zero_patch": true},
	{"tool": "oc", "verbs": ["delete", "drain"]},
	{"tool": "oc", "verbs": ["scale"], "zero": true},
	{"tool": "helm", "verbs": ["uninstall", "delete", "del", "un"]},
	{"tool": "docker", "verbs": ["system prune"], "flags": ["a", "all", "volumes"]},
	{"tool": "docker", "verbs": ["volume rm", "volume remove", "volume prune", "system reset"]},
	{"tool": "docker", "verbs": ["compose down", "stack rm"], "flags": ["v", "volumes"]},
	{"tool": "docker-compose", "verbs": ["down"], "flags": ["v", "volumes"]},
	{"tool": "podman", "verbs": ["system prune"], "flags": ["a", "all", "volumes"]},
	{"tool": "podman", "verbs": ["volume rm", "volume prune", "system reset", "pod rm"]},
	{"tool": "nerdctl", "verbs": ["volume rm", "volume prune", "system prune"]},
	{"tool": "terraform", "verbs": ["destroy", "state rm", "workspace delete", "state replace-provider"]},
	{"tool": "terraform", "verbs": ["apply"], "flags": ["destroy"]},
	{"tool": "tofu", "verbs": ["destroy", "state rm", "workspace delete"]},
	{"tool": "tofu", "verbs": ["apply"], "flags": ["destroy"]},
	{"tool": "terragrunt", "verbs": ["destroy", "state rm"]},
	{"tool": "terragrunt", "verbs": ["apply"], "flags": ["destroy"]},
	{"tool": "cdk", "verbs": ["destroy"]},
	{"tool": "cdktf", "verbs": ["destroy"]},
	{"tool": "serverless", "verbs": ["remove"]},
	{"tool": "sls", "verbs": ["remove"]},
	{"tool": "sst", "verbs": ["remove"]},
	{"tool": "pulumi", "verbs": ["destroy", "down", "stack rm", "state delete"]},
	{"tool": "amplify", "verbs": ["delete"]},
	{"tool": "copilot", "verbs": ["app delete", "svc delete", "env delete", "job delete"]},
	{"tool": "eksctl", "verbs": ["delete"]},
	{"tool": "kind", "verbs": ["delete clusters"]},
	{"tool": "aws", "at": 1, "match": `^(delete-|terminate-|deregister-|remove-|purge-|rb$)`},
	{"tool": "aws", "verbs": ["s3 rm"], "flags": ["recursive"]},
	{"tool": "aws", "verbs": ["s3 sync", "s3 mv"], "only": ["delete"]},
	{"tool": "aws", "verbs": ["s3 rb"]},
	{"tool": "gsutil", "verbs": ["rm"], "flags": ["r", "R", "a"]},
	{"tool": "gsutil", "verbs": ["rb"]},
	{"tool": "gsutil", "verbs": ["rsync"], "flags": ["d"]},
	{"tool": "gcloud", "verbs": ["delete", "storage rm", "rm"]},
	{"tool": "az", "verbs": ["delete", "purge"]},
	{"tool": "doctl", "verbs": ["delete", "rm", "d"]},
	{"tool": "heroku", "match_any": `^(apps:destroy|destroy|apps:delete|pg:reset|addons:destroy|addons:remove|pg:killall|redis:reset)$`},
	{"tool": "fly", "verbs": ["destroy", "delete", "apps destroy", "volumes destroy", "volumes delete"]},
	{"tool": "flyctl", "verbs": ["destroy", "delete", "apps destroy", "volumes destroy", "volumes delete"]},
	{"tool": "vercel", "verbs": ["remove", "rm", "project rm", "project remove", "domains rm"]},
	{"tool": "netlify", "match_any": `^sites:delete$`},
	{"tool": "firebase", "match_any": `^[a-z]+:(delete|remove)$|^hosting:disable$|^database:set$`},
	{"tool": "supabase", "verbs": ["projects delete", "branches delete"]},
	{"tool": "wrangler", "verbs": ["delete"]},
	{"tool": "railway", "verbs": ["down", "delete"]},
	{"tool": "rclone", "verbs": ["purge", "delete", "rmdirs"]},
	{"tool": "s3cmd", "verbs": ["rb"]},
	{"tool": "s3cmd", "verbs": ["del", "rm"], "flags": ["r", "recursive"]},
	{"tool": "mc", "verbs": ["rb"]},
	{"tool": "mc", "verbs": ["rm"], "flags": ["r", "recursive"]},
]

ask contains {"id": "infra.destroy", "msg": msg} if {
	"infra" in input.agentjail.kinds
	some cmd in commands
	not dry_run(cmd)
	some words in invocations(cmd)
	some row in infra_destroys
	words[0] == row.tool
	infra_verb(cmd, words, row)
	infra_flags(cmd, row)
	not recreated_pod(cmd, words)
	msg := sprintf("`%s` deletes infrastructure or its data (workloads, volumes, stacks, buckets, apps); the user has to approve it. Run the plan, diff or --dry-run form first and show it.", [full_text(cmd)])
}

infra_verb(_, words, row) if {
	some verb in row.verbs
	has_words(array.slice(words, 1, count(words)), verb)
}

infra_verb(_, words, row) if regex.match(row.match, words[row.at + 1])

infra_verb(_, words, row) if {
	some w in array.slice(words, 1, count(words))
	regex.match(row.match_any, w)
}

infra_flags(cmd, row) if {
	not row.flags
	not row.zero
	not row.zero_patch
	not row.only
}

infra_flags(cmd, row) if {
	not row.only
	has_option(cmd, {f | some f in row.flags})
}

infra_flags(cmd, row) if has_option(cmd, {f | some f in row.only})

# scale --replicas=0 / --replicas 0.
infra_flags(cmd, row) if {
	row.zero
	some v in option_values(cmd, {"--replicas"})
	to_number(v) == 0
}

# patch -p '{"spec":{"replicas":0}}': scaling to zero by another name.
infra_flags(cmd, row) if {
	row.zero_patch
	some v in option_values(cmd, {"-p", "--patch"})
	regex.match(`"?replicas"?\s*:\s*"?0"?\s*[,}]`, v)
}

# The JSON-patch form: [{"op":"replace","path":"/spec/replicas","value":0}].
infra_flags(cmd, row) if {
	row.zero_patch
	some v in option_values(cmd, {"-p", "--patch"})
	contains(v, "/replicas")
	regex.match(`"value"\s*:\s*"?0"?\s*[,}]`, v)
}

# Deleting a named pod only restarts it: its controller makes a new one.
recreated_pod(cmd, words) if {
	words[0] in {"kubectl", "oc"}
	words[1] == "delete"
	regex.match(`^(pods?|po)(/.+)?$`, words[2])
	not has_option(cmd, {"all", "A", "all-namespaces", "l", "selector"})
}
