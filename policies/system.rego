package agentjail

# System acts: powering the machine off, what root alone may do (accounts,
# kernel modules, kernel switches) when the agent runs as root, wearing
# the machine out (fork bombs, disk fillers, endless loops, miners), and
# covering tracks (history, system logs, audit rules, timestamps, the
# agent's own transcripts).

# system_groups: the programs each group of rules below looks at; the
# daemon lists a call's groups in input.agentjail.kinds, so a rule that
# starts with its group costs nothing for other calls.
system_groups := {
	"power": {"shutdown", "reboot", "halt", "poweroff", "init", "telinit", "systemctl", "loginctl"},
	"root_act": {p | some p, _ in root_acts},
	"logging": {"auditctl", "systemctl", "service", "launchctl", "journalctl", "log", "wevtutil", "wevtutil.exe"},
	"exhaust": {"dd", "fallocate", "mkfile", "yes", "truncate", "stress", "stress-ng"},
	"stream_reader": {"cat", "head", "tail"},
	"shell_history": {"history", "unset", "set"},
	"timestamps": {"touch"},
	"miner": miners | container_launchers,
	"services": {p | some p, _ in service_stops},
}

program_group contains [prog, group] if {
	some group, progs in system_groups
	some prog in progs
}

asks_for_help(cmd) if has_option(cmd, {"help", "version"})

# --- services stopped on other hosts (T1489) -----------------------------

# service_stops: per service manager, the verbs (its first positional
# word, or for service and rc-service the second) that stop a service or
# keep it from starting. On this machine they stop the developer's own
# services, or need sudo, which priv.sudo asks about; run on another
# host (ssh HOST CMD, systemctl -H HOST) they take a server's service
# down for whoever uses it.
service_stops := {
	"systemctl": {"stop", "disable", "mask", "kill", "isolate"},
	"service": {"stop"},
	"rc-service": {"stop"},
	"sv": {"down", "stop", "force-stop", "exit"},
	"supervisorctl": {"stop", "remove", "shutdown"},
	"pm2": {"stop", "delete", "kill"},
	"launchctl": {"bootout", "unload", "disable", "kill"},
}

stops_service(cmd) if {
	verbs := service_stops[cmd.name]
	not cmd.name in {"service", "rc-service"}
	hosts := option_values(cmd, {"-H", "--host"}) # systemctl -H HOST stop: the host is no verb
	words := [w | some w in positional(cmd); not w in hosts]
	words[0] in verbs
}

stops_service(cmd) if {
	cmd.name in {"service", "rc-service"}
	positional(cmd)[1] in service_stops[cmd.name]
}

elsewhere_host(cmd) if cmd.remote

elsewhere_host(cmd) if {
	cmd.name == "systemctl"
	has_option(cmd, {"H", "host"})
}

ask contains {"id": "system.service_stop", "msg": msg} if {
	"services" in input.agentjail.kinds
	some cmd in commands
	stops_service(cmd)
	elsewhere_host(cmd)
	not has_option(cmd, {"user"})
	msg := sprintf("`%s` stops or disables a service on another host, for everyone who uses it; the user has to approve it.", [full_text(cmd)])
}

# --- a web server's own files (T1491) -----------------------------------

# The folders web servers serve by default: a file written there is what
# the site's visitors are shown, here or on a server reached by ssh.
web_roots := `^(/var/www|/srv/(www|http|htdocs)|/usr/share/nginx/html|/usr/local/var/www|/opt/homebrew/var/www|/Library/WebServer/Documents|/usr/local/apache2/htdocs|/var/lib/nginx/html)(/|$)`

ask contains {"id": "system.web_root_write", "msg": msg} if {
	some cmd in commands
	some p in cmd.writes
	regex.match(web_roots, p)
	msg := sprintf("`%s` writes into a web server's document root (%s), which is what the site's visitors are shown; the user has to approve it.", [full_text(cmd), p])
}

ask contains {"id": "system.web_root_write", "msg": msg} if {
	input.agentjail.tool_kind != "shell"
	some p in input.agentjail.writes
	regex.match(web_roots, p)
	msg := sprintf("This writes into a web server's document root (%s), which is what the site's visitors are shown; the user has to approve it.", [p])
}

# --- power (T1529) -----------------------------------------------------

# A logged-in user may power off or reboot through logind without sudo;
# with sudo, priv.sudo asks already.
power_programs := {"shutdown", "reboot", "halt", "poweroff"}

power_verbs := {
	"systemctl": {"poweroff", "reboot", "halt", "kexec", "soft-reboot", "rescue", "emergency"},
	"loginctl": {"poweroff", "reboot", "halt", "terminate-user", "terminate-session", "kill-user", "kill-session"},
	"init": {"0", "6", "1", "s", "S"},
	"telinit": {"0", "6", "1", "s", "S"},
}

