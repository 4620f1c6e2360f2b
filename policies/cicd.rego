package agentjail

# Releases, repository access, package sources and production deploys:
# acts whose effect leaves this machine for everyone downstream (a
# published package, a pushed release tag, a repository made public, a
# deploy to production). Each is sometimes intended, so each is asked
# about; the tables below are data a user's policy can extend.

# --- publishing ---------------------------------------------------------

# publish_rows says, per tool, the verbs (words after the tool, past its
# options) that publish, or "match_any" (a pattern on any of its words),
# with "flags" the command needs and "unless" the flags that make it a
# local build or a dry run. Tools run behind a runner count too (`npx
# @vscode/vsce publish`, `python3 -m twine upload`, `yarn npm publish`).
publish_rows := [
	{"tool": "npm", "verbs": ["publish"]},
	{"tool": "pnpm", "verbs": ["publish"]},
	{"tool": "yarn", "verbs": ["publish", "npm publish"]},
	{"tool": "bun", "verbs": ["publish"]},
	{"tool": "cargo", "verbs": ["publish"]},
	{"tool": "poetry", "verbs": ["publish"]},
	{"tool": "flit", "verbs": ["publish"]},
	{"tool": "hatch", "verbs": ["publish"]},
	{"tool": "uv", "verbs": ["publish"]},
	{"tool": "pdm", "verbs": ["publish"]},
	{"tool": "twine", "verbs": ["upload"]},
	{"tool": "gem", "verbs": ["push"]},
	{"tool": "docker", "verbs": ["push", "image push", "manifest push"]},
	{"tool": "docker", "verbs": ["buildx build", "build", "buildx bake"], "flags": ["push"]},
	{"tool": "podman", "verbs": ["push", "image push", "manifest push"]},
	{"tool": "buildah", "verbs": ["push"]},
	{"tool": "nerdctl", "verbs": ["push"]},
	{"tool": "crane", "verbs": ["push", "copy", "cp"]},
	{"tool": "gh", "verbs": ["release create", "release upload", "release edit", "release delete"]},
	{"tool": "glab", "verbs": ["release create", "release upload"]},
	{"tool": "goreleaser", "verbs": ["release"], "unless": ["snapshot", "skip-publish"]},
	{"tool": "mvn", "match_any": `^(deploy|deploy:deploy(-file)?|release:perform)$`},
	{"tool": "mvnw", "match_any": `^(deploy|deploy:deploy(-file)?|release:perform)$`},
	{"tool": "gradle", "match_any": `^(:[^:]+)*:?publish([A-Z][A-Za-z0-9]*)?$`, "unless_match": `MavenLocal$`},
	{"tool": "gradlew", "match_any": `^(:[^:]+)*:?publish([A-Z][A-Za-z0-9]*)?$`, "unless_match": `MavenLocal$`},
	{"tool": "sbt", "match_any": `^publish(Signed)?$`},
	{"tool": "lein", "verbs": ["deploy"]},
	{"tool": "dotnet", "verbs": ["nuget push"]},
	{"tool": "nuget", "verbs": ["push"]},
	{"tool": "vsce", "verbs": ["publish"]},
	{"tool": "ovsx", "verbs": ["publish"]},
	{"tool": "helm", "verbs": ["push", "cm-push"]},
	{"tool": "pod", "verbs": ["trunk push"]},
	{"tool": "mix", "verbs": ["hex.publish"]},
	{"tool": "dart", "verbs": ["pub publish"]},
	{"tool": "flutter", "verbs": ["pub publish"]},
	{"tool": "snapcraft", "verbs": ["upload", "push", "release"]},
]

program_group contains [row.tool, "publish"] if some row in publish_rows

program_group contains [prog, "publish"] if some prog in {"npx", "bunx", "pnpx", "python", "python3"}

# publish_words are the words that can name a publishing verb: a cheap
# test before the table (most commands have none of them).
publish_words := {w |
	some row in publish_rows
	some verb in row.verbs
	some w in split(verb, " ")
} | {row.tool | some row in publish_rows; row.match_any}

