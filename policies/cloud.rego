package agentjail

# Cloud resources deleted from the command line are gone for everyone.

ask contains {"id": "cloud.destroy", "msg": msg} if {
	"cloud" in input.agentjail.kinds
	some cmd in commands
	destroys_cloud_resource(cmd)
	msg := sprintf("`%s` deletes cloud resources; the user has to approve it.", [concat(" ", array.concat([cmd.name], cmd.args))])
}

destroys_cloud_resource(cmd) if {
	cmd.name == "aws"
	regex.match(`^(delete-|terminate-|deregister-|remove-|rb$|purge-|schedule-key-deletion$|disable-key$)`, cmd.operands[1])
}

destroys_cloud_resource(cmd) if {
	cmd.name == "aws"
	cmd.operands[0] == "s3"
	cmd.operands[1] == "rm"
	recursive(cmd)
}

destroys_cloud_resource(cmd) if {
	cmd.name in {"gcloud", "az", "doctl", "flyctl", "heroku"}
	some op in cmd.operands
	op in {"delete", "destroy", "delete-batch", "purge"}
}

# gcloud storage rm, gsutil rm and rb: objects and buckets.
destroys_cloud_resource(cmd) if {
	cmd.name == "gcloud"
	some i, op in cmd.operands
	op == "storage"
	cmd.operands[i + 1] in {"rm", "buckets"}
	some later in array.slice(cmd.operands, i + 1, count(cmd.operands))
	later in {"rm", "delete"}
}

destroys_cloud_resource(cmd) if {
	cmd.name == "gsutil"
	some op in cmd.operands
	op in {"rm", "rb"}
}

# A sync that deletes, at the destination, what the source lacks.
destroys_cloud_resource(cmd) if {
	cmd.name in {"aws", "gsutil", "gcloud"}
	some op in cmd.operands
	op in {"sync", "rsync"}
	has_option(cmd, {"delete", "d", "delete-unmatched-destination-objects"})
	bucket_url(cmd.operands[count(cmd.operands) - 1])
}

destroys_cloud_resource(cmd) if {
	cmd.name == "kubectl"
	subcommand(cmd) == "delete"
	cmd.operands[1] in {"namespace", "ns", "pv", "pvc", "node", "crd", "all"}
}

destroys_cloud_resource(cmd) if {
	cmd.name in {"terraform", "tofu", "pulumi"}
	subcommand(cmd) == "destroy"
}

# What else a cloud CLI does to what runs in the account, from the rows
# of access_verbs (cloudiam.rego) by their act: a rule each, and what
# its message says the command does.
cloud_act_what := {
	"remote_run": "runs commands on cloud machines or containers (a start-up script, a session, an extension), outside any guard on this machine",
	"scale_zero": "stops or scales to zero a running service, machine, database or cluster",
	"spend": "starts costly machines (GPU and accelerator families, the largest sizes, or fleets) that bill by the hour",
	"share": "shares a snapshot, image or disk with another account, or makes a download address for it",
	"org_policy": "changes the organisation's guard rails (organisation and service control policies, policy assignments)",
	"pull": "copies data out of a production, customer or backup bucket onto this machine",
	"overwrite": "writes over objects in a production or website bucket, which is what its users are served",
	"overwrite_live": "writes over objects in a production or website container, which is what its users are served",
	"replace_code": "replaces the code or runtime of a function or service its name says is production, or with a package from a temp folder",
	"backup_off": "switches off or shortens a database's or bucket's backups, versions or retention, so what is lost later cannot be got back",
	"change_rows": "changes or deletes items of a managed database table in the account, which are what the service's users see",
	"copy_out": "copies a disk, a machine or network traffic into a snapshot, an image or a mirror that can be mounted, started or read elsewhere",
}

