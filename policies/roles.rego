package agentjail

# What programs do with their arguments: the knowledge the daemon's shell
# parser applies to every command (it reads shell_roles once when the
# policies load). A row says, for one program or subcommand, which
# options take a value and what each value and leading operand is:
#
#   value            options that take a value, which may name a file
#   text             options whose value is free text (a commit message,
#                    a title, a pattern): never a path
#   use              options whose value is a credential the program
#                    uses without showing it (ssh -i KEY): input lists
#                    it in the command's "uses", not its "paths"
#   dir              options whose value is the folder the program works
#                    in (tar -C, git -C): later operands are inside it
#   command          options whose value is a command line it runs
#   code             options whose value is code in its own language
#   config           options whose value is key=value configuration; a
#                    key in config_commands holds a command line
#   pattern          options that give what the leading operands would
#                    hold (grep -e): the counts below then do not apply
#   text_operands,   how many leading operands are free text, code or a
#   code_operands,   command line; -1 means all of them
#   command_operands
#   stdin_code       reads its program from a here-document when given none
#   program          options that name the program to run instead (python
#                    -m), so that it does not run its standard input
#   dry_run          options that make it only show what it would do
#   subcommands      rows for the words after a subcommand
#
# Option names are written without dashes. The options a row gives a
# role are also the ones verbs.rego's rules skip with their value
# (value_option): each program's options are written here once. A user's
# policy adds or replaces rows with `program_role contains ["tool",
# {...}]`, secret files with `secret_example contains "~/.tool/token"`.

shell_roles := {
	"programs": program_roles,
	"printers": printers,
	"filters": filters,
	"command_vars": command_vars,
	"config_commands": config_commands,
	"examples": [e | some e in secret_examples | guard_home_examples],
	"ambiguous": ambiguous_names,
	"code": code_apis,
	"runners": runner_words,
	"wrappers": wrappers,
	"writes": file_writes,
	"unpack": unpack_roles,
}

# unpack_roles: the programs that unpack an archive or apply a patch, by
# program or "program subcommand". With the file system at hand the
# daemon reads their input (the members of a tar or zip archive, the
# files a diff names) and each place reached from the folder they write
# into is one of the command's writes; what cannot be read (stdin, cpio,
# xz, past the bounds) is in the command's "unjudged" (self_unjudged.rego).
# Options are spelled with their dashes (see shell.UnpackRoles):
#   format        tar (plain, gzip, bzip2), zip, cpio or patch
#   when, unless  flags one of which it needs to write / that make it only list
#   bundled       its first word may be flags without a dash (tar xzf A)
#   input         options whose value is the archive or patch
#   operand       which operands are, else: first, second, all
#   dirs          options whose value is the folder it writes into
#   strip         options that strip leading name elements; strip_default
#                 when none is given (-1: patch's base name)
#   prefix        options whose value goes before each name
#   values        its other options that take a value
unpack_roles := object.union(core_unpack_roles, {pair[0]: pair[1] | some pair in unpack_role})

# unpack_role holds [program, row] pairs from other policy files.
unpack_role contains pair if {
	some pair in []
}

_tar_unpack := {
	"format": "tar", "when": ["x", "extract", "get"], "bundled": true,
	"input": ["-f", "--file"], "dirs": ["-C", "--directory"], "strip": ["--strip-components"],
	"values": ["-b", "-T", "-X", "-K", "-N", "-V", "-g", "-H", "-I", "--files-from", "--exclude-from", "--format", "--transform", "--exclude", "--use-compress-program", "--blocking-factor"],
}

core_unpack_roles := {
	"tar": _tar_unpack, "gtar": _tar_unpack, "bsdtar": _tar_unpack,
	"unzip": {
		"format": "zip", "unless": ["l", "t", "v", "Z", "p", "c", "z"], "operand": "first",
		"dirs": ["-d"], "values": ["-P", "-O", "-I"],
	},
	"cpio": {
		"format": "cpio", "when": ["i", "extract"], "input": ["-F", "--file", "-I"],
		"dirs": ["-D", "--directory"], "values": ["-E", "-H", "--format", "-M", "-R", "--owner"],
	},
	"patch": {
		"format": "patch", "unless": ["dry-run", "C", "check"], "input": ["-i", "--input"], "operand": "second",
		"dirs": ["-d", "--directory"], "strip": ["-p", "--strip"], "strip_default": -1,
		"values": ["-o", "--output", "-r", "--reject-file", "-B", "--prefix", "-z", "--suffix", "-V", "-F", "--fuzz", "-D", "--ifdef"],
	},
	"git apply": {
		"format": "patch", "unless": ["check", "stat", "numstat", "summary"], "operand": "all",
		"strip": ["-p"], "strip_default": 1, "prefix": ["--directory"],
		"values": ["--exclude", "--include", "--whitespace", "--build-fake-ancestor"],
	},
}