ask contains {"id": "publish.release", "msg": msg} if {
	"publish" in input.agentjail.kinds
	some cmd in commands
	publish_candidate(cmd)
	not dry_run(cmd)
	some words in invocations(cmd)
	some row in publish_rows
	words[0] == row.tool
	publish_verb(words, row)
	publish_flags(cmd, row)
	not has_flag(cmd, {"help"})
	not local_registry(words)
	not stage_image(row, words)
	msg := sprintf("`%s` publishes to the world and cannot be undone; the user has to approve it. Build or pack it locally (or use --dry-run) and let the user publish.", [full_text(cmd)])
}

# stage_image(row, words): an image pushed under a tag that names a
# stage other than production (ghcr.io/me/app:dev, :staging-41,
# :pr-123) is a build for that stage, not a release.
stage_image(row, words) if {
	row.tool in {"docker", "podman", "buildah", "nerdctl"}
	images := [w | some w in array.slice(words, 1, count(words)); contains(w, "/")]
	count(images) > 0
	every img in images {
		stage_tag(img)
	}
}

stage_tag(img) if {
	tag := regex.find_all_string_submatch_n(`:([A-Za-z0-9_.-]+)$`, img, 1)[0][1]
	some w in regex.split(`[^a-z0-9]+`, lower(tag))
	w in nonproduction_stages | {"pr", "branch", "snapshot", "nightly"}
	not regex.match(`(?i)(^|[^a-z0-9])(prod|production|live|latest|stable|release)([^a-z0-9]|$)`, tag)
}

# local_registry(words): the image goes to a registry on this machine
# (docker push localhost:5000/app), which publishes nothing.
local_registry(words) if {
	some w in words
	regex.match(`^(localhost|127\.0\.0\.1|\[::1\])(:[0-9]+)?/`, w)
}

publish_candidate(cmd) if {
	some a in cmd.args
	a in publish_words
}

publish_candidate(cmd) if cmd.name in publish_words

publish_verb(words, row) if {
	some verb in row.verbs
	has_words(array.slice(words, 1, count(words)), verb)
}

publish_verb(words, row) if {
	some w in array.slice(words, 1, count(words))
	regex.match(row.match_any, w)
	not regex.match(object.get(row, "unless_match", "^$"), w)
}

publish_flags(cmd, row) if {
	not row.flags
	not publish_unless(cmd, row)
}

publish_flags(cmd, row) if {
	has_option(cmd, {f | some f in row.flags})
	not publish_unless(cmd, row)
}

publish_unless(cmd, row) if has_option(cmd, {f | some f in row.unless})

# --- release tags -----------------------------------------------------

# `git push --tags` pushes every local tag at once, experiments and
# stale ones included, and tags once fetched are not taken back. A push
# of one named tag (`git push origin v1.2.3`) is how a release is made
# and stays allowed.
ask contains {"id": "publish.tag_push", "msg": msg} if {
	"git" in input.agentjail.names
	"push" in git_subcommands
	some cmd in git_pushes
	all_tags(cmd)
	msg := sprintf("`%s` pushes every local tag at once, and others fetch them for good; the user has to approve it. Push the one tag meant for release (git push origin TAG).", [full_text(cmd)])
}

all_tags(cmd) if has_flag(cmd, {"tags"})

all_tags(cmd) if {
	some t in push_targets(cmd)
	startswith(t, "refs/tags/")
	contains(t, "*")
}

# --- repository settings, access and secrets ---------------------------

# repo_cli_rows are gh's and glab's commands that change who can reach a
# repository, what protects it, or the secrets its workflows get.
repo_cli_rows := [
	{"tool": "gh", "verbs": ["repo edit"], "flags": ["visibility"]},
	{"tool": "gh", "verbs": ["repo deploy-key add", "secret set", "secret delete", "secret remove", "workflow disable", "repo delete", "repo archive", "ssh-key add", "gpg-key add"]},
	{"tool": "glab", "verbs": ["variable set", "variable delete", "repo delete", "deploy-key add"]},
]