powers_off(cmd) if {
	cmd.name in power_programs
	not asks_for_help(cmd)
	not has_option(cmd, {"c", "k", "show"}) # cancel, only warn, show
}

powers_off(cmd) if {
	verbs := power_verbs[cmd.name]
	positional(cmd)[0] in verbs
}

ask contains {"id": "system.power", "msg": msg} if {
	"power" in input.agentjail.kinds
	some cmd in commands
	powers_off(cmd)
	msg := sprintf("`%s` powers off, reboots or ends the sessions of this machine, losing every other running program's work; the user has to approve it.", [full_text(cmd)])
}

# --- what root alone may do (T1136, T1098, T1531, T1547.006) ------------

# root_acts: programs that change the machine's accounts or kernel, as
# "*" (every use but help) or the operands or options that make a use
# one; reads (passwd -S, chage -l, visudo -c) are listed as reads.
# Without root they fail, so they are judged when the caller is root;
# with sudo, priv.sudo asks already.
root_acts := {
	"useradd": "*", "adduser": "*", "usermod": "*", "userdel": "*", "deluser": "*", "newusers": "*",
	"groupadd": "*", "addgroup": "*", "groupmod": "*", "groupdel": "*", "delgroup": "*", "gpasswd": "*",
	"passwd": "*", "chpasswd": "*", "chage": "*", "chsh": "*", "vipw": "*", "vigr": "*", "visudo": "*",
	"sysadminctl": "*", "dscl": "*", "dseditgroup": "*",
	"insmod": "*", "rmmod": "*", "modprobe": "*", "kexec": "*",
	"sysctl": {"-w", "--write", "-p", "--load", "--system"},
}

# root_reads: uses of root_acts' programs that only look.
root_reads := {
	"passwd": {"-S", "--status"},
	"chage": {"-l", "--list"},
	"visudo": {"-c", "--check"},
	"modprobe": {"-n", "--dry-run", "--show-depends", "-c", "--showconfig"},
	"dscl": {"-read", "-list", "-search", "read", "list", "search"},
}

root_act(cmd) if {
	root_acts[cmd.name] == "*"
	not asks_for_help(cmd)
	not cmd.dry_run
	not root_read(cmd)
}

root_act(cmd) if {
	opts := root_acts[cmd.name]
	opts != "*"
	some a in cmd.args
	a in opts
}

# sysctl key=value sets a kernel switch as -w does.
root_act(cmd) if {
	cmd.name == "sysctl"
	some a in cmd.args
	regex.match(`^[a-z0-9_.]+=`, a)
}

root_read(cmd) if {
	some a in cmd.args
	a in root_reads[cmd.name]
}

ask contains {"id": "system.as_root", "msg": msg} if {
	input.agentjail.root == true
	"root_act" in input.agentjail.kinds
	some cmd in commands
	root_act(cmd)
	msg := sprintf("This session runs as root, so `%s` changes the machine's accounts or kernel as `sudo` would; the user has to approve it.", [full_text(cmd)])
}

# --- audit and logging switched off (T1562.012, T1562.006) --------------

# logging_services: the services that keep the machine's records
# (auditd, and the firewall's, are in privilege.rego's security_services).
logging_services := `^(rsyslog|syslog|syslog-ng|syslogd|sysklogd|metalog|systemd-journald|journald|systemd-journald\.socket|systemd-journald-audit\.socket|com\.apple\.syslogd|com\.apple\.auditd)(\.service|\.plist)?$`

blinds_records(cmd) if {
	cmd.name == "auditctl"
	has_option(cmd, {"D"})
}

blinds_records(cmd) if {
	cmd.name == "auditctl"
	some v in option_values(cmd, {"-e"})
	v == "0"
}

blinds_records(cmd) if {
	cmd.name in {"systemctl", "service"}
	pos := positional(cmd)
	some verb in pos
	verb in {"stop", "disable", "mask", "kill"}
	some unit in pos
	regex.match(logging_services, unit)
}

blinds_records(cmd) if {
	cmd.name == "launchctl"
	positional(cmd)[0] in {"unload", "bootout", "disable", "remove"}
	some a in cmd.args
	regex.match(`com\.apple\.(syslogd|auditd)`, a)
}

deny contains {"id": "system.logging_off", "msg": msg} if {
	"logging" in input.agentjail.kinds
	some cmd in commands
	blinds_records(cmd)
	msg := sprintf("Blocked: `%s` stops the machine's audit or system log from recording. Ask the user to do this themselves.", [full_text(cmd)])
}

# --- resource exhaustion (T1499.001, T1496) -----------------------------