# runner_words is verbs.rego's runner_prefixes as the shell parser reads
# it: each runner with the words that come before the tool it runs (none
# when the tool comes first), so that what runs behind npx, pnpm dlx or
# node is judged as if started directly.
runner_words := {name: words |
	some name, subs in runner_prefixes
	words := runner_subs(subs)
}

runner_subs(0) := []

runner_subs(subs) := sort(subs) if is_set(subs)

program_roles := object.union(object.union(core_program_roles, _platform_roles), {pair[0]: pair[1] | some pair in program_role})

# program_role holds [program, row] pairs from other policy files.
program_role contains pair if {
	some pair in []
}

secret_examples := core_secret_examples | {e | some e in secret_example}

secret_example contains e if {
	some e in []
}

_message := {"text": ["m", "message", "author", "date", "trailer", "C", "c", "reuse-message", "reedit-message", "fixup", "squash", "cleanup"], "value": ["F", "file", "t", "template"]}

_gh_text := {
	"text": ["t", "title", "b", "body", "n", "notes", "d", "description", "subject", "m", "message", "F", "body-file", "notes-file", "B", "base", "H", "head", "R", "repo", "r", "reviewer", "a", "assignee", "l", "label", "M", "milestone", "p", "project", "T", "template", "q", "jq", "f", "field", "raw-field", "X", "method"],
	"value": ["input"],
}

_grep := {
	"text_operands": 1,
	"pattern": ["e", "regexp", "f", "file"],
	"text": ["e", "regexp", "include", "exclude", "exclude-dir", "label"],
	"value": ["f", "file", "m", "max-count", "A", "after-context", "B", "before-context", "C", "context", "d", "directories", "D", "devices", "exclude-from"],
}

_rg := {
	"text_operands": 1,
	"pattern": ["e", "regexp", "f", "file"],
	"text": ["e", "regexp", "g", "glob", "iglob", "t", "type", "T", "type-not", "r", "replace", "pre-glob", "type-add", "E", "encoding", "sort", "sortr", "colors", "M", "max-columns", "j", "threads", "max-filesize", "d", "max-depth", "maxdepth"],
	"value": ["f", "file", "m", "max-count", "A", "after-context", "B", "before-context", "C", "context", "ignore-file", "pre"],
}

_ag := {
	"text_operands": 1,
	"text": ["G", "file-search-regex", "ignore", "ignore-dir", "depth", "A", "after", "B", "before", "C", "context", "m", "max-count"],
	"value": ["p", "path-to-ignore"],
}

_sed := {
	"text_operands": 1,
	"pattern": ["e", "expression", "f", "file"],
	"text": ["e", "expression"],
	"value": ["f", "file", "l", "line-length"],
}

_awk := {
	"code_operands": 1,
	"pattern": ["f", "file"],
	"value": ["f", "file", "F", "field-separator", "v", "assign"],
}

_python := {"code": ["c"], "value": ["m", "W", "X", "Q"], "program": ["m"], "stdin_code": true}

_node := {"code": ["e", "eval", "p", "print"], "value": ["r", "require", "import", "input-type", "loader", "conditions"], "use": ["env-file", "env-file-if-exists"], "stdin_code": true}

# lua -e CODE; with no script (or -) it reads its program from stdin.
_lua := {"code": ["e"], "value": ["l"], "stdin_code": true}

_ruby := {"code": ["e"], "value": ["r", "I", "C"], "stdin_code": true}

_perl := {"code": ["e", "E"], "value": ["I", "M", "m"], "stdin_code": true}

_pip := {
	"text": ["i", "index-url", "extra-index-url", "f", "find-links", "trusted-host", "python"],
	"value": ["r", "requirement", "c", "constraint", "t", "target", "prefix", "root"],
	"dry_run": ["dry-run"],
}

_redis_cli := {"text": ["h", "p", "a", "n", "u", "user", "pass", "r", "i"], "value": ["s"], "use": ["tls-cert", "cacert"]}