# repo_api_paths are REST endpoints (GitHub's and GitLab's) whose
# changes (any method but GET) touch protection, access, keys, secrets,
# hooks or the repository itself.
repo_api_paths := `(^|/)(branches/[^/]+/protection|rulesets|protected_branches|protected_tags|collaborators|outside_collaborators|members|memberships|invitations|teams/[^/]+/repos|keys|deploy_keys|actions/secrets|environments/[^/]+/secrets|dependabot/secrets|codespaces/secrets|actions/permissions|hooks|transfer|variables|access_tokens)(/|$)|^/?(repos|projects)/[^/]+(/[^/]+)?/?$|^/?user/(keys|gpg_keys|ssh_signing_keys)/?$`

program_group contains [prog, "publish"] if some prog in {"glab"}

ask contains {"id": "repo.access", "msg": msg} if {
	"publish" in input.agentjail.kinds
	some cmd in commands
	cmd.name in {"gh", "glab"}
	changes_repo_access(cmd)
	msg := sprintf("`%s` changes who can reach the repository, what protects its branches, its keys or the secrets its workflows get; the user has to approve it.", [full_text(cmd)])
}

changes_repo_access(cmd) if {
	some row in repo_cli_rows
	cmd.name == row.tool
	words := array.concat([cmd.name], positional(cmd))
	publish_verb(words, row)
	publish_flags(cmd, row)
}

changes_repo_access(cmd) if {
	pos := positional(cmd)
	pos[0] == "api"
	api_method(cmd) != "GET"
	regex.match(repo_api_paths, pos[1])
}

# gh api sends GET, or POST once fields or a body are given.
api_method(cmd) := upper(m) if m := option_value(cmd, {"-X", "--method"})

api_method(cmd) := "POST" if {
	not option_value(cmd, {"-X", "--method"})
	has_option(cmd, {"f", "F", "field", "raw-field", "input"})
}

api_method(cmd) := "GET" if {
	not option_value(cmd, {"-X", "--method"})
	not has_option(cmd, {"f", "F", "field", "raw-field", "input"})
}

# --- package sources for one command ------------------------------------

# source_env are the variables that point one command's package manager
# at another index, or turn its checks off, with the values that are the
# defaults (and so harmless).
source_env := {
	"GOPROXY": `^(https://proxy\.golang\.org(,direct)?|direct|off)$`,
	"GONOSUMDB": "",
	"GONOSUMCHECK": "",
	"GOSUMDB": `^sum\.golang\.org$`,
	"GOINSECURE": "",
	"GOFLAGS": "",
	"PIP_INDEX_URL": `^https://pypi\.org/simple/?$`,
	"PIP_EXTRA_INDEX_URL": "",
	"PIP_TRUSTED_HOST": "",
	"UV_INDEX_URL": `^https://pypi\.org/simple/?$`,
	"UV_EXTRA_INDEX_URL": "",
	"UV_DEFAULT_INDEX": `^https://pypi\.org/simple/?$`,
	"UV_INSECURE_HOST": "",
	"NPM_CONFIG_REGISTRY": `^https://registry\.npmjs\.org/?$`,
	"npm_config_registry": `^https://registry\.npmjs\.org/?$`,
	"YARN_NPM_REGISTRY_SERVER": `^https://registry\.(npmjs\.org|yarnpkg\.com)/?$`,
	"npm_config_strict_ssl": `^true$`,
	"CARGO_REGISTRIES_CRATES_IO_PROTOCOL": `^(sparse|git)$`,
}

program_group contains [prog, "registry"] if some prog in {"go", "pip", "pip3", "uv", "npm", "pnpm", "yarn", "cargo", "npx", "bun"}

ask contains {"id": "remote.package_source", "msg": msg} if {
	"registry" in input.agentjail.kinds
	some cmd in input.agentjail.commands
	some name, value in cmd.assigns
	not source_default(name, value)
	msg := sprintf("`%s=%s` points `%s` at another package index or turns its checks off; the user has to approve it.", [name, value, cmd.name])
}

