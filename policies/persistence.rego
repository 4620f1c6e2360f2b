package agentjail

# Persistence and privilege: start-up files, login keys, scheduled jobs,
# services and system configuration; sudo.
#
# Rules about system files start with the fixed start (or end) of the
# paths they match, over every write: OPA's rule index answers
# strings.any_prefix_match and any_suffix_match without entering the rule.

startup_file(p) if regex.match(`^(\.(bashrc|bash_profile|bash_login|bash_logout|profile|zshrc|zprofile|zshenv|zlogin|zlogout|kshrc|cshrc|tcshrc|inputrc)|\.config/fish/(config\.fish|conf\.d/.*))$`, home_rel(p))

startup_file(p) if p in {"/etc/profile", "/etc/bashrc", "/etc/bash.bashrc", "/etc/zshrc", "/etc/zprofile", "/etc/environment"}

ask contains {"id": "persist.shell_startup", "msg": msg} if {
	input.agentjail.writes[0]
	some p in writes
	startup_file(p)
	msg := sprintf("%s runs in every new shell; changing it needs the user's approval. Tell the user the line to add instead.", [pretty(p)])
}

deny contains {"id": "persist.authorized_keys", "msg": msg} if {
	strings.any_suffix_match(input.agentjail.writes, ["authorized_keys", "authorized_keys2"])
	some p in writes
	base_name(p) in {"authorized_keys", "authorized_keys2"}
	msg := sprintf("Blocked: writing %s would let someone log in to this machine. Ask the user to add keys themselves.", [pretty(p)])
}

deny contains {"id": "persist.system_config", "msg": msg} if {
	strings.any_prefix_match(input.agentjail.writes, "/etc")
	some p in writes
	under(p, "/etc")
	not startup_file(p)
	msg := sprintf("Blocked: %s is system configuration. Ask the user to change it themselves.", [pretty(p)])
}

deny contains {"id": "persist.system_files", "msg": msg} if {
	strings.any_prefix_match(input.agentjail.writes, ["/Applications/", "/System/", "/Library/", "/bin/", "/sbin/", "/usr/"])
	some p in writes
	system_file(p)
	not regex.match(`^/Library/Launch(Agents|Daemons)/`, p)
	not machine_preference(p)
	msg := sprintf("Blocked: %s belongs to the system or an installed application; changing it can plant code that runs later. Ask the user to install or change it themselves.", [pretty(p)])
}

# machine_preference(p): a machine-wide preferences file (defaults write
# /Library/Preferences/…), which macos.rego's security_defaults and
# priv.sudo judge by key; the login window's runs hooks, so it stays a
# system file.
machine_preference(p) if {
	startswith(p, "/Library/Preferences/")
	not contains(p, "loginwindow")
}

# system_file(p): the system's programs and libraries, and the installed
# apps (lib.rego's in_system: an app bundle or an entry of /Applications,
# not a web root a local server keeps there).
system_file(p) if regex.match(`^/(System|Library|bin|sbin|usr/(bin|sbin|lib|libexec|share))/`, p)

system_file(p) if {
	startswith(p, "/Applications/")
	in_system(p)
}

ask contains {"id": "persist.system_files", "msg": msg} if {
	strings.any_prefix_match(input.agentjail.writes, ["/usr/local/", "/opt/"])
	some p in writes
	regex.match(`^/(usr/local|opt)/`, p)
	msg := sprintf("%s is outside the project, in a shared program folder; the user has to approve changing it.", [pretty(p)])
}

deny contains {"id": "persist.launch_daemon", "msg": msg} if {
	strings.any_prefix_match(input.agentjail.writes, ["/Library/Launch", "/System/Library/Launch"])
	some p in writes
	regex.match(`^/(Library|System/Library)/Launch(Agents|Daemons)/`, p)
	msg := sprintf("Blocked: %s would start a program for every user at boot. Ask the user to install it themselves.", [pretty(p)])
}

ask contains {"id": "persist.user_service", "msg": msg} if {
	input.agentjail.writes[0]
	some p in writes
	regex.match(`^(Library/LaunchAgents|\.config/systemd/user|\.config/autostart)/`, home_rel(p))
	not regex.match(`agentjail`, p)
	msg := sprintf("%s starts a program at every login; the user has to approve it.", [pretty(p)])
}

ask contains {"id": "persist.crontab", "msg": msg} if {
	"crontab" in input.agentjail.names
	some cmd in commands
	cmd.name == "crontab"
	not has_flag(cmd, {"l"})
	msg := "Changing the crontab schedules commands to run unattended; the user has to approve it."
}

# incron runs a command when a file changes: a crontab of events.
ask contains {"id": "persist.crontab", "msg": msg} if {
	"incrontab" in input.agentjail.names
	some cmd in commands
	cmd.name == "incrontab"
	not has_flag(cmd, {"l", "list"})
	msg := "Changing the incrontab runs commands unattended whenever a watched file changes; the user has to approve it."
}

ask contains {"id": "persist.crontab", "msg": msg} if {
	"at" in input.agentjail.kinds
	some cmd in commands
	cmd.name in {"at", "batch"}
	not has_flag(cmd, {"l"})
	msg := sprintf("`%s` schedules commands to run unattended; the user has to approve it.", [cmd.name])
}

ask contains {"id": "persist.crontab", "msg": msg} if {
	strings.any_prefix_match(input.agentjail.writes, ["/etc/cron", "/var/spool/cron", "/usr/lib/cron", "/var/at"])
	some p in writes
	regex.match(`^/(etc/cron|var/spool/cron|usr/lib/cron|var/at)`, p)
	msg := sprintf("%s schedules commands to run unattended; the user has to approve it.", [pretty(p)])
}

ask contains {"id": "persist.service_load", "msg": msg} if {
	"service" in input.agentjail.kinds
	some cmd in commands
	cmd.name == "launchctl"
	subcommand(cmd) in {"load", "bootstrap", "enable", "submit"}
	msg := sprintf("`launchctl %s` installs a background service; the user has to approve it.", [subcommand(cmd)])
}

ask contains {"id": "persist.service_load", "msg": msg} if {
	"service" in input.agentjail.kinds
	some cmd in commands
	cmd.name == "systemctl"
	some op in cmd.operands
	op in {"enable", "link", "preset"}
	msg := sprintf("`systemctl %s` makes a service start by itself; the user has to approve it.", [op])
}

privilege_commands := {"sudo", "doas", "su", "pkexec", "sudoedit", "runas"}

ask contains {"id": "priv.sudo", "msg": msg} if {
	"privilege" in input.agentjail.kinds
	some cmd in commands
	runs_privileged(cmd)
	msg := "This command runs as root; the user has to approve it (and may have to type a password). Prefer a way that needs no root, such as a user-level install."
}

runs_privileged(cmd) if {
	cmd.name in privilege_commands
	not cmd.dry_run # sudo -l lists what the user may run
	not only_forgets_credentials(cmd)
}

# sudo -k and -K run nothing: they drop the cached password, so the next
# sudo asks for it again. (-v is not here: it primes the cache.)
only_forgets_credentials(cmd) if {
	cmd.name == "sudo"
	count(cmd.operands) == 0
	count(cmd.flags) > 0
	every f in cmd.flags {
		f in {"k", "K", "reset-timestamp", "remove-timestamp"}
	}
}

runs_privileged(cmd) if {
	some w in cmd.wrappers
	w in privilege_commands
}
