package agentjail

# Remote code beyond a pipe to a shell: a script downloaded and run in the
# same call, a cloned repository's script run at once, packages from URLs
# or other indexes, code run straight from a URL (ask: a human should
# see what runs).

url_word := `^(https?|ftp)://`

# The files a call downloads: what its downloaders write, and the last
# segment of the URLs they fetch (wget's and curl -O's file names). A
# download from this machine (the developer's own dev server) is not
# code from the network.
downloaded_names := {base_name(p) |
	some cmd in commands
	cmd.name in downloaders
	not only_loopback(cmd)
	some p in cmd.writes
} | {base_name(r.path) |
	some cmd in commands
	cmd.name in downloaders
	not only_loopback(cmd)
	some r in cmd.redirects
	r.path != ""
} | {n |
	some cmd in commands
	cmd.name in downloaders
	not only_loopback(cmd)
	some a in cmd.args
	regex.match(url_word, a)
	n := regex.replace(regex.replace(a, `[?#].*$`, ""), `^.*/`, "")
	n != ""
} | {base_name(v) |
	some cmd in commands
	cmd.name in downloaders
	not only_loopback(cmd)
	some v in option_values(cmd, {"-o", "--output", "-O", "--output-document"})
}

# ran_script(cmd) is the file cmd runs: a shell's or interpreter's script,
# or the program itself when it is given as a path.
ran_script(cmd) := cmd.operands[0] if {
	cmd.name in code_runners
	count(cmd.operands) > 0
	not cmd.operands[0] in {"-", "/dev/stdin"}
	not has_flag(cmd, {"c", "e", "m"})
	not checks_only(cmd)
}

# node --check and a shell's -n read a script's syntax and never run it.
checks_only(cmd) if has_flag(cmd, {"check"})

checks_only(cmd) if {
	cmd.name in {"sh", "bash", "zsh", "dash", "ksh"}
	has_flag(cmd, {"n", "noexec"})
}

ran_script(cmd) := cmd.program if contains(cmd.program, "/")

ask contains {"id": "remote.download_then_run", "msg": msg} if {
	"download" in input.agentjail.kinds
	names := downloaded_names
	some cmd in commands
	not cmd.name in downloaders
	script := ran_script(cmd)
	base_name(script) in names
	msg := sprintf("This downloads %s and runs it in the same call, before anyone has read it; the user has to approve it. Download it, show it to the user, then run it.", [base_name(script)])
}

# git clone URL [DIR] followed by running a script inside the clone.
clone_dirs := {d |
	"git" in input.agentjail.names
	some cmd in commands
	cmd.name == "git"
	"clone" in cmd.args # a cheap test before working out the positional words
	pos := positional(cmd)
	pos[0] == "clone"
	count(pos) > 1
	d := clone_dir(cmd, pos)
}

clone_dir(cmd, pos) := cmd.paths[count(cmd.paths) - 1] if count(pos) > 2

clone_dir(cmd, pos) := concat("/", [cmd.cwd, regex.replace(regex.replace(pos[1], `/+$`, ""), `^.*[/:]|\.git$`, "")]) if count(pos) == 2

ask contains {"id": "remote.clone_then_run", "msg": msg} if {
	"git" in input.agentjail.names # clone_dirs is empty without git
	"install" in input.agentjail.kinds
	dirs := clone_dirs
	count(dirs) > 0
	some cmd in commands
	runs_in_clone(cmd, dirs)
	msg := sprintf("This clones a repository and runs `%s` from it in the same call, before anyone has read it; the user has to approve it.", [full_text(cmd)])
}

runs_in_clone(cmd, dirs) if {
	script := ran_script(cmd)
	some d in dirs
	some p in array.concat(cmd.paths, [cmd.program])
	endswith(p, base_name(script))
	under(p, d)
}

runs_in_clone(cmd, dirs) if {
	contains(cmd.program, "/")
	some d in dirs
	under(cmd.cwd, d)
}

runs_in_clone(cmd, dirs) if {
	cmd.name in code_runners
	some d in dirs
	under(cmd.cwd, d)
	count(cmd.operands) > 0
}

# Packages from a URL, a VCS or an index other than the default one.
default_indexes := `^https://(pypi\.org|files\.pythonhosted\.org|registry\.npmjs\.org|registry\.yarnpkg\.com)(/|$)`

# package_callers are the programs that install packages, and the
# runners that can start one (uv run pip install ...): invocations(cmd)
# reads a command as another tool only behind a runner. Their group
# narrows the family's own "install" gate.
package_installers := {"pip", "pip3", "pipx", "uv", "npm", "pnpm", "yarn", "bun", "python", "python3", "cargo", "gem"}

package_callers := package_installers | {name | some name, _ in runner_prefixes}

program_group contains [prog, "package_install"] if some prog in package_callers

ask contains {"id": "remote.package_source", "msg": msg} if {
	"install" in input.agentjail.kinds
	"package_install" in input.agentjail.kinds
	some cmd in commands
	cmd.name in package_callers
	some words in invocations(cmd)
	installs_packages(words)
	some src in package_sources(cmd, words)
	msg := sprintf("`%s` installs code from %s, not from the default package index; the user has to approve it.", [full_text(cmd), src])
}

installs_packages(words) if {
	words[0] in package_installers
	some w in words
	w in {"install", "i", "add"}
}