# A command started with & each round of an endless loop, or by a
# function that calls itself, piles up processes until the machine stops
# answering: a fork bomb, whatever its spelling. A loop that sleeps or
# waits each round is paced, as is one under `timeout`.
paces := {"sleep", "wait", "read", "timeout", "inotifywait", "fswatch"}

# repeating: the commands in loops or self-calling functions, once per
# call, so that the rules below look at no other command; the rules
# start with input.agentjail.repeats, which is set only when there are.
repeating := [cmd | some cmd in commands; cmd.repeats != ""]

fork_bomb(cmd) if {
	cmd.background
	cmd.repeats == "forever"
	not paced
}

# f() { f | f; }: both sides of the pipe run at once.
fork_bomb(cmd) if {
	cmd.repeats == "forever"
	cmd.name in cmd.pipe_from
}

# for i in $(seq 1 50000); do sleep 3600 & done
fork_bomb(cmd) if {
	cmd.background
	cmd.repeats == "loop"
	some other in commands
	other.name == "seq"
	some n in other.args
	regex.match(`^[0-9]{4,}$`, n)
	to_number(n) >= 1000
}

paced if {
	some cmd in repeating
	cmd.name in paces
	not cmd.background # sleep 100 & paces nothing
}

paced if "timeout" in input.agentjail.names

# fork_code: code that forks in an endless loop (perl's fork while fork,
# python's while True: os.fork(), ruby's loop { fork }).
fork_code := `fork\s+while\s+fork|while\s*\(?\s*(1|True|true)\s*\)?\s*[:{]?\s*(os\.)?fork\s*\(|loop\s*(do|\{)\s*(Process\.)?fork|fork\s+(while|until)\s+(1|true)|for\s*\(\s*;\s*;\s*\)\s*\{?\s*fork`

deny contains {"id": "system.fork_bomb", "msg": msg} if {
	input.agentjail.repeats == true
	some cmd in repeating
	fork_bomb(cmd)
	msg := sprintf("Blocked: `%s` starts itself again and again without end (a fork bomb) and makes the machine unusable. Run a bounded number of jobs and `wait` for them.", [full_text(cmd)])
}

deny contains {"id": "system.fork_bomb", "msg": msg} if {
	"interpreter" in input.agentjail.kinds
	some cmd in commands
	some code in code_strings(cmd)
	regex.match(fork_code, code)
	msg := sprintf("Blocked: this %s code forks in an endless loop (a fork bomb) and makes the machine unusable. Run a bounded number of processes.", [cmd.name])
}

# An endless loop whose rounds neither pause nor stop hammers what it
# runs (a server, the disk) until someone kills it.
loop_exits := {"break", "exit", "return"}

ask contains {"id": "system.endless_loop", "msg": msg} if {
	input.agentjail.repeats == true
	some cmd in repeating
	cmd.repeats == "forever"
	not cmd.background
	not paced
	not loop_exit
	msg := sprintf("`%s` runs in a loop that never pauses or ends; add a `sleep`, a bound or a `timeout`, or the user has to approve it.", [full_text(cmd)])
}

loop_exit if {
	some n in input.agentjail.names
	n in loop_exits
}

# memory_code: code that grows memory in an endless loop.
memory_code := `while\s*\(?\s*(1|True|true)\s*\)?\s*[:{]?[^\n]*(\.append|\.push|\.extend|\+=|\*=|<<)`

ask contains {"id": "system.memory_bomb", "msg": msg} if {
	"interpreter" in input.agentjail.kinds
	some cmd in commands
	some code in code_strings(cmd)
	regex.match(memory_code, code)
	not regex.match(`\b(break|sleep|return)\b`, code)
	msg := sprintf("This %s code grows its memory in an endless loop until the machine swaps or kills programs; bound it, or the user has to approve it.", [cmd.name])
}

# Load generators that exhaust memory, CPU or processes on purpose.
ask contains {"id": "system.memory_bomb", "msg": msg} if {
	"exhaust" in input.agentjail.kinds
	some cmd in commands
	cmd.name in {"stress", "stress-ng"}
	not asks_for_help(cmd)
	msg := sprintf("`%s` exhausts this machine's memory, CPU or processes on purpose; the user has to approve it.", [full_text(cmd)])
}

# tail of an endless stream with no newline holds it all in memory.
ask contains {"id": "system.memory_bomb", "msg": msg} if {
	"stream_reader" in input.agentjail.kinds
	input.agentjail.unusual == true # devices are
	names_device
	some cmd in commands
	cmd.name == "tail"
	some p in cmd.paths
	p in endless_devices
	msg := sprintf("`%s` reads an endless stream into memory until the machine runs out; the user has to approve it.", [full_text(cmd)])
}

