package agentjail

# sensitive.rego's definitions written for speed: the one key-file
# pattern, the narrow search group and the word tests before git_words.

test_key_file_pattern_holds_each_kind if {
	every p in [
		"/home/dev/project/gcp-service-account.json", "/home/dev/project/deploy-sa-key.json", "/x/client_secret_123.json",
		"/x/firebase-adminsdk-abc.json", "/x/gha-creds-1.json", "/x/vault.kdbx", "/x/login.keychain-db", "/x/key.asc",
		"/x/AuthKey_1.p8", "/x/.netrc", "/x/_netrc", "/x/.git-credentials", "/x/.pgpass", "/x/.vault-token", "/x/.pypirc",
		"/x/.s3cfg", "/x/.boto", "/x/.my.cnf", "/x/.aws/credentials", "/x/.kube/config", "/x/.config/gh/hosts.yml",
		"/x/.cargo/credentials", "/x/.cargo/credentials.toml", "/x/.terraform.d/credentials.tfrc.json", "/X/.NETRC",
	] {
		key_file(p)
	}
}

test_key_file_pattern_leaves_ordinary_files if {
	every p in ["/home/dev/project/main.go", "/x/package.json", "/x/.npmrc", "/x/.docker/config.json", "/x/.kube/config.bak", "/x/sa.json.txt"] {
		not key_file(p)
	}
}

test_more_secret_home_needs_home if {
	secret("/home/dev/.config/gh/hosts.yml") with input as t_bash([])
	not secret("/srv/.config/gh/hosts.yml") with input as t_bash([])
}

test_search_programs_are_grouped if {
	every name in search_programs {
		"text_search" in program_groups[name]
	}
	not "text_search" in program_groups.git
}

test_grep_home_for_tokens_denied if t_denied("secrets.search_home", t_bash([t_cmd("grep", ["-r", "token", "/home/dev"], ["/home/dev"])]))

test_grep_project_for_tokens_allowed if not t_fired("secrets.search_home", t_bash([t_cmd("grep", ["-r", "token", "src"], ["/home/dev/project/src"])]))

test_git_show_env_from_history_asked if t_asked("secrets.git_history", t_bash([t_cmd("git", ["-C", "repo", "show", "HEAD~1:.env"], [])]))

test_git_log_patch_of_netrc_asked if t_asked("secrets.git_history", t_bash([t_cmd("git", ["log", "-p", ".netrc"], [])]))

test_git_diff_stat_not_history if not t_fired("secrets.git_history", t_bash([t_cmd("git", ["diff", "--stat"], [])]))
