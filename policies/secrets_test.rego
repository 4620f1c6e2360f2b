package agentjail

secrets_read(path) := {"tool_name": "Read", "tool_input": {"file_path": path}, "agentjail": {"home": "/home/dev", "file_path": path}}

secrets_bash(cmd) := {"tool_name": "Bash", "tool_input": {"command": cmd}, "agentjail": {"home": "/home/dev"}}

fired(id, event) if {
	some m in deny with input as event
	m.id == id
}

test_read_private_key_denied if fired("secrets.read_credentials", secrets_read("/home/dev/.ssh/id_ed25519"))

test_read_aws_credentials_denied if fired("secrets.read_credentials", secrets_read("/home/dev/.aws/credentials"))

test_read_gcloud_adc_denied if fired("secrets.read_credentials", secrets_read("/home/dev/.config/gcloud/application_default_credentials.json"))

test_read_public_key_allowed if {
	not fired("secrets.read_credentials", secrets_read("/home/dev/.ssh/id_ed25519.pub"))
}

test_read_aws_config_allowed if {
	not fired("secrets.read_credentials", secrets_read("/home/dev/.aws/config"))
}

test_read_project_file_allowed if {
	not fired("secrets.read_credentials", secrets_read("/home/dev/src/app/main.go"))
}

test_cat_aws_credentials_denied if fired("secrets.shell_reads_credentials", secrets_bash("cat ~/.aws/credentials"))

test_cp_private_key_denied if fired("secrets.shell_reads_credentials", secrets_bash("cp $HOME/.ssh/id_rsa /tmp/k"))

test_cat_public_key_allowed if {
	not fired("secrets.shell_reads_credentials", secrets_bash("cat ~/.ssh/id_rsa.pub"))
}

test_aws_cli_allowed if {
	not fired("secrets.shell_reads_credentials", secrets_bash("aws s3 ls"))
}