source_default(name, value) if {
	pattern := source_env[name]
	pattern != ""
	regex.match(pattern, value)
}

source_default(name, _) if not source_env[name]

# GOFLAGS turns checks off only with -insecure.
source_default("GOFLAGS", value) if not contains(value, "-insecure")

# --- production deploys ---------------------------------------------------

# deploy_rows: commands that deploy to production, or to an environment
# the command names as production ("context": the options naming a
# cluster context or namespace). Previews, plans and diffs stay allowed.
deploy_rows := [
	{"tool": "vercel", "verbs": [""], "flags": ["prod", "production"]},
	{"tool": "netlify", "verbs": ["deploy"], "flags": ["prod", "prodIfUnlocked", "prod-if-unlocked"]},
	{"tool": "fly", "verbs": ["deploy", "releases rollback"]},
	{"tool": "flyctl", "verbs": ["deploy", "releases rollback"]},
	{"tool": "convex", "verbs": ["deploy"]},
	{"tool": "terraform", "verbs": ["apply"], "flags": ["auto-approve"]},
	{"tool": "tofu", "verbs": ["apply"], "flags": ["auto-approve"]},
	{"tool": "terragrunt", "verbs": ["apply", "run-all apply"], "flags": ["auto-approve", "terragrunt-non-interactive", "non-interactive"]},
	{"tool": "pulumi", "verbs": ["up", "update"], "flags": ["yes", "y", "skip-preview", "f"]},
	{"tool": "firebase", "verbs": ["deploy"]},
	{"tool": "railway", "verbs": ["up", "redeploy"]},
	{"tool": "wrangler", "verbs": ["deploy", "publish", "versions deploy"]},
	{"tool": "serverless", "verbs": ["deploy"]},
	{"tool": "sls", "verbs": ["deploy"]},
	{"tool": "cdk", "verbs": ["deploy"]},
	{"tool": "sst", "verbs": ["deploy"], "context": ["--stage"]},
	{"tool": "eb", "verbs": ["deploy"]},
	{"tool": "gcloud", "verbs": ["app deploy", "run deploy", "functions deploy"]},
	{"tool": "kubectl", "verbs": ["apply", "create", "replace", "patch", "set", "rollout restart", "rollout undo", "scale", "edit", "annotate", "label", "expose", "autoscale"], "context": ["--context", "-n", "--namespace", "--cluster"]},
	{"tool": "oc", "verbs": ["apply", "create", "replace", "patch", "set", "rollout restart", "rollout undo", "rollout latest", "scale", "edit"], "context": ["--context", "-n", "--namespace", "--cluster"]},
	{"tool": "helm", "verbs": ["install", "upgrade", "rollback"], "context": ["--kube-context", "-n", "--namespace"]},
]

program_group contains [row.tool, "deploy"] if some row in deploy_rows

program_group contains [prog, "deploy"] if some prog in {"npx", "bunx", "pnpx", "pnpm", "yarn"}

# production_names: a context, namespace or stage called production. A
# user lists other names (gke_acme_eu_main) in config.yaml's
# production_contexts.
production_name := `(?i)(^|[^a-z0-9])(prod|production|prd|live)([^a-z0-9]|$)`

default production_contexts := []

production_contexts := data.config.production_contexts

is_production(name) if regex.match(production_name, name)

is_production(name) if name in production_contexts

deploy_words := {w |
	some row in deploy_rows
	some verb in row.verbs
	w := split(verb, " ")[0]
	w != ""
} | {row.tool | some row in deploy_rows}

ask contains {"id": "deploy.production", "msg": msg} if {
	"deploy" in input.agentjail.kinds
	some cmd in commands
	deploy_candidate(cmd)
	not dry_run(cmd)
	not "--dry-run=client" in cmd.args
	some words in invocations(cmd)
	some row in deploy_rows
	words[0] == row.tool
	deploy_verb(words, row)
	publish_flags(cmd, row)
	deploy_context(cmd, row)
	stage := deploy_stage(cmd, words)
	stage != "other"
	msg := deploy_message(cmd, stage)
}