# Disk fillers: an endless stream written to a file fills the disk.
endless_devices := {"/dev/zero", "/dev/urandom", "/dev/random"}

# names_device: cat, head and tail, common in every pipeline, matter
# only when the call names a device.
names_device if strings.any_prefix_match(input.agentjail.paths, "/dev/")

size_units := {"": 1, "c": 1, "w": 2, "b": 512, "k": 1024, "m": 1048576, "g": 1073741824, "t": 1099511627776, "p": 1125899906842624}

# size_bytes("100G") is 107374182400 (dd, fallocate, head, mkfile units).
size_bytes(s) := to_number(parts[1]) * size_units[lower(parts[2])] if {
	parts := regex.find_all_string_submatch_n(`^([0-9]+)([cwbkKmMgGtTpP]?)(i?[bB])?$`, s, 1)[0]
}

# disk_fill_threshold: 10 GiB; test images and swap files stay below.
disk_fill_threshold := 10737418240

dd_operand(cmd, key) := substring(a, count(key) + 1, -1) if {
	some a in cmd.args
	startswith(a, concat("", [key, "="]))
}

# file_target(p): a write to p lands on the disk (not /dev/null, a pipe
# or a terminal).
file_target(p) if not startswith(p, "/dev/")

fills_disk(cmd) if {
	cmd.name == "dd"
	dd_operand(cmd, "if") in endless_devices
	file_target(dd_operand(cmd, "of"))
	not dd_operand(cmd, "count")
}

fills_disk(cmd) if {
	cmd.name in {"yes", "cat"}
	endless_output(cmd)
	some r in cmd.redirects
	r.op in {">", ">>", ">|", "&>", "&>>"}
	file_target(r.path)
}

endless_output(cmd) if cmd.name == "yes"

endless_output(cmd) if {
	cmd.name == "cat"
	some p in cmd.paths
	p in endless_devices
}

# fallocate -l $(df --output=avail ...) reserves every free byte.
fills_disk(cmd) if {
	cmd.name in {"fallocate", "mkfile", "truncate", "dd", "head"}
	"df" in cmd.subst
}

deny contains {"id": "system.disk_fill", "msg": msg} if {
	"exhaust" in input.agentjail.kinds
	some cmd in commands
	fills_disk(cmd)
	msg := disk_fill_msg(cmd)
}

deny contains {"id": "system.disk_fill", "msg": msg} if {
	"stream_reader" in input.agentjail.kinds
	input.agentjail.unusual == true # devices are
	names_device
	some cmd in commands
	fills_disk(cmd)
	msg := disk_fill_msg(cmd)
}

disk_fill_msg(cmd) := sprintf("Blocked: `%s` writes until the disk is full, which breaks every program that needs to write. Give it a size (count=, -c) well below the free space.", [full_text(cmd)])

large_write(cmd) := size_bytes(option_value(cmd, {"-l", "--length"})) if cmd.name == "fallocate"

large_write(cmd) := size_bytes(positional(cmd)[0]) if cmd.name == "mkfile"

large_write(cmd) := size_bytes(option_value(cmd, {"-c", "--bytes"})) if {
	cmd.name == "head"
	some p in cmd.paths
	p in endless_devices
}

large_write(cmd) := size_bytes(dd_operand(cmd, "bs")) * to_number(dd_operand(cmd, "count")) if {
	cmd.name == "dd"
	file_target(dd_operand(cmd, "of"))
}

ask contains {"id": "system.disk_fill", "msg": msg} if {
	"exhaust" in input.agentjail.kinds
	some cmd in commands
	large_write(cmd) >= disk_fill_threshold
	msg := large_write_msg(cmd)
}

ask contains {"id": "system.disk_fill", "msg": msg} if {
	"stream_reader" in input.agentjail.kinds
	input.agentjail.unusual == true # devices are
	names_device
	some cmd in commands
	large_write(cmd) >= disk_fill_threshold
	msg := large_write_msg(cmd)
}

large_write_msg(cmd) := sprintf("`%s` writes %d GiB or more, enough to fill many disks; use a smaller size, or the user has to approve it.", [full_text(cmd), disk_fill_threshold / 1073741824])

# Miners turn the machine's CPU into someone else's money (T1496).
miners := {
	"xmrig", "xmr-stak", "xmr-stak-rx", "minerd", "cpuminer", "cpuminer-multi", "cpuminer-opt", "ethminer",
	"t-rex", "nbminer", "lolminer", "phoenixminer", "gminer", "nanominer", "srbminer-multi", "teamredminer",
	"cgminer", "bfgminer", "ccminer", "xmrig-proxy",
}