package_sources(cmd, words) := {w |
	some w in words
	regex.match(`^(https?|ftp|git(\+[a-z]+)?|ssh|hg\+[a-z]+|svn\+[a-z]+)://|^git@|^git\+`, w)
	not regex.match(default_indexes, w)
} | {v |
	some v in option_values(cmd, {"-i", "--index-url", "--extra-index-url", "-f", "--find-links", "--registry", "--default-index", "--index", "--trusted-host", "--git", "--source"})
	not regex.match(default_indexes, v)
}

# Code run straight from a URL. url_runners says, by program, a word
# runs_url needs among the command's words (any word: ""), a cheap test
# before runs_url works out positional words.
url_runners := {
	"deno": "", "bun": "", "uvx": "", "pipx": "", "npx": "", "bunx": "", "pnpx": "",
	"uv": "run", "go": "run",
	# A manifest from a URL runs whatever containers it names, in the
	# cluster, as soon as it is applied.
	"kubectl": "", "oc": "",
}

program_group contains [prog, "url_run"] if some prog, _ in url_runners

ask contains {"id": "remote.run_url", "msg": msg} if {
	"url_run" in input.agentjail.kinds
	some cmd in commands
	needed_word(cmd, url_runners[cmd.name])
	runs_url(cmd)
	msg := sprintf("`%s` runs code straight from the network; the user has to approve it.", [full_text(cmd)])
}

runs_url(cmd) if {
	cmd.name in {"deno", "bun"}
	some w in positional(cmd)
	regex.match(`^(https?|npm|jsr):`, w)
	positional(cmd)[0] in {"run", "install", "x", "eval"}
	not regex.match(`^(npm|jsr):`, w)
}

runs_url(cmd) if {
	cmd.name in {"uvx", "pipx", "npx", "bunx", "pnpx"}
	some w in cmd.args
	regex.match(`^(https?|git\+[a-z]+)://|^git\+|^github:|^gitlab:`, w)
}

runs_url(cmd) if {
	cmd.name in {"kubectl", "oc"}
	positional(cmd)[0] in {"apply", "create", "replace"}
	some v in option_values(cmd, {"-f", "--filename"})
	regex.match(`^https?://`, v)
	not regex.match(`^https?://(localhost|127\.0\.0\.1)[:/]`, v)
}

runs_url(cmd) if {
	cmd.name in {"kubectl", "oc"}
	positional(cmd)[0] in {"apply", "create", "replace"}
	some a in cmd.args
	regex.match(`^--filename=https?://`, a)
}

runs_url(cmd) if {
	cmd.name == "uv"
	positional(cmd)[0] == "run"
	some w in cmd.args
	regex.match(`^https?://`, w)
}

runs_url(cmd) if {
	cmd.name == "go"
	positional(cmd)[0] == "run"
	some w in positional(cmd)
	regex.match(`^[a-z0-9.-]+\.[a-z]+/.+@`, w)
}

# npx -y of a package outside the list of well-known tools: the flag
# skips npx's own prompt before installing and running it.
npx_known := {
	"prisma", "tsc", "typescript", "eslint", "prettier", "jest", "vitest", "next", "vite", "ts-node", "tsx", "playwright",
	"create-react-app", "create-next-app", "create-vite", "nodemon", "webpack", "rollup", "esbuild", "turbo", "nx",
	"lerna", "storybook", "cypress", "mocha", "serve", "http-server", "rimraf", "cross-env", "concurrently", "npm-check-updates",
	"ncu", "degit", "sequelize-cli", "knex", "typeorm", "drizzle-kit", "wrangler", "vercel", "netlify-cli", "firebase-tools",
	"cdk", "aws-cdk", "serverless", "@angular/cli", "@vue/cli", "expo", "react-native", "svelte-kit", "astro", "nuxi",
	"tailwindcss", "postcss", "autoprefixer", "husky", "lint-staged", "semantic-release", "changeset", "@changesets/cli",
	"license-checker", "depcheck", "madge", "knip", "biome", "@biomejs/biome", "oxlint", "sort-package-json", "json-server",
	"shadcn", "shadcn-ui", "create-t3-app", "tsup", "unbuild", "patch-package", "@modelcontextprotocol/inspector",
}

npx_programs := {"npx", "pnpx", "bunx"}

program_group contains [prog, "npx"] if some prog in npx_programs

ask contains {"id": "remote.npx_unknown", "msg": msg} if {
	"npx" in input.agentjail.kinds
	some cmd in commands
	cmd.name in npx_programs
	has_flag(cmd, {"y", "yes"})
	pos := positional(cmd)
	count(pos) > 0
	npx_own_yes(cmd, pos[0])
	not npx_package(pos[0]) in npx_known
	msg := sprintf("`npx -y %s` installs and runs a package without asking; the user has to approve it (or confirm the package name is the intended one).", [pos[0]])
}

# npx_own_yes(cmd, pkg): -y or --yes comes before the package, so it is
# npx's own; after it (npx create-x app --yes) it is the package's flag.
npx_own_yes(cmd, pkg) if {
	some i, a in cmd.args
	a in {"-y", "--yes", "--yes=true"}
	some j, b in cmd.args
	b == pkg
	i < j
}

# npx_package("eslint@9") is "eslint"; "@scope/pkg@1" is "@scope/pkg".
npx_package(w) := regex.replace(w, `^(@?[^@]+)@.*$`, "$1")

# needed_word(cmd, w): w is one of cmd's words, or w is "" (none needed).
needed_word(_, "")

needed_word(cmd, w) if w in cmd.args