deploy_message(cmd, "production") := sprintf("`%s` changes production (what users of the service get now); the user has to approve it. Deploy a preview or show the plan or diff first.", [full_text(cmd)])

deploy_message(cmd, "unknown") := sprintf("`%s` deploys to an environment it does not name, which may be production; the user has to approve it. Name the stage (--stage dev, a dev folder or variable file) or show the plan or diff first.", [full_text(cmd)])

# deploy_stage(cmd): the environment a deploy names, by its stage,
# environment, target, stack, app, folder or variable-file words, and
# the folder it runs in: "production" when one says so (prod, live),
# "other" when one names another stage (dev, staging, preview...) and
# none says production, else "unknown".
deploy_stage(cmd, words) := "production" if {
	some w in deploy_stage_words(cmd, words)
	production_stage_word(w)
} else := "other" if {
	some w in deploy_stage_words(cmd, words)
	w in nonproduction_stages
} else := "unknown"

production_stage_word(w) if w in {"prod", "production", "prd", "live"}

production_stage_word(w) if w in production_contexts

nonproduction_stages := {
	"dev", "develop", "development", "staging", "stage", "stg", "test", "testing", "qa", "preview", "sandbox",
	"local", "demo", "uat", "e2e", "ci", "nonprod", "review", "feature", "canary",
}

deploy_stage_options := {
	"--stage", "-s", "--env", "-e", "--environment", "--only", "--project", "-P", "--stack", "--app", "-a",
	"--workspace", "--context", "--alias", "--config", "-c", "--target", "--var-file", "--namespace", "-n",
	"--branch", "--tag", "--service",
}

# Words of the values that name where a deploy goes; terraform's
# single-dash -chdir=DIR and -var-file=FILE, its flags (vercel --prod),
# the stacks or environments cdk and eb take as operands, and the folder
# the command runs in below the project (infra/envs/staging).
deploy_stage_words(cmd, words) := {w |
	some v in deploy_stage_values(cmd, words)
	some w in regex.split(`[^a-z0-9]+`, regex.replace(lower(v), `non-prod`, "nonprod"))
	w != ""
}

deploy_stage_values(cmd, words) := option_values(cmd, deploy_stage_options) | {f | some f in cmd.flags} | {v |
	some a in cmd.args
	m := regex.find_all_string_submatch_n(`^-(?:chdir|var-file)=(.+)$`, a, 1)
	v := m[0][1]
} | {v |
	some k, v in cmd.assigns
	k in {"STAGE", "ENV", "ENVIRONMENT", "TF_WORKSPACE", "DEPLOY_ENV", "NODE_ENV", "APP_ENV", "SST_STAGE"}
} | {trim_prefix(cmd.cwd, project) |
	in_project(cmd.cwd)
	cmd.cwd != project
} | {v |
	words[0] in {"eb", "cdk", "gcloud"}
	some v in array.slice(words, 2, 8)
}

deploy_candidate(cmd) if cmd.name in deploy_words

deploy_candidate(cmd) if {
	some a in cmd.args
	a in deploy_words
}

deploy_verb(_, row) if "" in row.verbs

deploy_verb(words, row) if publish_verb(words, row)

deploy_context(_, row) if not row.context

deploy_context(cmd, row) if {
	some v in option_values(cmd, {o | some o in row.context})
	is_production(v)
}

# A context made current earlier in the same call (kubectl config
# use-context prod && kubectl apply ...).
deploy_context(cmd, row) if {
	row.tool in {"kubectl", "oc", "helm"}
	not option_value(cmd, {"--context", "--kube-context"})
	some c in commands
	selected_context(c)
}

selected_context(c) if {
	c.name == "kubectl"
	pos := positional(c)
	pos[0] == "config"
	pos[1] == "use-context"
	is_production(pos[2])
}

selected_context(c) if {
	c.name == "kubectx"
	is_production(c.operands[0])
}

program_group contains ["kubectx", "deploy"]

# git push to a remote named for production or to a platform that
# deploys what it receives (git push heroku main).
deploy_remotes := {"heroku", "dokku", "piku"}