miner_marker := `(?i)stratum[0-9]?\+(tcp|ssl|tls)://|(^|[\s/:=])(xmrig|xmr-stak|cpuminer|ethminer|nbminer|lolminer|srbminer)([\s/:._-]|$)`

# The programs that start a container from an image, here or in a
# cluster.
container_launchers := {"docker", "podman", "nerdctl", "finch", "kubectl", "oc", "crictl", "ctr"}

# An image whose own name (its last path part) is a miner: plain miner,
# xmrig's, or a coin's miner (attacker/miner:latest, x/monero-miner);
# a log-miner or a data-miner is no coin's.
miner_image := `(?i)(^|[/=])(miner|xmrig[a-z0-9._-]*|[a-z0-9._-]*(xmr|monero|coin|crypto|eth|btc|ltc|rvn|kaspa|nicehash)[a-z0-9._-]*miner[a-z0-9._-]*)(:[a-z0-9._-]+)?$`

# Bandwidth resale ("proxyware"): the image or program rents this
# machine's network out to strangers, whose traffic then leaves from it
# (T1496.002).
proxyware := `(?i)(^|[/=\s])(honeygain|peer2profit|packetstream|traffmonetizer|iproyal/pawns|pawns-cli|earnapp|repocket|proxyrack|mysteriumnetwork/myst|bitping|proxylite|grass-node|spide\.network)([/:\s]|$)`

deny contains {"id": "system.miner", "msg": msg} if {
	"miner" in input.agentjail.kinds
	some cmd in commands
	cmd.name in miners
	msg := sprintf("Blocked: `%s` runs a cryptocurrency miner, which spends this machine's CPU and power for someone else. Ask the user.", [cmd.name])
}

# A miner by its pool address, whatever program starts it.
deny contains {"id": "system.miner", "msg": msg} if {
	input.agentjail.tool_kind == "shell"
	contains(input.agentjail.command, "stratum")
	some cmd in commands
	some a in cmd.args
	regex.match(miner_marker, a)
	msg := sprintf("Blocked: `%s` runs a cryptocurrency miner (%s), which spends this machine's CPU and power for someone else. Ask the user.", [cmd.name, a])
}

# A miner by its image (docker run ... xmrig, kubectl create deployment
# --image=xmrig/xmrig).
deny contains {"id": "system.miner", "msg": msg} if {
	"miner" in input.agentjail.kinds
	some cmd in commands
	cmd.name in container_launchers
	some a in cmd.args
	miner_word(a)
	msg := sprintf("Blocked: `%s` runs a cryptocurrency miner (%s), which spends this machine's CPU and power for someone else. Ask the user.", [cmd.name, a])
}

miner_word(a) if regex.match(miner_marker, a)

miner_word(a) if {
	not startswith(a, "-") # an image, not an option's name
	regex.match(miner_image, a)
}

miner_word(a) if {
	startswith(a, "--image=")
	regex.match(miner_image, a)
}

deny contains {"id": "system.proxyware", "msg": msg} if {
	some cmd in commands
	proxyware_run(cmd)
	msg := sprintf("Blocked: `%s` rents this machine's network out to strangers, whose traffic then leaves from it under the user's address. Ask the user.", [full_text(cmd)])
}

proxyware_run(cmd) if {
	cmd.name in container_launchers
	some a in cmd.args
	regex.match(proxyware, a)
}

proxyware_run(cmd) if regex.match(proxyware, cmd.name)

# --- covering tracks (T1070) --------------------------------------------

# T1070.003: switching the shell's history off hides what follows.
history_vars := `(^|[\s;&|(])(export\s+|declare\s+-x\s+|typeset\s+)?HIST(FILE|SIZE|FILESIZE)=(0|/dev/null|""|''|)(\s|;|&|\)|$)`

hides_history(cmd) if {
	cmd.name == "history"
	has_option(cmd, {"c"})
}

hides_history(cmd) if {
	cmd.name == "history"
	some v in option_values(cmd, {"-w"})
	v == "/dev/null"
}

hides_history(cmd) if {
	cmd.name == "unset"
	some a in cmd.args
	regex.match(`^HIST(FILE|SIZE|FILESIZE)$`, a)
}

hides_history(cmd) if {
	cmd.name == "set"
	has_words(cmd.args, "+o history")
}

ask contains {"id": "system.history_off", "msg": msg} if {
	"shell_history" in input.agentjail.kinds
	some cmd in commands
	hides_history(cmd)
	msg := sprintf("`%s` switches off or clears the shell's history, which hides what runs next; the user has to approve it.", [full_text(cmd)])
}