_mysql := {"text": ["h", "host", "P", "port", "u", "user", "D", "database"], "value": ["S", "socket"]}

_mongo := {"text": ["host", "port", "u", "username", "p", "password", "authenticationDatabase"]}

_fly := {"text": ["a", "app", "o", "org"], "value": ["c", "config"]}

# Options of the command lines of platforms and databases that take a
# value: the verbs after them (verbs.rego) are found past them.
_platform_roles := {
	"gsutil": {"text": ["o", "h", "u", "p"]},
	"heroku": {"text": ["a", "app", "r", "remote"]},
	"fly": _fly,
	"flyctl": _fly,
	"vercel": {"text": ["scope", "token", "t"], "value": ["A", "local-config"], "dir": ["cwd"]},
	"firebase": {"text": ["project", "P"], "value": ["config"]},
	"pulumi": {"text": ["s", "stack"], "dir": ["C", "cwd"]},
	"cdk": {"command": ["a", "app"], "text": ["profile", "c", "context"]},
	"terragrunt": {"dir": ["terragrunt-working-dir", "working-dir"], "value": ["terragrunt-config"]},
	"redis-cli": _redis_cli,
	"valkey-cli": _redis_cli,
	"psql": {"text": ["h", "host", "p", "port", "U", "username", "d", "dbname", "v", "set"], "value": ["f", "file", "o", "output"]},
	"mysql": _mysql,
	"mariadb": _mysql,
	"mysqladmin": _mysql,
	"mongosh": object.union(_mongo, {"value": ["f", "file"]}),
	"mongo": _mongo,
	"etcdctl": {"text": ["endpoints", "user", "w", "write-out"], "use": ["cacert", "cert", "key"]},
	"influx": {"text": ["o", "org", "n", "name", "t", "token", "host", "b", "bucket", "bucket-id", "i", "id"]},
	"doppler": {"text": ["p", "project", "c", "config", "token", "scope"]},
	"infisical": {"text": ["env", "projectId", "path", "token", "domain"]},
	"railway": {"text": ["s", "service", "e", "environment"]},
}

_ssh_family := {"use": ["i"], "value": ["b", "c", "D", "E", "e", "F", "I", "J", "L", "l", "m", "O", "o", "p", "P", "Q", "R", "S", "W", "w", "B"]}

# A bind mount's host side is handed to the container, not read here
# (containers.rego judges which host folders it may be).
_container_run := {"use": ["v", "volume", "mount", "env-file"]}

_container_engine := {
	"run": _container_run, "create": _container_run,
	"container": {"subcommands": {"run": _container_run, "create": _container_run}},
	"compose": {"use": ["env-file"], "subcommands": {"run": _container_run}},
}

