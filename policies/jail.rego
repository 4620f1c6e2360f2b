package agentjail

# The jail: every shell call the guard allows runs under the kernel's
# confinement (Landlock on Linux, Seatbelt on macOS), which no spelling of
# a command gets past. This file is the profile it applies, as data the
# pack owns and a user's policy extends with a line:
#
#   jail_no_read   places no confined call may read (credentials);
#   jail_no_write  places no confined call may write, create, remove or
#                  rename (the guard, the agents' hooks, start-up files,
#                  service places);
#   confine        what this call may still reach, by the programs in it
#                  (git push over ssh reads ~/.ssh);
#   jail_notes     why a grant was withheld, printed when the call starts.
#
# The daemon asks for these for every shell call it does not deny (see
# docs/security.md, "The jail").

# jail_home_no_read: credential places, relative to the home directory.
jail_home_no_read := {
	".ssh", ".aws", ".gnupg", ".kube", ".azure", ".config/gcloud", ".config/gh", ".config/hub",
	".docker/config.json", ".config/containers/auth.json",
	".netrc", ".git-credentials", ".config/git/credentials", ".pgpass", ".my.cnf", ".mylogin.cnf",
	".vault-token", ".pypirc", ".npmrc", ".yarnrc.yml", ".cargo/credentials", ".cargo/credentials.toml",
	".terraform.d/credentials.tfrc.json", ".m2/settings-security.xml", ".composer/auth.json",
	".config/composer/auth.json", ".config/rclone/rclone.conf", ".s3cfg", ".boto", ".oci",
	".databrickscfg", ".kaggle/kaggle.json", ".huggingface/token", ".cache/huggingface/token",
	".config/sops/age/keys.txt", ".config/age", ".age", ".pulumi/credentials.json",
	".config/doctl/config.yaml", ".config/hcloud/cli.toml", ".fly/config.yml",
	".config/stripe/config.toml", ".sentryclirc", ".config/op", ".password-store",
	".local/share/keyrings", ".local/share/kwalletd",
	".thunderbird", ".mozilla-thunderbird", ".local/share/evolution", ".config/Slack", ".config/discord", ".config/Signal",
	".mozilla", ".config/google-chrome", ".config/chromium", ".config/BraveSoftware",
	".config/microsoft-edge", "Library/Keychains", "Library/Cookies",
	"Library/Application Support/Google/Chrome", "Library/Application Support/Firefox",
} | agent_credentials

# jail_abs_no_read: credential places outside any home.
jail_abs_no_read := {"/run/secrets", "/var/run/secrets", "/etc/ssl/private"}

jail_no_read contains concat("", [home_slash, rel]) if {
	home != ""
	some rel in jail_home_no_read
}

jail_no_read contains p if some p in jail_abs_no_read

# The user's protected_paths (config.yaml) are kept like credentials: a
# confined call reads and changes nothing in them, whatever reaches
# them (cp -r, tar or grep -r of a folder above them, a computed path).
jail_no_read contains p if some p in protected_paths

# jail_home_no_write: places that run programs later or keep the guard
# in place, relative to the home directory: start-up files, the files
# that run programs when a person starts their shell, git or editor,
# autostart and service folders.
jail_home_no_write := {
	".bashrc", ".bash_profile", ".bash_login", ".bash_logout", ".profile", ".zshrc", ".zprofile",
	".zshenv", ".zlogin", ".zlogout", ".kshrc", ".mkshrc", ".cshrc", ".tcshrc", ".config/fish",
	".pam_environment", ".xprofile", ".xinitrc", ".xsession", ".xsessionrc", ".config/environment.d",
	".config/autostart", ".config/systemd", ".local/share/systemd", "Library/LaunchAgents",
	".gitconfig", ".config/git/config", ".config/git/attributes", ".ssh", ".gnupg/gpg-agent.conf",
	".vimrc", ".exrc", ".config/nvim/init.vim", ".config/nvim/init.lua", ".emacs", ".emacs.d/init.el",
	".config/direnv", ".direnvrc",
} | agent_user_places | agent_hook_folders

# The guard's own places (its home, policies and socket), the system's
# service and start-up places, and the agents' machine-wide settings.
jail_no_write contains concat("", [home_slash, rel]) if {
	home != ""
	some rel in jail_home_no_write
}