# cloud_act_hits: [act, message] for each command of the call that does
# one of cloud_act_what's acts.
cloud_act_hits contains [row.act, msg] if {
	"access" in input.agentjail.kinds
	some [cmd, row] in access_hits
	what := cloud_act_what[row.act]
	cloud_act_applies(cmd, row.act)
	msg := sprintf("`%s` %s; the user has to approve it.", [full_text(cmd), what])
}

ask contains {"id": "cloud.remote_run", "msg": msg} if {
	"access" in input.agentjail.kinds # answered by the rule index
	some ["remote_run", msg] in cloud_act_hits
}

ask contains {"id": "cloud.scale_down", "msg": msg} if {
	"access" in input.agentjail.kinds # answered by the rule index
	some ["scale_zero", msg] in cloud_act_hits
}

ask contains {"id": "cloud.spend", "msg": msg} if {
	"access" in input.agentjail.kinds # answered by the rule index
	some ["spend", msg] in cloud_act_hits
}

ask contains {"id": "cloud.share", "msg": msg} if {
	"access" in input.agentjail.kinds # answered by the rule index
	some ["share", msg] in cloud_act_hits
}

ask contains {"id": "cloud.org_policy", "msg": msg} if {
	"access" in input.agentjail.kinds # answered by the rule index
	some ["org_policy", msg] in cloud_act_hits
}

ask contains {"id": "cloud.data_pull", "msg": msg} if {
	"access" in input.agentjail.kinds # answered by the rule index
	some ["pull", msg] in cloud_act_hits
}

ask contains {"id": "cloud.live_overwrite", "msg": msg} if {
	"access" in input.agentjail.kinds # answered by the rule index
	some ["overwrite", msg] in cloud_act_hits
}

ask contains {"id": "cloud.live_overwrite", "msg": msg} if {
	"access" in input.agentjail.kinds # answered by the rule index
	some ["overwrite_live", msg] in cloud_act_hits
}

ask contains {"id": "cloud.live_overwrite", "msg": msg} if {
	"access" in input.agentjail.kinds # answered by the rule index
	some ["replace_code", msg] in cloud_act_hits
}

ask contains {"id": "cloud.data_change", "msg": msg} if {
	"access" in input.agentjail.kinds # answered by the rule index
	some ["change_rows", msg] in cloud_act_hits
}

ask contains {"id": "cloud.backup_off", "msg": msg} if {
	"access" in input.agentjail.kinds # answered by the rule index
	some ["backup_off", msg] in cloud_act_hits
}

ask contains {"id": "cloud.share", "msg": msg} if {
	"access" in input.agentjail.kinds # answered by the rule index
	some ["copy_out", msg] in cloud_act_hits
}

cloud_act_applies(_, act) if not act in {"pull", "overwrite"}

# A pull lands here: its destination is no bucket.
cloud_act_applies(cmd, "pull") if not bucket_url(transfer_destination(cmd))

# An overwrite lands in a live bucket, or one that holds the company's
# data (a finance report replaced is data tampered with).
cloud_act_applies(cmd, "overwrite") if live_bucket(transfer_destination(cmd))

cloud_act_applies(cmd, "overwrite") if regex.match(_bucket_of_data_read, concat("", [transfer_destination(cmd), " "]))

# transfer_destination(cmd): the last operand that names a place (a
# bucket, a path): an option's value (--acl public-read, --exclude
# 'tmp/*', a pattern) names none.
transfer_destination(cmd) := places[count(places) - 1] if {
	places := [a | some a in cmd.operands; regex.match(`/|^\.$`, a); not regex.match(`[*?\[]`, a)]
	count(places) > 0
}

bucket_url(a) if regex.match(`^(s3|gs)://`, a)

# live_bucket(a): a bucket named for production, or for the site it
# serves (www.example.com: a domain's name). A deploy to a bucket of
# the project's (my-site-bucket) stays allowed.
live_bucket(a) if regex.match(`(?i)^(s3|gs)://(([^/\s]*[-_.])?(prod|production|live)([-_.][^/\s]*)?|[^/\s]+\.[a-z]{2,})(/|$)`, a)