ask contains {"id": "system.history_off", "msg": msg} if {
	input.agentjail.tool_kind == "shell"
	contains(input.agentjail.command, "HIST")
	regex.match(history_vars, input.agentjail.command)
	msg := "This command sets HISTFILE or HISTSIZE so that the shell keeps no history, which hides what runs next; the user has to approve it."
}

# History files: changing one rewrites the record of what ran.
history_file := `/\.(bash_history|zsh_history|zhistory|history|sh_history|ksh_history|python_history|node_repl_history|psql_history|mysql_history|sqlite_history|rediscli_history|irb_history|local/share/fish/fish_history|lesshst|viminfo|wget-hsts|gdb_history|Rhistory|octave_hist|lldb/lldb-widehistory|local/share/recently-used\.xbel)$|/\.(bash|zsh)_sessions(/|$)`

# home_dot_writes: the call's writes to dot files and folders of the
# home directory, worked out once for the rules that follow.
home_dot_writes := {p |
	some p in input.agentjail.writes
	startswith(home_rel(p), ".")
}

deny contains {"id": "system.history_wipe", "msg": msg} if {
	input.agentjail.unusual == true
	some p in home_dot_writes
	regex.match(history_file, p)
	msg := sprintf("Blocked: this command changes or deletes %s, the record of the commands run on this machine. Leave the history as it is.", [pretty(p)])
}

# T1070.002: system logs and audit trails.
log_dirs := `^(/private)?/var/(log|audit|account|adm)(/|$)|^/run/log/journal(/|$)|^/Library/Logs(/|$)`

# Commands that delete, empty or rewrite what they write (not an append).
log_wipers := {"rm", "unlink", "shred", "srm", "truncate", "find", "sed", "gsed", "perl", "ln", "mv"}

wiped_logs(cmd) := {p |
	cmd.name in log_wipers
	some p in cmd.writes
	regex.match(log_dirs, p)
} | {p |
	cmd.name == "find"
	has_option(cmd, {"delete"})
	some p in cmd.paths
	regex.match(log_dirs, p)
} | {p |
	some r in cmd.redirects
	r.op in {">", ">|", "&>"}
	p := r.path
	regex.match(log_dirs, p)
}

# log_call: the call names a log folder (such paths are always unusual).
log_call if {
	some p in input.agentjail.unusual_paths
	regex.match(log_dirs, p)
}

# A file tool's write over a log replaces the record with its text.
deny contains {"id": "system.log_wipe", "msg": msg} if {
	input.agentjail.tool_kind in {"write", "edit"}
	some p in input.agentjail.writes
	regex.match(log_dirs, p)
	msg := sprintf("Blocked: this rewrites %s, a system log or audit record. Read logs freely; ask the user to rotate or clear them.", [p])
}

deny contains {"id": "system.log_wipe", "msg": msg} if {
	input.agentjail.unusual == true
	log_call
	some cmd in commands
	some p in wiped_logs(cmd)
	msg := sprintf("Blocked: `%s` deletes or empties %s, a system log or audit record. Read logs freely; ask the user to rotate or clear them.", [cmd.name, p])
}

# journalctl --vacuum-* frees disk by deleting old journal files: asked,
# and denied when it keeps next to nothing (--vacuum-time=1s, -size=1K,
# -files=1), which erases the record.
clears_log(cmd) if {
	cmd.name == "journalctl"
	some v in option_values(cmd, {"--vacuum-time"})
	regex.match(`^[0-9]+(us|ms|s|sec|m|min|h)?$`, v)
}

clears_log(cmd) if {
	cmd.name == "journalctl"
	some v in option_values(cmd, {"--vacuum-size"})
	regex.match(`^[0-9]+[KkBb]?$`, v)
}

clears_log(cmd) if {
	cmd.name == "journalctl"
	some v in option_values(cmd, {"--vacuum-files"})
	v in {"0", "1"}
}

ask contains {"id": "system.log_wipe", "msg": msg} if {
	"logging" in input.agentjail.kinds
	some cmd in commands
	cmd.name == "journalctl"
	some a in cmd.args
	regex.match(`^--vacuum-(time|size|files)`, a)
	not clears_log(cmd)
	msg := sprintf("`%s` deletes old system journal files to free disk; the user has to approve it.", [full_text(cmd)])
}

clears_log(cmd) if {
	cmd.name == "log"
	positional(cmd)[0] == "erase"
}

clears_log(cmd) if {
	cmd.name in {"wevtutil", "wevtutil.exe"}
	lower(positional(cmd)[0]) in {"cl", "clear-log"}
}

deny contains {"id": "system.log_wipe", "msg": msg} if {
	"logging" in input.agentjail.kinds
	some cmd in commands
	clears_log(cmd)
	msg := sprintf("Blocked: `%s` erases the system's log. Read logs freely; ask the user to rotate or clear them.", [full_text(cmd)])
}