jail_no_write contains p if some p in guard_places

jail_no_write contains p if some p in protected_paths

jail_no_write contains p if some p in socket_places

jail_no_write contains p if some p in service_dirs

jail_no_write contains p if some p in agent_machine_places

jail_no_write contains p if some p in {"/etc/profile", "/etc/profile.d", "/etc/bash.bashrc", "/etc/zsh", "/etc/environment", "/etc/cron.d", "/etc/crontab", "/var/spool/cron", "/etc/systemd", "/etc/sudoers", "/etc/sudoers.d", "/etc/ld.so.preload"}

# jail_grants: what a program may reach beyond the defaults, relative to
# the home directory. subcommands lists the first operands the row is for
# ([] is any); read and write the places.
jail_grants := [
	{"program": "git", "subcommands": ["push", "fetch", "pull", "clone", "ls-remote", "remote", "submodule"], "read": [".ssh", ".git-credentials", ".netrc", ".config/gh", ".config/git/credentials"], "write": [".ssh/known_hosts"]},
	{"program": "git", "subcommands": ["commit", "tag", "merge", "rebase", "cherry-pick", "revert", "am"], "read": [".gnupg"], "write": [".gnupg"]},
	{"program": "ssh", "subcommands": [], "read": [".ssh"], "write": [".ssh/known_hosts"]},
	{"program": "scp", "subcommands": [], "read": [".ssh"], "write": [".ssh/known_hosts"]},
	{"program": "sftp", "subcommands": [], "read": [".ssh"], "write": [".ssh/known_hosts"]},
	{"program": "rsync", "subcommands": [], "read": [".ssh"], "write": [".ssh/known_hosts"]},
	{"program": "aws", "subcommands": [], "read": [".aws"], "write": [".aws/sso/cache", ".aws/cli/cache"]},
	{"program": "gcloud", "subcommands": [], "read": [".config/gcloud"], "write": [".config/gcloud"]},
	{"program": "gsutil", "subcommands": [], "read": [".config/gcloud", ".boto"], "write": [".config/gcloud"]},
	{"program": "bq", "subcommands": [], "read": [".config/gcloud"], "write": [".config/gcloud"]},
	{"program": "az", "subcommands": [], "read": [".azure"], "write": [".azure"]},
	{"program": "kubectl", "subcommands": [], "read": [".kube"], "write": [".kube/cache"]},
	{"program": "helm", "subcommands": [], "read": [".kube"], "write": [".kube/cache"]},
	{"program": "k9s", "subcommands": [], "read": [".kube"], "write": [".kube/cache"]},
	{"program": "gh", "subcommands": [], "read": [".config/gh"], "write": [".config/gh"]},
	{"program": "npm", "subcommands": ["install", "i", "ci", "add", "update", "publish", "view", "info", "whoami", "login", "logout", "outdated", "audit", "pack", "dist-tag", "access", "owner", "unpublish", "deprecate", "search"], "read": [".npmrc"], "write": []},
	{"program": "pnpm", "subcommands": ["install", "i", "add", "update", "publish", "view", "info", "whoami", "login", "outdated", "audit"], "read": [".npmrc"], "write": []},
	{"program": "yarn", "subcommands": ["install", "add", "upgrade", "publish", "info", "npm", "login"], "read": [".npmrc", ".yarnrc.yml"], "write": []},
	{"program": "docker", "subcommands": [], "read": [".docker/config.json"], "write": []},
	{"program": "podman", "subcommands": [], "read": [".config/containers/auth.json"], "write": []},
	{"program": "terraform", "subcommands": [], "read": [".terraform.d/credentials.tfrc.json"], "write": []},
	{"program": "cargo", "subcommands": ["publish", "login", "logout", "owner", "yank"], "read": [".cargo/credentials", ".cargo/credentials.toml"], "write": []},
	{"program": "twine", "subcommands": ["upload"], "read": [".pypirc"], "write": []},
	{"program": "psql", "subcommands": [], "read": [".pgpass"], "write": []},
	{"program": "pg_dump", "subcommands": [], "read": [".pgpass"], "write": []},
	{"program": "pg_restore", "subcommands": [], "read": [".pgpass"], "write": []},
	{"program": "mysql", "subcommands": [], "read": [".my.cnf", ".mylogin.cnf"], "write": []},
	{"program": "mysqldump", "subcommands": [], "read": [".my.cnf", ".mylogin.cnf"], "write": []},
]