core_program_roles := {
	# Free text.
	"echo": {"text_operands": -1},
	"printf": {"text_operands": -1, "text": ["v"]},
	"grep": _grep,
	"egrep": _grep,
	"fgrep": _grep,
	"rg": _rg,
	"ag": _ag,
	"ack": {"text_operands": 1},
	"git": {
		"value": ["git-dir", "work-tree", "namespace", "super-prefix", "config-env", "exec-path"],
		"dir": ["C"],
		"config": ["c"],
		"subcommands": {
			"commit": object.union(_message, {"dry_run": ["dry-run"]}),
			"tag": {"text": ["m", "message", "F", "file"], "value": ["u", "local-user"]},
			"merge": {"text": ["m", "F", "file"], "value": ["s", "strategy", "X", "strategy-option"]},
			"stash": {"text": ["m", "message"], "subcommands": {"push": {"text": ["m", "message"]}, "save": {"text_operands": -1}}},
			"notes": {"text": ["m", "message"]},
			"grep": {"text_operands": 1, "pattern": ["e", "f"], "text": ["e"], "value": ["f", "A", "B", "C", "m", "max-count", "max-depth", "O", "open-files-in-pager"]},
			"log": {"text": ["grep", "author", "committer", "S", "G", "format", "pretty", "since", "until", "after", "before"]},
			"shortlog": {"text": ["grep", "author", "committer"]},
			"push": {"dry_run": ["n", "dry-run"], "value": ["o", "push-option", "receive-pack", "exec", "repo"]},
			"clean": {"dry_run": ["n", "dry-run"], "text": ["e", "exclude"]},
			"add": {"dry_run": ["n", "dry-run"]},
			"rm": {"dry_run": ["n", "dry-run"]},
			"mv": {"dry_run": ["n", "dry-run"]},
			"fetch": {"dry_run": ["dry-run"]},
			"remote": {"subcommands": {"prune": {"dry_run": ["n", "dry-run"]}}},
			"prune": {"dry_run": ["n", "dry-run"]},
			"worktree": {"subcommands": {"prune": {"dry_run": ["n", "dry-run"]}}},
			"send-email": {"dry_run": ["dry-run"]},
			# A key and its value, never a path as a whole (core.sshCommand
			# 'ssh -i ~/.ssh/k'); what a value sets is judged on the file
			# it leaves (written.rego).
			"config": {"text_operands": -1, "value": ["f", "file", "blob"], "text": ["default", "type", "comment", "value"]},
		},
	},
	"gh": {
		"value": ["R", "repo", "hostname", "input"],
		"text": ["X", "method", "H", "header", "f", "raw-field", "F", "field", "q", "jq", "t", "template"],
		"subcommands": {
			"pr": {"value": ["R", "repo"], "subcommands": {"create": _gh_text, "edit": _gh_text, "comment": _gh_text, "review": _gh_text, "merge": _gh_text, "close": _gh_text, "view": _gh_text, "list": _gh_text}},
			"issue": {"value": ["R", "repo"], "subcommands": {"create": _gh_text, "edit": _gh_text, "comment": _gh_text, "close": _gh_text, "list": _gh_text}},
			"release": {"value": ["R", "repo"], "subcommands": {"create": _gh_text, "edit": _gh_text}},
			"repo": {"subcommands": {"create": _gh_text, "edit": {"text": ["d", "description", "homepage", "add-topic", "remove-topic"]}}},
			"gist": {"subcommands": {"create": {"text": ["d", "desc"]}}},
			"search": {"text_operands": -1},
		},
	},
	"glab": {"text": ["R", "repo", "X", "method"], "subcommands": {"mr": {"subcommands": {"create": _gh_text, "note": _gh_text}}, "issue": {"subcommands": {"create": _gh_text, "note": _gh_text}}}},
	"jq": {"text_operands": 1, "pattern": ["f", "from-file"], "text": ["arg", "argjson"], "value": ["f", "from-file", "rawfile", "slurpfile", "indent"]},
	"yq": {"text_operands": 1},
	"sed": _sed,
	"gsed": _sed,
	"awk": _awk,
	"gawk": _awk,
	"mawk": _awk,
	"nawk": _awk,
	"agentjail": {"subcommands": {
		# try's words are a call to judge, not one to make.
		"try": {"text_operands": -1, "text": ["tool", "cwd", "t", "old", "new", "content", "agent"], "value": ["event"]},
		"install": {"dry_run": ["dry-run", "n"]},
		"uninstall": {"dry_run": ["dry-run", "n"]},
	}},
	"notify-send": {"text_operands": -1},
	"say": {"text_operands": -1},
	"logger": {"text_operands": -1, "text": ["t", "tag", "p", "priority"]},
	"wall": {"text_operands": -1},
	"trap": {"command_operands": 1},
	# Credentials used, not read.
	"ssh": _ssh_family,
	"scp": _ssh_family,
	"sftp": _ssh_family,
	"autossh": _ssh_family,
	"rsync": {
		"command": ["e", "rsh", "rsync-path"],
		"use": ["password-file"],
		"text": ["exclude", "include", "filter", "f", "chmod", "chown", "out-format"],
		"value": ["files-from", "exclude-from", "include-from", "log-file", "partial-dir", "temp-dir", "T", "backup-dir", "compare-dest", "link-dest", "copy-dest", "suffix"],
		"dry_run": ["n", "dry-run", "list-only"],
	},
	"kubectl": {
		"use": ["kubeconfig", "client-key", "client-certificate", "certificate-authority"],
		"text": ["token", "n", "namespace", "context", "cluster", "user", "s", "server", "l", "selector", "o", "output", "c", "container", "field-selector", "as", "as-group", "template", "sort-by", "p", "patch", "type", "request-timeout", "timeout", "grace-period", "replicas", "address", "accept-hosts", "accept-paths"],
		"value": ["f", "filename", "k", "kustomize", "cache-dir"],
		"dry_run": ["dry-run"],
	},
	"helm": {
		"use": ["kubeconfig", "cert-file", "key-file", "ca-file"],
		"text": ["password", "n", "namespace", "kube-context", "set", "set-string", "version", "repo", "description", "o", "output", "timeout"],
		"value": ["f", "values", "set-file", "registry-config", "repository-config", "repository-cache"],
		"dry_run": ["dry-run"],
	},
	"aws": {"text": ["profile", "region", "output", "query", "endpoint-url", "color", "cli-read-timeout", "cli-connect-timeout"], "use": ["ca-bundle"], "value": ["cli-input-json", "cli-input-yaml"], "dry_run": ["dryrun", "dry-run"]},
	"gcloud": {"text": ["project", "region", "zone", "account", "format", "filter", "configuration", "verbosity", "impersonate-service-account", "billing-project"]},
	"az": {"text": ["subscription", "g", "resource-group", "n", "name", "o", "output", "query"]},
	"docker": {"text": ["H", "host", "context", "c", "l", "log-level", "p", "project-name", "profile"], "use": ["tlscert", "tlskey", "tlscacert", "env-file"], "value": ["config", "f", "file", "project-directory"], "subcommands": _container_engine},
	"podman": {"text": ["url", "connection", "c", "log-level", "storage-driver", "p", "project-name"], "value": ["root", "runroot", "f", "file"], "use": ["env-file"], "subcommands": _container_engine},
	"docker-compose": {"text": ["p", "project-name", "profile"], "value": ["f", "file", "project-directory"], "use": ["env-file"]},
	"oc": {
		"use": ["kubeconfig"],
		"text": ["n", "namespace", "context", "cluster", "s", "server", "user", "as", "token", "l", "selector", "o", "output", "c", "container"],
		"value": ["f", "filename"],
	},
	"nerdctl": {"use": ["env-file"], "subcommands": _container_engine},
	"ansible": {"use": ["private-key", "key-file", "vault-password-file"], "text": ["u", "user", "m", "module-name", "a", "args", "e", "extra-vars", "l", "limit"], "value": ["i", "inventory"], "dry_run": ["C", "check"]},
	"ansible-playbook": {"use": ["private-key", "key-file", "vault-password-file"], "text": ["u", "user", "e", "extra-vars", "l", "limit", "t", "tags", "skip-tags"], "value": ["i", "inventory"], "dry_run": ["C", "check"]},
	"git-crypt": {"use": ["key-file"]},
	"gpg": {"text": ["u", "local-user", "r", "recipient", "default-key"]},
	"curl": {
		"use": ["E", "cert", "key", "cacert", "netrc-file"],
		"text": ["X", "request", "H", "header", "data-raw", "u", "user", "A", "user-agent", "e", "referer", "w", "write-out", "x", "proxy", "connect-timeout", "m", "max-time", "retry", "resolve", "oauth2-bearer", "r", "range"],
		"value": ["d", "data", "data-binary", "data-urlencode", "json", "o", "output", "F", "form", "b", "cookie", "c", "cookie-jar", "T", "upload-file", "K", "config"],
	},
	"wget": {
		"text": ["header", "U", "user-agent", "post-data", "body-data", "method", "e", "execute", "t", "tries", "T", "timeout"],
		"value": ["O", "output-document", "o", "output-file", "P", "directory-prefix", "post-file", "body-file"],
	},
	# Options that move the directory.
	"tar": {"dir": ["C", "directory"], "value": ["f", "file", "T", "files-from", "X", "exclude-from", "b", "H", "format", "g", "listed-incremental", "I", "use-compress-program"], "text": ["exclude", "transform", "xform", "owner", "group", "mode", "mtime", "label", "V"]},
	"make": {"dir": ["C", "directory"], "value": ["f", "file", "makefile", "o", "old-file", "W", "what-if", "new-file", "I", "include-dir"], "dry_run": ["n", "just-print", "dry-run", "recon"]},
	"gmake": {"dir": ["C", "directory"], "value": ["f", "file", "makefile"], "dry_run": ["n", "just-print", "dry-run", "recon"]},
	"ninja": {"dir": ["C"], "value": ["f"], "dry_run": ["n"]},
	"npm": {"dir": ["prefix", "C"], "text": ["w", "workspace", "tag", "otp", "access", "registry"], "dry_run": ["dry-run"]},
	"pnpm": {"dir": ["C", "dir", "prefix"], "text": ["filter", "F", "tag", "otp", "registry"], "dry_run": ["dry-run"]},
	"yarn": {"dir": ["cwd"], "text": ["tag", "otp", "registry"], "dry_run": ["dry-run"]},
	# Programs that load an env file into the environment of what they run:
	# the file is used, not shown (supabase functions serve --env-file .env).
	"supabase": {"use": ["env-file"], "value": ["workdir"]},
	"dotenv": {"use": ["e"]},
	"env-cmd": {"use": ["f", "file"]},
	"dotenvx": {"use": ["f", "env-file"]},
	"bun": {"dir": ["cwd"], "code": ["e", "eval", "p", "print"], "use": ["env-file"], "dry_run": ["dry-run"]},
	"cargo": {"dir": ["C"], "value": ["manifest-path", "target-dir"], "text": ["p", "package", "features", "F", "j", "jobs", "bin", "example", "test", "bench", "target", "config", "Z", "color", "registry", "token", "index"], "dry_run": ["dry-run", "n"]},
	"go": {"dir": ["C"]},
	"twine": {"use": ["p", "password", "config-file"], "text": ["u", "username", "r", "repository", "repository-url", "comment"]},
	"poetry": {"dir": ["C", "directory"], "dry_run": ["dry-run"]},
	"uv": {"dir": ["directory", "project"], "use": ["env-file"], "text": ["with", "extra", "group", "only-group", "i", "index-url", "extra-index-url", "f", "find-links", "default-index", "index", "p", "python"], "dry_run": ["dry-run"]},
	"pip": _pip,
	"pip3": _pip,
	"npx": {"text": ["p", "package"], "command": ["c", "call"]},
	"chezmoi": {"dry_run": ["n", "dry-run"]},
	"rclone": {"dry_run": ["n", "dry-run"], "use": ["config"]},
	"sudo": {"dry_run": ["l", "list"]},
	# Interpreters: code strings.
	"python": _python,
	"python2": _python,
	"python3": _python,
	"pypy": _python,
	"pypy3": _python,
	"python3.8": _python,
	"python3.9": _python,
	"python3.10": _python,
	"python3.11": _python,
	"python3.12": _python,
	"python3.13": _python,
	"node": _node,
	"nodejs": _node,
	"deno": {"use": ["env-file"], "subcommands": {"eval": {"code_operands": 1}, "run": {"use": ["env-file"]}}},
	"ruby": _ruby,
	"perl": _perl,
	"php": {"code": ["r"], "value": ["c", "d", "f"], "program": ["f"], "stdin_code": true},
	"osascript": {"code": ["e"], "text": ["l", "s"]},
	"lua": _lua,
	"luajit": _lua,
	"lua5.1": _lua,
	"lua5.2": _lua,
	"lua5.3": _lua,
	"lua5.4": _lua,
	"Rscript": {"code": ["e"]},
	"julia": {"code": ["e", "eval", "E", "print"]},
	# Editors: commands to run, not files.
	"vim": _vim,
	"vi": _vim,
	"nvim": _vim,
	"gvim": _vim,
	"ex": _vim,
	"uniq": {"text": ["f", "skip-fields", "s", "skip-chars", "w", "check-chars"]},
	"xxd": {"text": ["l", "len", "s", "seek", "c", "cols", "g", "groupsize", "o", "offset", "n", "name"]},
	"split": {"text": ["l", "lines", "b", "bytes", "C", "line-bytes", "n", "number", "a", "suffix-length", "additional-suffix", "t", "separator"]},
	"patch": {"value": ["i", "input", "o", "output", "d", "directory", "r", "reject-file", "B", "prefix", "D", "ifdef"]},
}