# T1070.006: setting a file's times to hide when it changed.
time_options := {"-r", "-t", "-d", "--reference", "--date", "-A"}

time_set(cmd) if {
	some a in cmd.args
	a in time_options
}

time_set(cmd) if {
	some a in cmd.args
	regex.match(`^--(reference|date)=`, a)
}

touch_targets(cmd) := [p |
	some i, a in cmd.args
	not startswith(a, "-")
	not value_of_time_option(cmd, i)
	p := touch_path(a, cmd.cwd)
]

value_of_time_option(cmd, i) if cmd.args[i - 1] in time_options

touch_path(a, _) := a if startswith(a, "/")

touch_path(a, cwd) := concat("/", [cwd, a]) if not startswith(a, "/")

ask contains {"id": "system.timestomp", "msg": msg} if {
	"timestamps" in input.agentjail.kinds
	some cmd in commands
	cmd.name == "touch"
	time_set(cmd)
	some p in touch_targets(cmd)
	outside(p)
	msg := sprintf("`%s` sets the times of %s, outside the project, to hide when it changed; the user has to approve it.", [full_text(cmd), p])
}

# find_deleted: what find -delete deletes (not among the call's writes).
find_deleted contains p if {
	"find" in input.agentjail.names
	some cmd in commands
	cmd.name == "find"
	has_option(cmd, {"delete"})
	some p in cmd.paths
}

# transcript_dir: where the agents keep the record of what they did: the
# folders the accounting reads (agent_record_folders, from the agents'
# facts) and older places no reader follows.
transcript_dir := concat("", [`^(\.copilot/history-session-state|\.cursor/chats|`, concat("|", [regex.replace(f, `\.`, `\.`) | some f in agent_record_folders]), `)(/|$)`])

agent_working_file(rel) if {
	some g in agent_working_files
	glob.match(g, ["/"], rel)
}

# The agent's own transcripts are the record of what it did. The notes
# an agent keeps beside them for its own work (Claude Code's memory/,
# agent_working_files) are its to write.
deny contains {"id": "system.transcripts", "msg": msg} if {
	input.agentjail.unusual == true
	some p in home_dot_writes
	rel := home_rel(p)
	regex.match(transcript_dir, rel)
	not agent_working_file(rel)
	msg := sprintf("Blocked: %s is the record of what the agent did in past sessions; agents may not change or delete it. Leave it to the user.", [pretty(p)])
}

deny contains {"id": "system.transcripts", "msg": msg} if {
	"find" in input.agentjail.names
	some p in find_deleted
	rel := home_rel(p)
	regex.match(transcript_dir, rel)
	not agent_working_file(rel)
	msg := sprintf("Blocked: %s is the record of what the agent did in past sessions; agents may not change or delete it. Leave it to the user.", [pretty(p)])
}

# T1070 / T1036: a commit written under another person's name hides who
# made the change. A bot identity set with -c user.name (CI) or git
# config is the repository's own choice and stays allowed.
identity_vars := {"GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL"}

borrows_identity(cmd) if {
	some v, _ in cmd.assigns
	v in identity_vars
}

borrows_identity(cmd) if {
	some a in cmd.args
	startswith(a, "--author")
	regex.match(`^--author(=|$)`, a)
}

ask contains {"id": "system.commit_identity", "msg": msg} if {
	"git" in input.agentjail.names
	some cmd in commands
	cmd.name == "git"
	borrows_identity(cmd)
	positional(cmd)[0] in {"commit", "commit-tree", "merge", "rebase", "am", "cherry-pick", "revert"}
	msg := sprintf("`%s` records the change under a name other than the configured author's, which hides who made it; commit as the configured user, or the user has to approve it.", [full_text(cmd)])
}

# --- disguised processes (ATT&CK T1036.004, T1036.005) -----------------

# Names of the system's own processes: a program of the agent's started
# under one hides in the process list among them.
system_process_names := {
	"kworker", "kthreadd", "ksoftirqd", "kswapd0", "migration", "rcu_sched", "watchdog",
	"sshd", "systemd", "systemd-journald", "systemd-logind", "systemd-resolved", "dbus-daemon",
	"cron", "crond", "rsyslogd", "polkitd", "udevd", "Xorg", "Xwayland", "gnome-shell", "pulseaudio", "pipewire",
	"launchd", "mds", "mdworker", "WindowServer", "syslogd", "cfprefsd", "trustd", "softwareupdated",
}

disguised_name(n) if regex.match(`^\[[^\]]+\]$`, n)

disguised_name(n) if split(regex.replace(n, `[/:].*$`, ""), "-")[0] in system_process_names

