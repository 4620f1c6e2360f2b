package agentjail

# cicd.rego: publishing, tag pushes, repository access, package sources
# for one command, production deploys and the helpers they share.

test_publish_behind_a_runner if t_asked("publish.release", t_bash([t_cmd("npx", ["@vscode/vsce", "publish"], [])]))

test_publish_match_any_with_exception if {
	t_asked("publish.release", t_bash([t_cmd("gradlew", ["publishToMavenCentral"], [])]))
	not t_fired("publish.release", t_bash([t_cmd("gradle", ["publishToMavenLocal"], [])]))
}

test_publish_flag_needed if {
	t_asked("publish.release", t_bash([t_cmd("docker", ["buildx", "build", "--push", "-t", "x/y", "."], [])]))
	not t_fired("publish.release", t_bash([t_cmd("docker", ["buildx", "build", "--load", "-t", "x/y", "."], [])]))
}

test_publish_unless_flag if not t_fired("publish.release", t_bash([t_cmd("goreleaser", ["release", "--snapshot", "--clean"], [])]))

test_publish_dry_run_allowed if not t_fired("publish.release", t_bash([t_cmd("cargo", ["publish", "--dry-run"], [])]))

test_all_tags_pushed_asked if t_asked("publish.tag_push", t_bash([t_cmd("git", ["push", "origin", "--tags"], [])]))

test_one_tag_pushed_allowed if not t_fired("publish.tag_push", t_bash([t_cmd("git", ["push", "origin", "v1.2.3"], [])]))

test_api_method_implied_by_fields if {
	api_method(t_cmd("gh", ["api", "repos/a/b/keys", "-f", "key=x"], [])) == "POST"
	api_method(t_cmd("gh", ["api", "repos/a/b/keys"], [])) == "GET"
	api_method(t_cmd("gh", ["api", "-X", "delete", "repos/a/b"], [])) == "DELETE"
}

test_protection_deleted_asked if t_asked("repo.access", t_bash([t_cmd("gh", ["api", "-X", "DELETE", "repos/a/b/branches/main/protection"], [])]))

test_protection_read_allowed if not t_fired("repo.access", t_bash([t_cmd("gh", ["api", "repos/a/b/branches/main/protection"], [])]))

test_comment_posted_allowed if not t_fired("repo.access", t_bash([t_cmd("gh", ["api", "repos/a/b/issues/7/comments", "-f", "body=x"], [])]))

test_visibility_needs_the_option if {
	t_asked("repo.access", t_bash([t_cmd("gh", ["repo", "edit", "--visibility=public"], [])]))
	not t_fired("repo.access", t_bash([t_cmd("gh", ["repo", "edit", "--description", "x"], [])]))
}

test_source_env_asked if t_asked("remote.package_source", t_bash([object.union(t_cmd("go", ["install", "x.example/t@latest"], []), {"assigns": {"GOSUMDB": "off"}})]))

test_source_env_defaults_allowed if {
	not t_fired("remote.package_source", t_bash([object.union(t_cmd("go", ["build"], []), {"assigns": {"GOFLAGS": "-mod=mod", "CGO_ENABLED": "0"}})]))
	not t_fired("remote.package_source", t_bash([object.union(t_cmd("pip", ["install", "x"], []), {"assigns": {"PIP_INDEX_URL": "https://pypi.org/simple"}})]))
}

test_production_names if {
	is_production("prod")
	is_production("gke_acme_us-central1_prod")
	is_production("production-eu")
	not is_production("kind-dev")
	not is_production("product-catalog")
	is_production("main-eu") with data.config.production_contexts as ["main-eu"]
}

test_deploy_context_needed if {
	t_asked("deploy.production", t_bash([t_cmd("kubectl", ["--context", "prod", "apply", "-f", "k8s/"], [])]))
	not t_fired("deploy.production", t_bash([t_cmd("kubectl", ["--context", "staging", "apply", "-f", "k8s/"], [])]))
	not t_fired("deploy.production", t_bash([t_cmd("kubectl", ["--context", "prod", "get", "pods"], [])]))
}

test_deploy_flag_needed if {
	t_asked("deploy.production", t_bash([t_cmd("vercel", ["--prod"], [])]))
	not t_fired("deploy.production", t_bash([t_cmd("vercel", ["deploy"], [])]))
	not t_fired("deploy.production", t_bash([t_cmd("terraform", ["apply"], [])]))
}

test_default_setting_lines if {
	default_setting("registry=https://registry.npmjs.org/")
	not default_setting("registry=https://npm.example/")
	not default_setting("strict-ssl=false")
}

test_same_host_rewrite if {
	same_host_rewrite("url.git@github.com:.insteadof", "https://github.com/")
	not same_host_rewrite("url.git@evil.example:.insteadof", "https://github.com/")
}

test_runner_register_asked if t_asked("ci.runner_register", t_bash([t_cmd("config.sh", ["--url", "https://github.com/a/b", "--token", "T"], [])]))

test_gitlab_runner_register_asked if t_asked("ci.runner_register", t_bash([t_cmd("gitlab-runner", ["register"], [])]))

test_gitlab_runner_status_allowed if not t_fired("ci.runner_register", t_bash([t_cmd("gitlab-runner", ["status"], [])]))
