package agentjail

# token_printer_index: a verb found by its tool and first word, wherever
# it stands after the tool's options; look-alikes stay allowed.

test_gh_auth_token_denied if t_denied("tokens.print", t_bash([t_cmd("gh", ["auth", "token"], [])]))

test_gh_auth_status_allowed if not t_fired("tokens.print", t_bash([t_cmd("gh", ["auth", "status"], [])]))

test_gh_auth_status_show_token_denied if t_denied("tokens.print", t_bash([t_cmd("gh", ["auth", "status", "-t"], [])]))

test_git_credential_fill_denied if t_denied("tokens.print", t_bash([t_cmd("git", ["credential", "fill"], [])]))

test_git_credential_approve_allowed if not t_fired("tokens.print", t_bash([t_cmd("git", ["credential", "approve"], [])]))

test_git_status_allowed if not t_fired("tokens.print", t_bash([t_cmd("git", ["status"], [])]))

# A verb after another positional word counts (gcloud auth print-access-token).
test_gcloud_print_token_denied if t_denied("tokens.print", t_bash([t_cmd("gcloud", ["auth", "print-access-token"], [])]))

test_gcloud_auth_list_allowed if not t_fired("tokens.print", t_bash([t_cmd("gcloud", ["auth", "list"], [])]))

# The word alone is not the verb: only at a position after the tool.
test_tool_name_as_verb_allowed if not t_fired("tokens.print", t_bash([t_cmd("pass", ["ls"], [])]))

# A verb with an "arg" must come first and be followed by a matching word.
test_aws_configure_get_secret_denied if t_denied("tokens.print", t_bash([t_cmd("aws", ["configure", "get", "aws_secret_access_key"], [])]))

test_aws_configure_get_region_allowed if not t_fired("tokens.print", t_bash([t_cmd("aws", ["configure", "get", "region"], [])]))

test_aws_configure_get_late_allowed if not t_fired("tokens.print", t_bash([t_cmd("aws", ["s3", "configure", "get", "aws_secret_access_key"], [])]))

test_token_verb_at if {
	token_verb_at(["op", "item", "get", "x"], 1, {"verb": "item get"})
	not token_verb_at(["op", "item", "list"], 1, {"verb": "item get"})
	token_verb_at(["aws", "configure", "get", "aws_session_token"], 1, {"verb": "configure get", "arg": `(?i)session_token`})
	not token_verb_at(["aws", "x", "configure", "get", "aws_session_token"], 2, {"verb": "configure get", "arg": `(?i)session_token`})
}

# token_printers, the index as a list, still names every tool.
test_token_printers_list if {
	some row in token_printers
	row.tool == "docker-credential-desktop"
	row.verb == "list"
	token_verb(["gh", "auth", "token"], {"tool": "gh", "verb": "auth token"})
	not token_verb(["gh", "auth", "status"], {"tool": "gh", "verb": "auth token"})
}

# npm token list reads a secret store; other tools skip the check.
test_npm_token_list_asked if t_asked("tokens.secret_store", t_bash([t_cmd("npm", ["token", "list"], [])]))

test_npm_install_allowed if not t_fired("tokens.secret_store", t_bash([t_cmd("npm", ["install"], [])]))

test_kubectl_get_secret_yaml_asked if t_asked("tokens.secret_store", t_bash([t_cmd("kubectl", ["get", "secret", "db", "-o", "yaml"], [])]))
