package agentjail

# Verbs: which words of a command are its subcommand and operands once
# the options that take a value are skipped, so that `kubectl -n prod
# delete deploy api` is a delete and `aws --region eu-west-1 rds
# delete-db-cluster` a delete-db-cluster. Which options take a value is
# roles.rego's program_roles, the table the shell parser reads too.

# value_option holds [program, option] pairs: the options (written with
# dashes) that take the next word as their value unless written
# --opt=value. They are written once, in roles.rego's program_roles:
# every option a program's row gives a role (value, text, use, dir,
# command, code, config), but one whose value names the program run
# instead (python -m twine upload: the tool is twine). A user's policy adds a row there (`program_role
# contains ["tool", {"text": ["env"]}]`, which the shell parser reads
# too) or a pair here (`value_option contains ["tool", "--env"]`).
value_option contains [prog, dashed_option(opt)] if {
	some prog, row in program_roles
	some role in value_roles
	some opt in object.get(row, role, [])
	not opt in object.get(row, "program", [])
}

value_roles := ["value", "text", "use", "dir", "command", "code", "config"]

dashed_option(opt) := concat("", ["-", opt]) if count(opt) == 1

dashed_option(opt) := concat("", ["--", opt]) if count(opt) > 1

# takes_value(name, word): word is an option of program name that takes
# the next word as its value. It looks the one pair up: `[name, word] in
# value_option` would build the whole set (about 1,900 allocations) for
# every command with an option before a word.
takes_value(name, word) if value_option[[name, word]]

# positional(cmd) are the words of cmd that are neither options nor
# option values: ["delete", "deploy", "api"] for `kubectl -n prod delete
# deploy api --grace-period 0`.
positional(cmd) := [a |
	some i, a in cmd.args
	not startswith(a, "-")
	not option_value_at(cmd, i)
]

option_value_at(cmd, i) if {
	i > 0
	prev := cmd.args[i - 1]
	startswith(prev, "-")
	not contains(prev, "=")
	takes_value(cmd.name, prev)
}

# option_value(cmd, names) is the value of one of the options names
# (written with dashes), as `--opt value`, `--opt=value` or `-ovalue`.
option_value(cmd, names) := v if {
	some i, a in cmd.args
	a in names
	v := cmd.args[i + 1]
}

option_value(cmd, names) := v if {
	some a in cmd.args
	some n in names
	startswith(n, "--")
	startswith(a, concat("", [n, "="]))
	v := substring(a, count(n) + 1, -1)
}

option_value(cmd, names) := v if {
	some a in cmd.args
	some n in names
	count(n) == 2
	not startswith(n, "--")
	startswith(a, n)
	count(a) > 2
	not startswith(a, "--")
	v := substring(a, 2, -1)
}

# option_values(cmd, names) are all the values of the options names.
option_values(cmd, names) := {v |
	some i, a in cmd.args
	a in names
	v := cmd.args[i + 1]
} | {v |
	some a in cmd.args
	some n in names
	startswith(n, "--")
	startswith(a, concat("", [n, "="]))
	v := substring(a, count(n) + 1, -1)
} | {v |
	some a in cmd.args
	some n in names
	count(n) == 2
	not startswith(n, "--")
	startswith(a, n)
	count(a) > 2
	not startswith(a, "--")
	v := substring(a, 2, -1)
} | {v |
	# The last of a cluster the parser split into flags: curl -fsSLo FILE.
	some i, a in cmd.args
	count(a) > 2
	startswith(a, "-")
	not startswith(a, "--")
	some n in names
	count(n) == 2
	endswith(a, substring(n, 1, 1))
	regex.match(`^-[A-Za-z]+$`, a)
	every l in split(substring(a, 1, -1), "") {
		l in cmd.flags
	}
	v := cmd.args[i + 1]
}

# Package runners run the tool named after them: `npx prisma migrate
# reset`, `bundle exec rails db:drop`, `python manage.py flush`.
runner_prefixes := {
	"npx": 0, "bunx": 0, "pnpx": 0,
	"pnpm": {"exec", "dlx"}, "yarn": {"exec", "dlx", "run"}, "bun": {"x", "run"}, "npm": {"exec"},
	"bundle": {"exec"}, "poetry": {"run"}, "uv": {"run"}, "pipenv": {"run"}, "pdm": {"run"}, "hatch": {"run"},
	"php": 0, "python": 0, "python3": 0, "node": 0, "dotnet": 0,
}

# invocations(cmd) are the ways to read a command as a tool and its
# verbs: the command itself (["npm", "install", "x"]), and, behind a
# runner, the tool it runs: ["prisma", "migrate", "reset"] for `npx -y
# prisma migrate reset`, ["manage.py", "flush"] for `python manage.py
# flush`, ["rails", "db:drop"] for `bundle exec rails db:drop`.
invocations(cmd) := {array.concat([cmd.name], positional(cmd))} | runs_tool(cmd)

runs_tool(cmd) := {tool_words(pos) |
	runner_prefixes[cmd.name] == 0
	pos := positional(cmd)
	count(pos) > 0
} | {tool_words(array.slice(pos, 1, count(pos))) |
	subs := runner_prefixes[cmd.name]
	subs != 0
	pos := positional(cmd)
	pos[0] in subs
	count(pos) > 1
} | {tool_words(pos) |
	cmd.name in {"yarn", "pnpm"} # yarn prisma ...: a tool run directly
	pos := positional(cmd)
	count(pos) > 0
}

tool_words(pos) := array.concat([base_name(pos[0])], array.slice(pos, 1, count(pos)))