ask contains {"id": "deploy.production", "msg": msg} if {
	"git" in input.agentjail.names
	"push" in git_subcommands
	some cmd in git_pushes
	pos := positional(cmd)
	count(pos) > 1
	production_remote(pos[1])
	msg := sprintf("`%s` pushes to %s, which deploys what it receives to production; the user has to approve it.", [full_text(cmd), pos[1]])
}

production_remote(r) if r in deploy_remotes

production_remote(r) if is_production(r)

# --- package sources written into their configuration files ----------

# package_config_files are the files that tell a package manager where to
# download from; package_setting is a line of them that does.
package_config_files := `(^|/)(\.npmrc|\.yarnrc|\.yarnrc\.yml|bunfig\.toml|pip\.conf|pip\.ini|\.pydistutils\.cfg|uv\.toml|\.condarc|\.gemrc|go\.env|\.cargo/config(\.toml)?)$`

package_setting := `(?i)^\s*["']?(registry|@[^:=\s]+:registry|npmRegistryServer|strict-ssl|enableStrictSsl|unsafeHttpWhitelist|//\S+:_auth(Token)?|_auth(Token)?|index-url|extra-index-url|index_url|extra_index_url|trusted-host|find-links|channel_alias|custom_channels|channels|GOPROXY|GONOSUMDB|GOSUMDB|GOINSECURE|GOFLAGS|:?sources|replace-with|index)["']?\s*[:=]|^\s*-\s*["']?(https?|file)://`

# default_setting: the line names only the default index.
default_setting(line) if {
	regex.match(`(https?)://`, line)
	every u in regex.find_n(`https?://[^\s"',]+`, line, -1) {
		regex.match(default_indexes, u)
	}
}

# npm_remote_spec: a package.json dependency from a URL, a VCS or a
# GitHub shorthand (user/repo) rather than from the registry.
npm_remote_spec := `^(https?://|git(\+[a-z]+)?:|git@|github:|gitlab:|bitbucket:)|^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+(#.*)?$`

ask contains {"id": "written.package_source", "msg": msg} if {
	input.agentjail.written[0]
	some [f, a] in written_label("package_source")
	shown := trim_space(concat(" ", [a.key, object.get(a, "value", "")]))
	not default_setting(shown)
	msg := sprintf("%s: `%s` changes where packages are downloaded from (another index, a URL, a fork, or checks turned off); the user has to approve it.", [pretty(f.path), shown])
}

# The same lines written by a command (echo ... >> .npmrc, tee, sed -i).
ask contains {"id": "written.package_source", "msg": msg} if {
	input.agentjail.writes[0]
	input.agentjail.tool_kind == "shell" # a file tool's write is read through written_files
	some p in input.agentjail.writes
	regex.match(package_config_files, p)
	some cmd in commands
	some a in cmd.args
	some line in split(a, "\n")
	regex.match(package_setting, line)
	not default_setting(line)
	msg := sprintf("This writes `%s` into %s, which changes where packages are downloaded from; the user has to approve it.", [line, pretty(p)])
}

# The settings that run every script or reroute traffic, written by a
# command (echo script-shell=... >> .npmrc).
ask contains {"id": "written.reroute", "msg": msg} if {
	input.agentjail.writes[0]
	input.agentjail.tool_kind == "shell" # a file tool's write is read through written_files
	some p in input.agentjail.writes
	regex.match(package_config_files, p)
	some cmd in commands
	some a in cmd.args
	some line in split(a, "\n")
	some w in [w | some r in written_files_pack; r.kind == "package_config"; some w in r.watch; w.label in {"autorun", "reroute"}]
	regex.match(w.value, line)
	msg := sprintf("This writes `%s` into %s, which makes every later script of the tool run through it or sends its traffic elsewhere; the user has to approve it.", [line, pretty(p)])
}

# A lockfile's integrity or source edited by hand rather than by its
# package manager: what the next install trusts without checking.
lockfile_paths := `(^|/)(package-lock\.json|npm-shrinkwrap\.json|yarn\.lock|pnpm-lock\.yaml|bun\.lock|Cargo\.lock|poetry\.lock|uv\.lock|Pipfile\.lock|Gemfile\.lock|go\.sum|composer\.lock)$`

