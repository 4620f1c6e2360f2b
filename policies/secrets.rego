package agentjail

# Private keys and cloud credentials, through any tool that names a path
# (Read, Write, Edit, Grep, Glob ...) and through shell commands.

deny contains {"id": "secrets.read_credentials", "msg": msg} if {
	rel := home_relative(input.agentjail.file_path)
	credential_file(rel)
	msg := sprintf("Blocked: %s holds private keys or cloud credentials and must not be read by an agent. Ask the user for the specific non-secret value you need.", [input.agentjail.file_path])
}

deny contains {"id": "secrets.shell_reads_credentials", "msg": msg} if {
	input.tool_name == "Bash"
	regex.match(credential_pattern, input.tool_input.command)
	msg := "Blocked: this command names private keys or cloud credentials (~/.ssh/id_*, ~/.aws/credentials, gcloud or Azure tokens). Ask the user for the specific non-secret value you need."
}

# home_relative is a path inside the home directory, without the home prefix.
home_relative(path) := substring(path, count(input.agentjail.home) + 1, -1) if {
	startswith(path, concat("", [input.agentjail.home, "/"]))
}

credential_file(rel) if {
	regex.match(`^\.ssh/id_[^/]*$`, rel)
	not endswith(rel, ".pub")
}

credential_file(".aws/credentials")

credential_file(rel) if regex.match(`^\.config/gcloud/(application_default_credentials\.json|credentials\.db|access_tokens\.db|legacy_credentials(/.*)?)$`, rel)

credential_file(rel) if regex.match(`^\.azure/(accessTokens\.json|msal_token_cache\.(json|bin)|service_principal_entries\.json)$`, rel)

# One literal alternation, so a command costs one regex match (a rule
# that builds it with concat would rebuild it on every call): a private
# key (id_* not followed by .pub), AWS, gcloud or Azure credential files.
credential_pattern := `\.ssh/id_[A-Za-z0-9_-]+($|[^A-Za-z0-9_.-]|\.[^p]|\.p[^u]|\.pu[^b])|\.aws/credentials|\.config/gcloud/(application_default_credentials|credentials\.db|access_tokens\.db|legacy_credentials)|\.azure/(accessTokens|msal_token_cache|service_principal_entries)`