# An Ex command given with -c or --cmd runs what it says: !CMD a shell
# line, lua CODE code (ExShellLine in internal/shell).
_vim := {"text": ["c", "cmd"], "value": ["S", "u", "i", "T", "w", "W"], "nested": {"syntax": "ex", "options": ["c", "cmd"]}}

# Printers hand on their operands: $(realpath X) is X, and so are the
# items xargs reads from `printf '%s\n' X |`.
printers := {
	"echo": "operands",
	"printf": "format",
	"ls": "operands",
	"realpath": "operands",
	"readlink": "operands",
	"grealpath": "operands",
	"greadlink": "operands",
	"find": "under",
	"fd": "under",
	"fdfind": "under",
	"rg --files": "under",
	"pwd": "cwd",
	"git rev-parse --show-toplevel": "cwd",
}

# Filters pass items on unchanged, or fewer of them.
filters := ["grep", "egrep", "fgrep", "head", "tail", "sort", "uniq", "tac", "cat", "tee", "rg"]

# Environment variables whose value is a command line a program runs.
command_vars := ["GIT_SSH_COMMAND", "GIT_SSH", "GIT_EDITOR", "GIT_SEQUENCE_EDITOR", "GIT_PAGER", "GIT_EXTERNAL_DIFF", "GIT_ASKPASS", "SSH_ASKPASS", "EDITOR", "VISUAL", "PAGER", "MANPAGER", "LESSOPEN", "LESSCLOSE", "PROMPT_COMMAND", "RSYNC_RSH", "CVS_RSH", "SUDO_ASKPASS", "BROWSER"]