# has_words(words, seq): seq (a string of space-separated words) appears
# in words, in order and contiguous.
has_words(words, seq) if {
	want := split(seq, " ")
	some i, w in words
	w == want[0] # slices only where the first word is
	array.slice(words, i, i + count(want)) == want
}

# full_text(cmd) is the command written out, for messages.
full_text(cmd) := concat(" ", array.concat([cmd.name], cmd.args))

# dry_run(cmd): a flag that makes the command only show what it would do.
dry_run(cmd) if {
	has_flag(cmd, {"dry-run", "dryrun", "what-if", "whatif", "preview-only"})
	not "--dry-run=none" in cmd.args
}

# The families of the pack file their programs under these groups, so a
# rule can start with `"database" in input.agentjail.kinds`.
family_programs := {
	"database": {
		"psql", "mysql", "mariadb", "sqlite3", "sqlite", "duckdb", "redis-cli", "valkey-cli", "keydb-cli", "mongosh", "mongo",
		"cqlsh", "clickhouse-client", "clickhouse", "cockroach", "sqlcmd", "usql", "pgcli", "mycli", "litecli", "etcdctl",
		"influx", "mysqladmin", "dropdb", "dropuser", "rails", "rake", "bundle", "prisma", "npx", "bunx", "pnpx", "pnpm",
		"yarn", "bun", "python", "python3", "php", "sequelize", "sequelize-cli", "knex", "typeorm", "mix", "dotnet", "alembic",
		"supabase", "drizzle-kit", "flyway", "liquibase", "diesel", "django-admin", "console", "poetry", "uv", "pipenv",
		"curl", "http", "xh", "npm",
	},
	"infra": {
		"kubectl", "oc", "helm", "docker", "podman", "docker-compose", "nerdctl", "terraform", "tofu", "terragrunt", "cdk",
		"cdktf", "serverless", "sls", "pulumi", "aws", "gsutil", "gcloud", "az", "heroku", "fly", "flyctl", "vercel",
		"firebase", "netlify", "doctl", "eksctl", "supabase", "wrangler", "railway", "rclone", "s3cmd", "mc", "sst",
		"amplify", "copilot", "kind", "npx", "bunx", "pnpx", "pnpm", "yarn",
	},
	"envdump": {
		"env", "printenv", "export", "set", "declare", "typeset", "compgen", "echo", "printf", "print", "ps", "awk", "gawk",
		"mawk", "perl", "python", "python2", "python3", "node", "ruby", "php", "bun", "deno", "jq",
	},
	"tokens": {
		"gh", "glab", "aws", "kubectl", "oc", "git", "pass", "gopass", "op", "bw", "lpass", "secret-tool", "gcloud", "az",
		"vault", "heroku", "npm", "fly", "flyctl", "keyring", "keepassxc-cli", "docker-credential-desktop",
		"docker-credential-osxkeychain", "docker-credential-secretservice", "docker-credential-pass",
		"docker-credential-wincred", "docker-credential-gcloud", "docker-credential-ecr-login", "docker-credential-gcr",
		"docker-credential-acr-env", "git-credential-osxkeychain", "git-credential-manager", "git-credential-store",
		"git-credential-libsecret",
	},
	"netshell": {
		"nc", "ncat", "netcat", "socat", "telnet", "mkfifo", "openssl", "python", "python2", "python3", "perl", "ruby",
		"php", "node", "lua", "awk", "gawk",
	},
	"dns": {"host", "dig", "nslookup", "drill", "ping", "ping6", "traceroute", "getent", "resolvectl"},
	"tunnel": {
		"ssh", "autossh", "ngrok", "cloudflared", "lt", "localtunnel", "bore", "frpc", "tailscale", "chisel", "npx", "bunx",
		"pnpx", "iodine", "iodined", "dnscat", "dnscat2", "dns2tcpc", "dns2tcpd", "ptunnel", "ptunnel-ng", "hans",
		"icmptunnel", "icmpsh",
	},
	"wipe": {
		"rsync", "shred", "truncate", "mv", "blkdiscard", "sgdisk", "cryptsetup", "hdparm", "nvme", "zpool", "lvremove",
		"vgremove", "pvremove", "mdadm", "srm", "wipe", "rm", "chmod",
	},
	"install": {
		"pip", "pip3", "uv", "pipx", "python", "python3", "npm", "pnpm", "yarn", "bun", "npx", "bunx", "pnpx", "deno",
		"uvx", "go", "curl", "wget", "git", "cargo", "gem",
	},
	"persist": {
		"git", "systemd-run", "osascript", "ssh-copy-id", "npm", "yarn", "pnpm", "pip", "pip3", "gem", "go", "conda",
		"bundle", "composer", "defaults",
	},
	"firewall": {
		"ufw", "systemctl", "service", "iptables", "ip6tables", "nft", "pfctl", "spctl", "csrutil", "setenforce",
		"socketfilterfw", "netsh", "aa-teardown", "firewall-cmd", "setcap", "run0", "usermod", "gpasswd", "chmod",
	},
	"search": {"grep", "egrep", "fgrep", "rg", "ag", "ack", "git", "find"},
}

# program_group holds [program, group] pairs; lib.rego merges them into
# program_groups. A user's policy can add its own pairs.
program_group contains [prog, group] if {
	some group, progs in family_programs
	some prog in progs
}

# has_option(cmd, names): one of the option names is given, as a flag
# (-x, --name) or as a single-dash long option (terraform's -destroy).
has_option(cmd, names) if has_flag(cmd, names)

has_option(cmd, names) if {
	some a in cmd.args
	startswith(a, "-")
	some n in names
	regex.replace(a, `^--?([^=]*)(=.*)?$`, "$1") == n
}