disguised_name(n) if regex.replace(n, `[/:].*$`, "") in system_process_names

# exec -a NAME: the program runs under a name of the caller's choice
# (the parser unwraps exec, so its words are read from the line).
ask contains {"id": "system.masquerade", "msg": msg} if {
	contains(input.agentjail.command, "exec")
	some m in regex.find_all_string_submatch_n(`(?:^|[\s;&|("'])exec\s+(?:-[cl]+\s+)*-a\s*['"]?([^'"\s]+)`, input.agentjail.command, 8)
	disguised_name(m[1])
	msg := sprintf("`exec -a %s` starts a program under the name of one of the system's own processes, hiding it in the process list; the user has to approve it.", [m[1]])
}

# A file named to pass for a document while it runs as a program: a
# document's extension before a program's (Invoice.pdf.sh,
# resume.pdf.AppImage, "Q3 Report.pdf.desktop"), or a bidirectional
# control character that shows the name backwards (report<RLO>fdp.sh
# reads as reporths.pdf) (T1036.007, T1036.002). Written, copied or run,
# it waits for a person to open it.
disguise_name := `(?i)\.(pdf|docx?|xlsx?|pptx?|odt|ods|rtf|txt|csv|jpe?g|png|gif|mp4|mov|mp3|zip)\.(sh|bash|command|tool|app|appimage|run|desktop|exe|scr|bat|cmd|ps1|vbs|js|jar|py|bin|elf|lnk|pkg|dmg)/?$|[\x{202a}-\x{202e}\x{2066}-\x{2069}\x{200f}]`

ask contains {"id": "system.masquerade", "msg": msg} if {
	some p in array.concat(input.agentjail.paths, [c.program | some c in commands])
	regex.match(disguise_name, base_name(p))
	msg := sprintf("%s is named to pass for a document (a document's extension before a program's, or characters that show the name backwards) while it runs as a program; the user has to approve it.", [pretty(p)])
}

# The same name spelled with an escape a printf or $'' turns into the
# character (printf 'report\u202efdp.sh').
ask contains {"id": "system.masquerade", "msg": msg} if {
	input.agentjail.tool_kind == "shell"
	regex.match(`(?i)\\u(202[a-e]|206[6-9]|200f)|\\xe2\\x80\\xae`, input.agentjail.command)
	msg := "This spells a bidirectional control character (U+202E and kin) into a name, which shows the name backwards so a program passes for a document; the user has to approve it."
}

# A file staged in a temp folder or Downloads copied into a place where
# it passes for another program: a project's tool shims (what `npm run`
# and the venv's scripts start: node_modules/.bin/tsc, .venv/bin/pytest)
# or a well-known vendor's folder of Application Support, where an
# updater of that name is expected (T1036.005, T1554).
staged_file := `^(/tmp|/var/tmp|/dev/shm|/private/tmp|/private/var/tmp)/|^~/Downloads/`

passes_for_program := `(^|/)node_modules/\.bin/[^/]+$|(^|/)\.?venv/bin/[^/]+$|^~/Library/Application Support/(Google|Microsoft|Apple|Adobe|Mozilla|Zoom|zoom\.us|Slack|Dropbox|JetBrains|Docker|Spotify|Discord|1Password)/`

ask contains {"id": "system.masquerade", "msg": msg} if {
	input.agentjail.writes[0]
	some cmd in commands
	cmd.name in {"cp", "mv", "install", "ln", "rsync", "ditto", "gcp", "gmv"}
	some src in cmd.paths
	regex.match(staged_file, pretty(src))
	some dst in cmd.writes
	dst != src
	regex.match(passes_for_program, pretty(dst))
	msg := sprintf("`%s` puts a file from %s where it passes for another program (%s); the user has to approve it.", [full_text(cmd), pretty(src), pretty(dst)])
}

ask contains {"id": "system.masquerade", "msg": msg} if {
	"download" in input.agentjail.kinds
	some cmd in commands
	cmd.name in downloaders
	some dst in cmd.writes
	regex.match(passes_for_program, pretty(dst))
	msg := sprintf("`%s` saves a download where it passes for another program (%s); the user has to approve it.", [cmd.name, pretty(dst)])
}

# A program run from a temp folder under a system process's name.
ask contains {"id": "system.masquerade", "msg": msg} if {
	regex.match(`/(tmp|var/tmp|dev/shm|private/tmp)/`, input.agentjail.command)
	some cmd in commands
	regex.match(`^(/tmp|/var/tmp|/dev/shm|/private/tmp)/`, cmd.program)
	disguised_name(base_name(cmd.program))
	msg := sprintf("`%s` runs from a temp folder under the name of one of the system's own processes; the user has to approve it.", [cmd.program])
}