# git configuration keys whose value is a command line.
config_commands := ["core.sshcommand", "core.editor", "core.pager", "core.fsmonitor", "core.askpass", "sequence.editor", "diff.external", "credential.helper", "gpg.program", "pager.log", "pager.diff", "pager.show"]

# Well-known secret files. A glob that matches one (~/.kube/c*,
# ~/.ss?/id_*) is judged as naming it; a word only known when it runs
# that may be one ($D/credentials, ~/.aws/$F) is listed in the command's
# "maybe". Each must also be secret by secrets.rego's patterns to matter.
core_secret_examples := {
	"~/.ssh/id_rsa", "~/.ssh/id_ed25519", "~/.ssh/id_ecdsa", "~/.ssh/id_dsa", "~/.ssh/config",
	"~/.aws/credentials", "~/.aws/sso/cache/token.json",
	"~/.kube/config", "~/.docker/config.json", "~/.netrc", "~/.npmrc", "~/.pypirc", "~/.git-credentials",
	"~/.gnupg/private-keys-v1.d/key.key", "~/.gnupg/secring.gpg", "~/.gnupg/pubring.kbx",
	"~/.config/gcloud/application_default_credentials.json", "~/.config/gcloud/credentials.db", "~/.config/gcloud/access_tokens.db",
	"~/.azure/accessTokens.json", "~/.azure/msal_token_cache.json",
	"~/.cargo/credentials.toml", "~/.cargo/credentials", "~/.gem/credentials", "~/.config/gh/hosts.yml",
	"~/.vault-token", "~/.pgpass", "~/.my.cnf", "~/.s3cfg", "~/.boto", "~/.terraformrc",
	"~/.terraform.d/credentials.tfrc.json", "~/.composer/auth.json", "~/.config/rclone/rclone.conf",
	"~/.m2/settings.xml", "~/.gradle/gradle.properties", "~/.password-store/key.gpg",
	"~/.local/share/keyrings/login.keyring", "~/.bash_history", "~/.zsh_history",
	"~/Library/Keychains/login.keychain-db",
	"/etc/shadow", "/etc/gshadow", "/etc/sudoers", "/etc/ssh/ssh_host_rsa_key", "/etc/ssh/ssh_host_ed25519_key", "/etc/ssh/ssh_host_ecdsa_key",
	"/run/secrets/token", "/var/run/secrets/kubernetes.io/serviceaccount/token",
}