ask contains {"id": "written.lockfile", "msg": msg} if {
	input.agentjail.writes[0]
	input.agentjail.tool_kind == "shell"
	some p in input.agentjail.writes
	regex.match(lockfile_paths, p)
	some cmd in commands
	some w in cmd.writes
	w == p
	some a in cmd.args
	regex.match(`(?i)integrity|resolved|checksum|sha(1|256|512)|\bhash`, a)
	msg := sprintf("`%s` edits the checksums or sources of %s by hand, which the next install trusts; the user has to approve it. Let the package manager update its lockfile.", [full_text(cmd), pretty(p)])
}

ask contains {"id": "written.lockfile", "msg": msg} if {
	input.agentjail.written[0]
	some [f, a] in written_label("lock_source")
	not default_setting(a.key)
	msg := sprintf("%s: `%s` points a locked package at a place other than its registry; the user has to approve it.", [pretty(f.path), a.key])
}

# --- CI definitions ---------------------------------------------------------

# A step that uses an action at a branch runs whatever that branch holds
# at each run, with the job's token and secrets (cicd.rego's
# ci_branch_ref is the pattern written.rego's github_workflow row
# watches).
ci_branch_ref := `@(main|master|dev|develop|trunk|HEAD|latest|nightly|edge|stable)$`

ask contains {"id": "written.ci_unpinned", "msg": msg} if {
	input.agentjail.written[0]
	some [f, a] in written_label("ci_unpinned")
	msg := sprintf("%s: `%s: %s` runs an action at a branch, so whatever is pushed there later runs with this workflow's token and secrets; the user has to approve it. Pin it to a release tag or a commit.", [pretty(f.path), a.key, a.value])
}

# Text that whoever opens an issue or pull request chooses (its title,
# body, branch name, commit message), pasted into a run: script, is run
# as shell code on the runner (GitHub's "script injection").
ci_untrusted_input := `\$\{\{\s*(github\.event\.(issue\.(title|body)|pull_request\.(title|body|head\.ref|head\.label|head\.repo\.default_branch)|comment\.body|review\.body|review_comment\.body|discussion\.(title|body)|head_commit\.(message|author\.(name|email))|commits[^}]*\.(message|author)|pages[^}]*\.page_name|workflow_run\.(head_branch|head_commit\.message|display_title))|github\.head_ref)\s*\}\}`

ask contains {"id": "written.ci_injection", "msg": msg} if {
	input.agentjail.written[0]
	some f in written
	f.kind == "github_workflow"
	some c in f.commands
	regex.match(ci_untrusted_input, c)
	msg := sprintf("%s pastes text anyone can choose (an issue or pull request title, body or branch name) into a shell step (`%s`), which runs it as code; the user has to approve it. Pass it through env: and quote the variable.", [pretty(f.path), c])
}

# --- this machine registered as a CI runner (ATT&CK T1072) ---------------

# A self-hosted runner runs whatever workflow anyone who can push to the
# repository writes, on this machine, with the user's files in reach.
program_group contains [prog, "ci_runner"] if some prog in {"config.sh", "config.cmd", "gitlab-runner", "gitlab-ci-multi-runner"}

ask contains {"id": "ci.runner_register", "msg": msg} if {
	"ci_runner" in input.agentjail.kinds
	some cmd in commands
	runner_registration(cmd)
	msg := sprintf("`%s` registers this machine as a CI runner: every workflow of that repository would then run here, with this user's files and credentials in reach. The user has to approve it.", [full_text(cmd)])
}

runner_registration(cmd) if {
	cmd.name in {"config.sh", "config.cmd"}
	"--url" in cmd.args
	some a in cmd.args
	a in {"--token", "--pat"}
}

runner_registration(cmd) if {
	cmd.name in {"gitlab-runner", "gitlab-ci-multi-runner"}
	positional(cmd)[0] == "register"
}