# jail_inert: programs that read and write nothing named by an operand,
# which may share a call with a granted program.
jail_inert := {"cd", "pwd", "echo", "printf", "true", "false", "test", "[", "sleep", "exit", "export", "set", "unset", ":", "date", "whoami", "hostname"}

# jail_grant_rows: the rows this call's commands match.
jail_grant_rows contains [cmd.name, i] if {
	some cmd in commands
	some i, row in jail_grants
	row.program == cmd.name
	jail_row_matches(row, cmd)
}

jail_row_matches(row, cmd) if {
	count(row.subcommands) == 0
	not jail_runs_code(cmd)
}

jail_row_matches(row, cmd) if {
	subcommand(cmd) in row.subcommands
	not jail_runs_code(cmd)
}

# jail_runs_code(cmd): cmd names a program of its own to run, which
# would share the grant (git -c core.sshCommand=…, GIT_SSH_COMMAND=…,
# ssh -o ProxyCommand=…, rsync -e …): such a command gets none.
jail_runs_code(cmd) if count(object.get(cmd, "assigns", {})) > 0

jail_runs_code(cmd) if {
	cmd.name == "git"
	some a in cmd.args
	regex.match(`^(-c.*|--config-env.*|--exec-path.*|--upload-pack.*|--receive-pack.*|--exec=.*)$`, a)
}

jail_runs_code(cmd) if {
	cmd.name in {"ssh", "scp", "sftp"}
	some a in cmd.args
	regex.match(`(?i)^-F|^-J|command|proxyjump`, a)
}

jail_runs_code(cmd) if {
	cmd.name == "rsync"
	some a in cmd.args
	regex.match(`^(-e.*|--rsh.*|--rsync-path.*|-[a-zA-Z]*e.*)$`, a)
}

jail_granting := {name | some [name, _] in jail_grant_rows}

# A command that is neither inert nor one of a granting program's shares
# whatever the call is granted: a grant is withheld from such a call.
jail_strangers := {cmd.name |
	some cmd in commands
	not cmd.name in jail_inert
	not cmd.name in jail_granting
}

confine contains {"read": concat("", [home_slash, rel]), "for": name} if {
	count(jail_strangers) == 0
	some [name, i] in jail_grant_rows
	some rel in jail_grants[i].read
}

confine contains {"write": concat("", [home_slash, rel]), "for": name} if {
	count(jail_strangers) == 0
	some [name, i] in jail_grant_rows
	some rel in jail_grants[i].write
}

jail_notes contains msg if {
	count(jail_strangers) > 0
	count(jail_granting) > 0
	msg := sprintf("agentjail: %s reaches %s only when run in a call of its own: %s shares this one (the jail cannot give one program of a call more than the others)", [concat(", ", sort(jail_granting)), concat(", ", sort({p | some [_, i] in jail_grant_rows; some rel in jail_grants[i].read; p := concat("", ["~/", rel])})), concat(", ", sort(jail_strangers))])
}

# jail_home_make: tools' folders right in the home folder, made empty by
# the launcher when missing: a confined call cannot make a new entry in
# a folder that holds protected places (the home folder among them), so
# the first npm install or go build on a new machine would fail.
jail_home_make := {".cache", ".local", ".local/share", ".local/state", ".local/bin", ".npm", ".yarn", ".pnpm-store", "go", ".cargo", ".rustup", ".m2", ".gradle", ".nuget", ".bun", ".deno", ".pyenv", ".nvm", ".conda", ".ipython", ".jupyter", ".mypy_cache", ".terraform.d"}

# jail: the document the daemon reads.
jail := {
	"no_read": jail_no_read,
	"no_write": jail_no_write,
	"read": {g.read | some g in confine; g.read},
	"write": {g.write | some g in confine; g.write},
	"make": {concat("", [home_slash, rel]) | home != ""; some rel in jail_home_make},
	"notes": jail_notes,
}