# File names too common to say, alone, which file a dynamic word names.
ambiguous_names := ["config", "config.json", "config.yml", "config.yaml", "settings.xml", "auth.json", "token", "token.json", "key", "login.keyring"]

# Interpreter APIs, as regular expressions (see shell.CodeRoles).
code_apis := {
	"home": [
		`os\.path\.expanduser\(\s*['"]~['"]\s*\)`,
		`(?:require\(\s*['"](?:node:)?os['"]\s*\)|\bos)\.homedir\(\s*\)`,
		`\bhomedir\(\s*\)`,
		`Path\.home\(\s*\)`,
		`pathlib\.Path\.home\(\s*\)`,
		`os\.environ\s*(?:\[\s*['"]HOME['"]\s*\]|\.get\(\s*['"]HOME['"]\s*\))`,
		`os\.getenv\(\s*['"]HOME['"]\s*\)`,
		`\bgetenv\(\s*['"]HOME['"]\s*\)`,
		`process\.env\.HOME\b`,
		`process\.env\[\s*['"]HOME['"]\s*\]`,
		`\bENV\s*\[\s*['"]HOME['"]\s*\]`,
		`\$ENV\{\s*['"]?HOME['"]?\s*\}`,
		`\$_SERVER\[\s*['"]HOME['"]\s*\]`,
		`Dir\.home\b`,
		`File\.expand_path\(\s*['"]~['"]\s*\)`,
		`Deno\.env\.get\(\s*['"]HOME['"]\s*\)`,
		`System\.getProperty\(\s*['"]user\.home['"]\s*\)`,
		`ENVIRON\[\s*"HOME"\s*\]`,
	],
	"delete": [
		`os\.(?:remove|unlink|rmdir)`, `\bPath\([^)]*\)\.unlink`, `\.(?:unlinkSync|rmdirSync)`, `\bfs\.(?:unlink|rmdir)`,
		`File\.(?:delete|unlink)`, `FileUtils\.rm(?:_f)?`, `\bunlink`, `\brmdir`,
	],
	"delete_tree": [
		`shutil\.rmtree`, `\.rmSync`, `\bfs\.rm`, `\)\.rm`, `fs\.promises\.rm`, `rimraf(?:\.sync)?`, `FileUtils\.(?:rm_rf|rm_r|remove_dir|remove_entry)`,
		`File::Path::(?:remove_tree|rmtree)`, `\bremove_tree`, `\brmtree`, `Deno\.remove`,
	],
	"shell": [
		`os\.system`, `os\.popen`, `subprocess\.(?:run|call|check_call|check_output|Popen|getoutput|getstatusoutput)`,
		`(?:child_process\.|\b)(?:execSync|exec)`, `\bsystem`, `\bshell_exec`, `\bpassthru`, `\bpopen`, `\bproc_open`,
		`%x\{?`, `\bIO\.popen`, `\bOpen3\.\w+`, `\bqx\{?`, `Runtime\.getRuntime\(\)\.exec`, `do shell script`, `\bdoShellScript`,
		`\bos\.execute`, `\bio\.popen`, `\bexecCommand`, `\bexec\.Command\(\s*['"](?:ba)?sh['"]\s*,\s*['"]-c['"]\s*,`, `\bProcess\.spawn`, `\bspawn`, `\bcommands\.getoutput`, `\bpty\.spawn`,
	],
	"argv": [`subprocess\.(?:run|call|check_call|check_output|Popen)`, `os\.exec\w+`, `\bspawnSync`, `\bexecFileSync`],
	"kill": [`os\.kill`, `os\.killpg`, `process\.kill`, `\bposix_kill`],
	"write": [
		`\b(?:writeFileSync|appendFileSync|writeFile|appendFile|createWriteStream|outputFileSync|outputFile)`,
		`File\.(?:write|binwrite)`, `IO\.(?:write|binwrite)`, `\bfile_put_contents`, `Deno\.writeTextFile(?:Sync)?`,
		`Bun\.write`, `\bsink`,
	],
	"write_arg": [
		`\b(?:shutil\.(?:copy|copy2|copyfile|move)|os\.(?:rename|replace|symlink|link)|fs\.(?:copyFileSync|renameSync|symlinkSync|copyFile|rename)|FileUtils\.(?:cp|mv|ln_sf?|install))\s*\([^,()]*\([^()]*\)[^,()]*,\s*`,
		`\b(?:shutil\.(?:copy|copy2|copyfile|move)|os\.(?:rename|replace|symlink|link)|fs\.(?:copyFileSync|renameSync|symlinkSync|copyFile|rename)|FileUtils\.(?:cp|mv|ln_sf?|install))\s*\([^,()]*,\s*`,
		`\bopen\s*\(?\s*[^,()]+,\s*['"]\+?(?:>>?|\+<)['"]\s*,\s*`,
		`\bprintf?\b[^;{}]*>>?\s*`,
	],
	"open": [`\bopen`, `\bfopen`, `File\.new`],
	"open_mode": [`\s*\)*\s*,\s*(?:mode\s*=\s*)?['"][^'"]*[wax+]`, `\s*\)*\s*,\s*(?:fs\.)?(?:O_WRONLY|O_APPEND|O_RDWR|os\.O_WRONLY|os\.O_APPEND|os\.O_RDWR)`],
	"write_after": [`\s*\)*\s*(?:\.\s*(?:expanduser|resolve|absolute)\(\s*\)\s*)*\.\s*(?:write_text|write_bytes)\s*\(`, `\s*\)*\s*(?:\.\s*(?:expanduser|resolve|absolute)\(\s*\)\s*)*\.\s*open\(\s*['"][wax]`],
	"write_prefix": [`\+?>>?\s*`],
}
