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
	op in {"delete", "destroy"}
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
