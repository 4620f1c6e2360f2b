package agentjail

# Leaving by other doors: the project sent whole to a sync or transfer
# service (T1567, T1537), files sent as they change, an organisation's
# repositories, wiki or tracker collected in bulk (T1213, T1119), this
# machine opened to remote control (T1219), another process's memory or
# environment read (T1003.007), and attacks on other people's systems
# (T1190, T1110, T1595, T1498). Each is a table of programs by what they
# do; the rules ask, and deny where nothing ordinary looks the same.

# --- the project sent whole --------------------------------------------

# project_senders: programs that send files to another host or service,
# with sends (their first words that send; [] any) and remote (true:
# every destination is remote, so no host:path is needed to tell).
project_senders := {
	"rclone": {"sends": ["copy", "sync", "move", "copyto", "moveto", "bisync"], "remote": false},
	"azcopy": {"sends": ["copy", "cp", "sync"], "remote": false},
	"aws": {"sends": ["s3"], "remote": false},
	"gsutil": {"sends": ["cp", "rsync", "mv"], "remote": false},
	"s3cmd": {"sends": ["put", "sync"], "remote": false},
	"mc": {"sends": ["cp", "mirror"], "remote": false},
	"rsync": {"sends": [], "remote": false},
	"scp": {"sends": [], "remote": false},
	"gdrive": {"sends": ["upload", "files"], "remote": true},
	"mega-put": {"sends": [], "remote": true},
	"megaput": {"sends": [], "remote": true},
	"mega-sync": {"sends": [], "remote": true},
	"croc": {"sends": ["send"], "remote": true},
	"wormhole": {"sends": ["send"], "remote": true},
	"magic-wormhole": {"sends": ["send"], "remote": true},
	"onionshare-cli": {"sends": [], "remote": true},
	"ffsend": {"sends": ["upload"], "remote": true},
	"borg": {"sends": ["create"], "remote": false, "sources": "all"},
	"restic": {"sends": ["backup"], "remote": false, "sources": "all"},
	"duplicity": {"sends": [], "remote": false},
}

program_group contains [prog, "doors"] if some prog, _ in project_senders

sends_files(cmd, row) if count(row.sends) == 0

# The verb may follow an option's value the roles table does not know
# (restic -r REPO backup).
sends_files(cmd, row) if {
	some w in array.slice(positional(cmd), 0, 2)
	w in row.sends
}

# sends_to_remote(cmd, row): a destination on another host or service.
sends_to_remote(_, row) if row.remote

sends_to_remote(cmd, _) if {
	some a in cmd.args
	remote_destination(a)
}

sends_to_remote(cmd, _) if {
	cmd.name == "restic"
	some v in option_values(cmd, {"-r", "--repo"})
	regex.match(`^(sftp|s3|rest|b2|azure|gs|swift|rclone):`, v)
}

# sent_sources(cmd, row): the local folders and files cmd sends: every
# path for a program that only sends (and borg's and restic's, whose
# repository is not a path), else the words before its remote
# destination (rclone copy SRC remote:, not rclone copy remote: .).
sent_sources(cmd, row) := {normal_path(p) | some p in cmd.paths} if {
	row.remote
} else := {normal_path(p) | some p in cmd.paths} if {
	row.sources == "all"
} else := {normal_path(abs_word(cmd, b)) |
	some j, a in cmd.args
	remote_destination(a)
	some k, b in cmd.args
	k < j
	not startswith(b, "-")
	not remote_destination(b)
}

normal_path(p) := regex.replace(regex.replace(p, `(/\.)+/?$`, ""), `(.)/+$`, "$1")

# whole_project(p): the folder the agent works in, or one above it
# inside the home (a subfolder, dist/ or build/, is what deploys send).
whole_project(p) if {
	project != home
	p == project
}

whole_project(p) if p == home

whole_project(p) if {
	under(project, p)
	p != project
	under(p, home)
	p != home
}

ask contains {"id": "exfil.project_sent", "msg": msg} if {
	"doors" in input.agentjail.kinds
	some cmd in commands
	row := project_senders[cmd.name]
	sends_files(cmd, row)
	sends_to_remote(cmd, row)
	some p in sent_sources(cmd, row)
	whole_project(p)
	not only_loopback(cmd)
	msg := sprintf("`%s` sends the whole project (%s: its history, its .env and every file in it) to another host or service; the user has to approve it. Send the folder that is meant to go (dist/, build/), or the files by name.", [cmd.name, pretty(p)])
}

# File-transfer clients driven by a script of their own: lftp -e
# 'mirror -R …', smbclient -c 'mput …', sftp reading a batch file or
# commands piped in. What they send is in their script, not their
# arguments.
transfer_scripts := {
	"lftp": {"options": ["-e", "-c"], "sends": `(?:^|[;\s])(?:mirror\s+(?:-[a-zA-Z]*R|--reverse)|put|mput|reput)((?:\s+-\S+)*)\s+(\S+)`},
	"smbclient": {"options": ["-c", "--command"], "sends": `(?:^|[;\s])(?:put|mput|tar\s+c\S*)((?:\s+-\S+)*)\s+(\S+)`},
	"sftp": {"options": [], "sends": `(?:^|[;\s])(?:put|mput|reput)((?:\s+-\S+)*)\s+(\S+)`},
	"ftp": {"options": [], "sends": `(?:^|[;\s])(?:put|mput|send)((?:\s+-\S+)*)\s+(\S+)`},
}

program_group contains [prog, "doors"] if some prog, _ in transfer_scripts

ask contains {"id": "exfil.transfer_script", "msg": msg} if {
	"doors" in input.agentjail.kinds
	some cmd in commands
	row := transfer_scripts[cmd.name]
	some script in transfer_script(cmd, row)
	some m in regex.find_all_string_submatch_n(row.sends, script, 8)
	sends_everything(cmd, trim(m[2], `"';`))
	msg := sprintf("`%s` uploads %s by a script of its own (%s); the user has to approve it. Send the folder that is meant to go, or the files by name.", [cmd.name, m[2], script])
}

# sends_everything(cmd, w): a word of a transfer script that stands for
# the whole project or home (a folder of them, or * in the project), or
# a folder of credentials.
sends_everything(_, w) if w in {"*", "./*", "*.*"}

sends_everything(cmd, w) if {
	not w in {"*", "./*", "*.*"}
	p := normal_path(abs_word(cmd, regex.replace(w, `^~`, home)))
	whole_project(p)
}

# A credential place named in the script (its ~ not expanded by the
# shell, as the client expands it).
sends_everything(cmd, w) if {
	not w in {"*", "./*", "*.*"}
	p := normal_path(abs_word(cmd, regex.replace(w, `^~`, home)))
	secret_place(p)
}

secret_place(p) if secret(p)

secret_place(p) if secret_holder(p)

# sftp -b FILE: a batch nobody sees here.
ask contains {"id": "exfil.transfer_script", "msg": msg} if {
	"doors" in input.agentjail.kinds
	some cmd in commands
	cmd.name == "sftp"
	some v in option_values(cmd, {"-b"})
	v != "-"
	msg := sprintf("`sftp -b %s` runs a batch of transfers agentjail cannot see; the user has to approve it.", [v])
}

transfer_script(cmd, row) := {v | some v in option_values(cmd, {o | some o in row.options})} | {t |
	some src in cmd.pipe_from
	some c in commands
	c.name == src
	c.name in {"echo", "printf", "cat"}
	t := concat(" ", c.args)
} | {r.target | some r in cmd.redirects; r.op in {"<<", "<<-", "<<<"}}

# Files sent as they change: a watcher feeding a sender.
file_watchers := {"fswatch", "inotifywait", "inotifywatch", "entr", "watchman-wait", "watchexec", "when-changed"}

program_group contains [prog, "doors"] if some prog in file_watchers

ask contains {"id": "exfil.watch_send", "msg": msg} if {
	"doors" in input.agentjail.kinds
	some w in commands
	w.name in file_watchers
	some cmd in commands
	cmd.name in network_tools | {"rclone", "aws", "gsutil", "azcopy", "s3cmd"}
	sends_out(cmd)
	msg := sprintf("`%s` sends files with `%s` each time they change; the user has to approve it.", [w.name, cmd.name])
}

# A watcher that runs its command itself (entr rsync …, watchexec --
# scp …).
ask contains {"id": "exfil.watch_send", "msg": msg} if {
	"doors" in input.agentjail.kinds
	some w in commands
	w.name in file_watchers
	some a in w.args
	a in {"rsync", "scp", "sftp", "rclone", "nc", "ncat", "socat", "azcopy", "s3cmd"}
	msg := sprintf("`%s` sends files with `%s` each time they change; the user has to approve it.", [w.name, a])
}

sends_out(cmd) if {
	cmd.name in {"curl", "wget", "http", "https", "xh"}
	some a in cmd.args
	a in {"-T", "--upload-file", "-F", "--form", "--data-binary", "-d", "--data", "--post-file", "--body-file"}
}

sends_out(cmd) if {
	cmd.name in {"nc", "ncat", "netcat", "socat", "scp", "rsync", "sftp", "ftp", "rclone", "aws", "gsutil", "azcopy", "s3cmd"}
}

# --- collected in bulk -------------------------------------------------

# repo_listings: the commands and addresses that list every repository
# of an organisation, a user or a group.
repo_listing_urls := `/(orgs|users|groups)/[^/?]+/(repos|projects)|/user/repos|/api/v4/projects([?]|$)|/rest/api/1\.0/(projects|repos)|/2\.0/repositories/`

repo_cloners := {"gh", "glab", "git", "hub", "tea"}

lists_repositories(c) if {
	c.name in {"gh", "glab", "tea"}
	array.slice(positional(c), 0, 2) in {["repo", "list"], ["repos", "list"]}
}

lists_repositories(c) if {
	c.name in request_tools | {"gh", "glab"}
	some a in c.args
	regex.match(repo_listing_urls, a)
}

clones_repo(c) if {
	c.name in {"gh", "glab", "hub", "tea"}
	array.slice(positional(c), 0, 2) in {["repo", "clone"], ["repos", "clone"]}
}

clones_repo(c) if {
	c.name in {"git", "hub"}
	positional(c)[0] == "clone"
}

program_group contains [prog, "doors"] if some prog in repo_cloners

ask contains {"id": "collect.bulk_dump", "msg": msg} if {
	"doors" in input.agentjail.kinds
	some l in commands
	lists_repositories(l)
	some c in commands
	clones_repo(c)
	fanned_out(c)
	msg := sprintf("This lists every repository of an account and clones each with `%s`: the whole organisation's code, collected; the user has to approve it.", [c.name])
}

# fanned_out(c): run for each line of a list (xargs, a loop, parallel).
fanned_out(c) if c.via in {"xargs", "parallel"}

fanned_out(c) if c.repeats != ""

fanned_out(c) if {
	some a in c.args
	contains(a, "$")
}

# bulk_dumpers: programs that collect a whole organisation's code, chat
# or documents.
bulk_dumpers := {"ghorg", "slackdump", "slack-export", "confluence-dump", "confluence-exporter", "notion-exporter", "jira-export", "gitlab-dump", "gdrive-dump", "google-takeout"}

program_group contains [prog, "doors"] if some prog in bulk_dumpers

ask contains {"id": "collect.bulk_dump", "msg": msg} if {
	"doors" in input.agentjail.kinds
	some cmd in commands
	cmd.name in bulk_dumpers
	count(cmd.args) > 0
	not only_asks_about_itself(cmd)
	msg := sprintf("`%s` collects an organisation's code, messages or documents in bulk; the user has to approve it.", [cmd.name])
}

# The APIs of wikis, trackers, chat and drives, read page after page: a
# request to one of them run in a loop or once per line of a list.
collab_api_urls := `/wiki/rest/api/(content|space|search)|/rest/api/(content|space|search)|/rest/api/[23]/search|/rest/agile/|api\.notion\.com/v1/(search|blocks|databases|pages)|slack\.com/api/(conversations\.(history|list|replies)|files\.list|search\.)|/api/v4/(projects|groups)/[^/]+/(export|issues|wikis)|googleapis\.com/drive/v[23]/files|graph\.microsoft\.com/v1\.0/(sites|drives|me/(messages|drive))|/_api/web/|api\.linear\.app/graphql|/api/v1/(pages|documents)\.list`

ask contains {"id": "collect.bulk_dump", "msg": msg} if {
	"download" in input.agentjail.kinds
	some cmd in commands
	cmd.name in request_tools
	some a in cmd.args
	regex.match(collab_api_urls, a)
	fanned_out_request(cmd)
	msg := sprintf("This reads %s page after page: a wiki's, tracker's or chat's whole content, collected; the user has to approve it.", [regex.replace(a, `[?#].*$`, "")])
}

fanned_out_request(c) if c.via in {"xargs", "parallel"}

fanned_out_request(c) if c.repeats != ""

fanned_out_request(c) if input.agentjail.repeats

# A whole remote drive copied here (rclone copy gdrive: DIR).
ask contains {"id": "collect.bulk_dump", "msg": msg} if {
	"doors" in input.agentjail.kinds
	some cmd in commands
	cmd.name == "rclone"
	positional(cmd)[0] in {"copy", "sync", "copyto"}
	src := positional(cmd)[1]
	regex.match(`^[A-Za-z0-9_-]+:$`, src)
	msg := sprintf("`rclone` copies the whole of %s here; the user has to approve it.", [src])
}

# --- remote control of this machine ------------------------------------

# remote_access_tools: programs that let someone elsewhere see or drive
# this machine's screen or terminal; safe are the words that only ask
# about them.
remote_access_tools := {
	"x11vnc", "x0vncserver", "vncserver", "tigervncserver", "Xvnc", "wayvnc", "krfb",
	"tmate", "upterm", "sshx", "ttyd", "gotty", "wetty", "shellinaboxd",
	"anydesk", "teamviewer", "rustdesk", "meshagent", "dwagent", "screenconnect",
	# Chrome Remote Desktop's host, registered with a one-time code.
	"start-host", "chrome-remote-desktop",
}

program_group contains [prog, "doors"] if some prog in remote_access_tools

ask contains {"id": "remote.access_tool", "msg": msg} if {
	"doors" in input.agentjail.kinds
	some cmd in commands
	cmd.name in remote_access_tools
	not remote_access_query(cmd)
	msg := sprintf("`%s` lets someone on another machine see or drive this one (its screen or a terminal); the user has to approve it.", [cmd.name])
}

remote_access_query(cmd) if only_asks_about_itself(cmd)

remote_access_query(cmd) if {
	some a in cmd.args
	a in {"--get-id", "--info", "-list", "--list"}
}

# only_asks_about_itself(cmd): its only word asks for its help or
# version (-h names a host for some of these programs).
only_asks_about_itself(cmd) if {
	count(cmd.args) == 1
	cmd.args[0] in {"-h", "-help", "--help", "help", "-V", "-v", "-version", "--version", "version"}
}

remote_access_query(cmd) if {
	pos := positional(cmd)
	count(pos) > 0
	pos[0] in {"version", "help", "list", "status", "-list", "kill"}
}

# --- another process's memory or environment ---------------------------

# /proc/PID/environ and /proc/PID/mem of another process hold its
# tokens and keys, however the PID is written ($PID, $(pidof x), *).
process_secret_word := `^(if=)?/proc/([^/]+)(/task/[^/]+)?/(environ|mem)$`


deny contains {"id": "secrets.process_memory", "msg": msg} if {
	contains(input.agentjail.command, "/proc/")
	some cmd in commands
	some w in array.concat(cmd.args, [r.target | some r in cmd.redirects])
	m := regex.find_all_string_submatch_n(process_secret_word, w, 1)
	count(m) > 0
	not m[0][2] in {"self", "thread-self"}
	msg := sprintf("Blocked: `%s` reads %s, another process's memory or environment, where its tokens and keys are. Ask the user for the value you need.", [cmd.name, trim_prefix(w, "if=")])
}

# Programs that read a running process's memory: dumpers write all of
# it to a file (dump: true; gdb's own dump commands count), debuggers
# and tracers attach (attach: the options that name the process).
# Debugging one's own server stays allowed; a dump is asked about, and
# either is denied for a process that holds keys or passwords.
process_readers := {
	"gcore": {"dump": true, "attach": []}, "procdump": {"dump": true, "attach": []}, "memdump": {"dump": true, "attach": []},
	"criu": {"dump": true, "attach": []}, "scanmem": {"dump": true, "attach": []}, "jmap": {"dump": true, "attach": []},
	"dotnet-dump": {"dump": true, "attach": ["p", "process-id"]},
	"gdb": {"dump": false, "attach": ["p", "pid"]}, "lldb": {"dump": false, "attach": ["p", "attach-pid", "n", "attach-name"]},
	"strace": {"dump": false, "attach": ["p"]}, "ltrace": {"dump": false, "attach": ["p"]},
	"eu-stack": {"dump": false, "attach": ["p", "pid"]}, "py-spy": {"dump": false, "attach": ["p", "pid"]},
	"gdbserver": {"dump": false, "attach": ["attach"]}, "pstack": {"dump": false, "attach": []},
}

program_group contains [prog, "doors"] if some prog, _ in process_readers

# The programs whose memory holds keys and passwords, as a call names
# them (pgrep ssh-agent, pidof gnome-keyring-daemon).
secret_processes := `ssh-agent|gpg-agent|gnome-keyring|kwalletd|keepass|1password|bitwarden|\bvault\b|secret-service|\bsshd?\b|\bop\b|\bpass\b|chrome|firefox|chromium|\bcode\b|electron|slack|\bsudo\b|\bsu\b|\blogin\b`

ask contains {"id": "secrets.process_memory", "msg": msg} if {
	"doors" in input.agentjail.kinds
	some cmd in commands
	row := process_readers[cmd.name]
	dumps_memory(cmd, row)
	not regex.match(secret_processes, input.agentjail.command)
	msg := sprintf("`%s` writes a running process's whole memory (its tokens and keys) to a file; the user has to approve it.", [cmd.name])
}

deny contains {"id": "secrets.process_memory", "msg": msg} if {
	"doors" in input.agentjail.kinds
	some cmd in commands
	row := process_readers[cmd.name]
	reads_process(cmd, row)
	regex.match(secret_processes, input.agentjail.command)
	msg := sprintf("Blocked: `%s` reads the memory of a process that holds keys or passwords (an agent, a keyring, a browser, ssh).", [cmd.name])
}

reads_process(cmd, row) if dumps_memory(cmd, row)

reads_process(cmd, row) if has_flag(cmd, {f | some f in row.attach})

dumps_memory(cmd, row) if {
	row.dump
	count(cmd.args) > 0
	not only_asks_about_itself(cmd)
}

dumps_memory(cmd, _) if {
	cmd.name in {"gdb", "lldb"}
	some a in cmd.args
	regex.match(`(generate-core-file|gcore|dump\s+(memory|binary)|process save-core)`, a)
}

# --- attacks on other people's systems ---------------------------------

# attack_tools: scanners, brute-forcers, exploit frameworks and floods.
# Pointed at this machine (localhost, 127.0.0.1) they test one's own
# service; anywhere else they attack someone's.
attack_tools := {
	"sqlmap", "hydra", "medusa", "ncrack", "patator", "crowbar", "nikto", "wpscan", "joomscan", "gobuster", "dirb",
	"dirsearch", "feroxbuster", "ffuf", "wfuzz", "nuclei", "crackmapexec", "nxc", "netexec", "msfconsole", "msfvenom",
	"slowloris", "slowhttptest", "hping3", "masscan", "zmap", "nmap", "rustscan", "naabu", "responder", "bettercap",
	"ettercap", "arpspoof", "evil-winrm", "kerbrute", "goldeneye", "hulk", "thc-ssl-dos", "t50", "xerosploit", "commix",
	"xsstrike", "dalfox", "amass", "subfinder", "theHarvester", "routersploit",
	"john", "hashcat", "fping", "arp-scan", "nbtscan", "enum4linux", "smbmap", "kerbrute",
	"wrk", "ab", "hey", "siege", "vegeta", "bombardier", "iperf3", "mhddos",
}

# Programs that run the impacket suite's attacks (impacket-psexec, ...)
# and the like, by prefix.
attack_tool_prefixes := ["impacket-", "msf"]

program_group contains [prog, "doors"] if some prog in {"impacket-psexec", "impacket-smbexec", "impacket-wmiexec", "impacket-secretsdump", "impacket-GetUserSPNs", "msfvenom"}

ask contains {"id": "network.attack_tool", "msg": msg} if {
	"doors" in input.agentjail.kinds
	some cmd in commands
	some pre in attack_tool_prefixes
	startswith(cmd.name, pre)
	not cmd.name in attack_tools
	count(cmd.args) > 0
	not only_asks_about_itself(cmd)
	msg := sprintf("`%s` attacks another system's logins or services; the user has to approve it, and only for systems they own or may test.", [cmd.name])
}

# Logging in to another machine with a password written on the line:
# found or guessed credentials at work (T1021, T1078, T1133).
password_logins := {"sshpass": ["-p"], "xfreerdp": [], "xfreerdp3": [], "rdesktop": ["-p"], "vncviewer": ["-passwd"], "smbclient": ["-U", "--user"], "evil-winrm": ["-p"]}

program_group contains [prog, "doors"] if some prog, _ in password_logins

ask contains {"id": "remote.password_login", "msg": msg} if {
	"doors" in input.agentjail.kinds
	some cmd in commands
	opts := password_logins[cmd.name]
	gives_password(cmd, opts)
	not attack_only_loopback(cmd)
	msg := sprintf("`%s` logs in to another machine with a password given on the line; the user has to approve it.", [cmd.name])
}

# A remote-login URL with the password in it (open
# 'vnc://admin:hunter2@host', xdg-open smb://user:pw@server/share): the
# desktop's handler logs in with it, whatever program hands it over.
ask contains {"id": "remote.password_login", "msg": msg} if {
	input.agentjail.tool_kind == "shell"
	regex.match(`(?i)(vnc|rdp|ssh|sftp|telnet|smb|cifs|afp)://[^/@\s:]+:[^/@\s]+@`, input.agentjail.command)
	some cmd in commands
	some a in cmd.args
	regex.match(`(?i)^(vnc|rdp|ssh|sftp|telnet|smb|cifs|afp)://[^/@\s:]+:[^/@\s]+@`, a)
	not attack_only_loopback(cmd)
	msg := sprintf("`%s` logs in to another machine with a password written in the address; the user has to approve it.", [cmd.name])
}

gives_password(cmd, opts) if {
	some v in option_values(cmd, {o | some o in opts})
	v != ""
	cmd.name != "smbclient"
}

gives_password(cmd, _) if {
	cmd.name == "smbclient"
	some v in option_values(cmd, {"-U", "--user"})
	contains(v, "%")
}

gives_password(cmd, _) if {
	cmd.name in {"xfreerdp", "xfreerdp3"}
	some a in cmd.args
	regex.match(`^[/+-]p:`, a)
}

# The same request or login sent over a list of passwords, users, hosts
# or paths: guessing, spraying, scanning (T1110, T1595).
attack_list_words := `(?i)(pass(word)?s?|pwds?|users?|usernames?|creds?|combos?|breach\w*|leak\w*|rockyou|dict\w*|words?|wordlist\w*|dirs|paths|subdomains|hosts|targets|ips|top[-_]?[0-9]+[km]?|common[-_]?[0-9]*)[\w.-]*\.(txt|lst|csv|dic)\b|seclists|\{1\.\.25[45]\}|seq\s+1\s+25[45]|\.\$\{?\w+\}?\b`

guessing_tools := {"curl", "wget", "http", "xh", "sshpass", "ssh", "nc", "ncat", "netcat", "ping", "fping", "aws", "smbclient", "ldapsearch", "mysql", "psql", "redis-cli"}

ask contains {"id": "network.attack_tool", "msg": msg} if {
	input.agentjail.repeats
	some cmd in commands
	cmd.name in guessing_tools
	cmd.repeats != ""
	regex.match(attack_list_words, input.agentjail.command)
	not only_loopback(cmd)
	not attack_only_loopback(cmd)
	msg := sprintf("This runs `%s` once for each line of a list of passwords, users, hosts or paths: guessing logins or scanning someone's systems; the user has to approve it, and only for systems they own or may test.", [cmd.name])
}

# Buckets of others probed anonymously by name, one per line of a list
# (T1580, T1619): --no-sign-request reaches what is left public.
ask contains {"id": "network.attack_tool", "msg": msg} if {
	input.agentjail.repeats
	some cmd in commands
	cmd.name in {"aws", "s3cmd", "gsutil"}
	cmd.repeats != ""
	some a in cmd.args
	a in {"--no-sign-request", "--anonymous"}
	msg := sprintf("This runs `%s` anonymously once for each name of a list: probing other people's buckets for what is left open; the user has to approve it.", [cmd.name])
}

# zsh's own TCP client: a shell wired to another host.
ask contains {"id": "network.proxy_tunnel", "msg": msg} if {
	some name in {"ztcp", "zsocket"}
	name in input.agentjail.names
	some cmd in commands
	cmd.name == name
	msg := sprintf("`%s` connects zsh itself to another host, a shell that host can drive; the user has to approve it.", [cmd.name])
}

# Interpreter code that logs in once per line of such a list.
ask contains {"id": "network.attack_tool", "msg": msg} if {
	"code_run" in input.agentjail.kinds
	some cmd in commands
	cmd.name in code_programs
	code := code_text(cmd)
	regex.match(_fetch, code)
	regex.match(`(?i)\b(for|while)\b|\[[^\]]*\bfor\b`, code)
	regex.match(attack_list_words, code)
	msg := sprintf("This `%s` code sends a request for each line of a list of passwords, users or paths: guessing logins; the user has to approve it.", [cmd.name])
}

# Searches of a wiki, tracker, chat, drive or an organisation's code
# for secrets (password, api key, BEGIN RSA PRIVATE KEY): what they find
# is credentials (T1213, T1552).
collab_search_urls := `(?i)/rest/api/(content/search|search)|/rest/api/[23]/search|api\.notion\.com/v1/search|slack\.com/api/search\.|graph\.microsoft\.com/v1\.0/(search/query|me/chats|chats)|/api/v4/search|/search/code|/_api/search`

ask contains {"id": "collect.bulk_dump", "msg": msg} if {
	"download" in input.agentjail.kinds
	some cmd in commands
	cmd.name in request_tools
	some a in cmd.args
	regex.match(collab_search_urls, a)
	some w in cmd.args
	secret_search_word(w)
	msg := sprintf("This searches %s for secrets (passwords, keys, tokens); what it finds is credentials the user has not given you. The user has to approve it.", [regex.replace(a, `[?#].*$`, "")])
}

ask contains {"id": "collect.bulk_dump", "msg": msg} if {
	"doors" in input.agentjail.kinds
	some cmd in commands
	cmd.name in {"gh", "glab"}
	positional(cmd)[0] in {"search", "api"}
	some w in cmd.args
	secret_search_word(w)
	regex.match(`(?i)code|search`, concat(" ", cmd.args))
	msg := sprintf("`%s` searches an organisation's code for secrets; what it finds is credentials. The user has to approve it.", [cmd.name])
}

# A SharePoint, OneDrive or Teams site's documents listed or fetched
# whole (m365 spo file list --recursive, PnP's Get-PnPFile over every
# item): the organisation's files on this machine (T1213.002).
program_group contains ["m365", "doors"]

ask contains {"id": "collect.bulk_dump", "msg": msg} if {
	"doors" in input.agentjail.kinds
	some cmd in commands
	cmd.name == "m365"
	positional(cmd)[0] in {"spo", "onedrive", "teams", "outlook"}
	has_option(cmd, {"recursive"})
	msg := sprintf("`%s` lists or copies every document of an organisation's site or drive; the user has to approve it.", [full_text(cmd)])
}

ask contains {"id": "collect.bulk_dump", "msg": msg} if {
	"code_run" in input.agentjail.kinds
	some cmd in commands
	cmd.name in {"pwsh", "powershell"}
	code := code_text(cmd)
	regex.match(`(?i)\b(Get-PnPFile|Copy-PnPFile|Get-PnPFolder\b[^;|]*-Recursive|Get-PnPListItem)\b`, code)
	regex.match(`(?i)(\|\s*(%|ForEach-Object)\s*\{|\bforeach\s*\(|-Recursive\b)`, code)
	msg := sprintf("This %s code copies every document of a SharePoint site or list; the user has to approve it.", [cmd.name])
}

# Code that searches a wiki or a drive through its library.
ask contains {"id": "collect.bulk_dump", "msg": msg} if {
	"code_run" in input.agentjail.kinds
	some cmd in commands
	cmd.name in code_programs
	code := code_text(cmd)
	regex.match(`(?i)\b(atlassian|confluence|jira|notion_client|slack_sdk|msgraph|office365|googleapiclient)\b`, code)
	regex.match(secret_search_pattern, code)
	msg := sprintf("This `%s` code searches a wiki, tracker, chat or drive for secrets; the user has to approve it.", [cmd.name])
}

# A wiki or site mirrored whole with a login.
ask contains {"id": "collect.bulk_dump", "msg": msg} if {
	"download" in input.agentjail.kinds
	some cmd in commands
	cmd.name in {"wget", "httrack"}
	has_option(cmd, {"mirror", "m", "recursive", "r"})
	some a in cmd.args
	regex.match(`^--(http-)?(user|password)=|^--load-cookies|^--header=.*Authori`, a)
	msg := sprintf("`%s` mirrors a site with a login: everything that account may read, collected; the user has to approve it.", [cmd.name])
}

program_group contains [prog, "doors"] if some prog in attack_tools

ask contains {"id": "network.attack_tool", "msg": msg} if {
	"doors" in input.agentjail.kinds
	some cmd in commands
	cmd.name in attack_tools
	count(cmd.args) > 0
	not only_asks_about_itself(cmd)
	not attack_only_loopback(cmd)
	msg := sprintf("`%s` scans, brute-forces or attacks another system; the user has to approve it, and only for systems they own or may test.", [cmd.name])
}

# The same tools as scripts an interpreter runs (python3 slowloris.py,
# perl sqlmap.pl): the script's name is the tool's.
ask contains {"id": "network.attack_tool", "msg": msg} if {
	"code_run" in input.agentjail.kinds
	some cmd in commands
	cmd.name in code_programs
	count(cmd.operands) > 1
	script := lower(regex.replace(base_name(cmd.operands[0]), `\.(py|pl|rb|js|php|lua)$`, ""))
	script in {lower(t) | some t in attack_tools}
	not attack_only_loopback(cmd)
	msg := sprintf("`%s %s` scans, brute-forces or attacks another system; the user has to approve it, and only for systems they own or may test.", [cmd.name, cmd.operands[0]])
}

# attack_only_loopback(cmd): every host it names is this machine.
attack_only_loopback(cmd) if {
	hosts := {h |
		some a in positional(cmd)
		h := attack_host(a)
	} | {h |
		some v in option_values(cmd, {"-u", "--url", "-h", "--host", "-t", "--target", "-host"})
		h := attack_host(v)
	}
	count(hosts) > 0
	every h in hosts {
		regex.match(loopback_host, h)
	}
}

# Exploit payloads sent by a plain HTTP client (T1190): a request that
# carries a Log4Shell lookup, a Shellshock function, an encoded path
# traversal or an injection probe attacks the server it reaches, whatever
# tool sends it. "url" rows are looked for only in the URL, where such
# text has no everyday use; "any" rows in every word but a file given
# with @. Aimed at this machine they test one's own service.
exploit_payloads := [
	{"re": `(?i)\$\{\s*(jndi\s*:|\$\{\s*(lower|upper|env|sys|date|::-)[^}]*\})`, "in": "any", "what": "a Log4Shell lookup (${jndi:…})"},
	{"re": `\(\)\s*\{\s*:?\s*;?\s*\}\s*;`, "in": "any", "what": "a Shellshock function definition"},
	{"re": `(?i)(%2e%2e|\.%2e|%2e\.)(/|%2f|%5c|\\)|(\.\./){3,}|(\.\.%2f){2,}|(\.\.%5c|\.\.\\){2,}`, "in": "url", "what": "a path traversal"},
	{"re": `(?i)/etc/(passwd|shadow)|/proc/self/environ|win\.ini|php://(input|filter)|expect://`, "in": "url", "what": "a request for the server's own system files"},
	{"re": `(?i)union(\s|\+|%20|/\*\*/)+(all(\s|\+|%20)+)?select(\s|\+|%20)|('|%27)(\s|\+|%20)*(or|and)(\s|\+|%20)+('|%27)?\d+('|%27)?(\s|\+|%20)*=(\s|\+|%20)*('|%27)?\d|\bwaitfor(\s|\+|%20)+delay\b`, "in": "url", "what": "an SQL injection probe"},
	{"re": `(?i)(<|%3c)script(>|%3e)|\bonerror(\s|%20)*=|javascript:alert`, "in": "url", "what": "a cross-site scripting probe"},
	{"re": `\{\{\s*7\s*\*\s*7\s*\}\}|\$\{\s*7\s*\*\s*7\s*\}|<%=\s*7\s*\*\s*7\s*%>`, "in": "any", "what": "a template injection probe"},
]

ask contains {"id": "network.exploit_payload", "msg": msg} if {
	"download" in input.agentjail.kinds
	some cmd in commands
	cmd.name in downloaders
	some a in cmd.args
	not startswith(a, "@")
	some row in exploit_payloads
	payload_place(row, a)
	regex.match(row.re, a)
	not attack_only_loopback(cmd)
	msg := sprintf("`%s` sends %s to a server: an attack on it; the user has to approve it, and only for systems they own or may test.", [cmd.name, row.what])
}

payload_place(row, _) if row["in"] == "any"

payload_place(row, a) if {
	row["in"] == "url"
	regex.match(`^(?i)(https?://|[a-z0-9.-]+\.[a-z]{2,}(:[0-9]+)?/|[0-9]+(\.[0-9]+){3}(:[0-9]+)?/)`, a)
}

# attack_host(a): the host a word names; a bare number is a port.
attack_host(a) := lower(regex.replace(a, `^([a-z]+://)?([^/@]+@)?(\[[^\]]+\]|[^/:?#\[]+).*$`, "$3")) if {
	not startswith(a, "-")
	regex.match(`[A-Za-z.]`, a)
}

# --- traffic relayed through another host (T1090, T1572) ----------------

# A SOCKS proxy or relay through another host, or the session's traffic
# sent through one: what the agent does next leaves from elsewhere, past
# whatever watches this network.
program_group contains [prog, "doors"] if some prog in {"socat", "export"}

ask contains {"id": "network.proxy_tunnel", "msg": msg} if {
	"tunnel" in input.agentjail.kinds
	some cmd in commands
	cmd.name in {"ssh", "autossh"}
	some v in option_values(cmd, {"-D"})
	regex.match(`^(0\.0\.0\.0|\*|\[::\]|::|[0-9]+\.[0-9]+\.[0-9]+\.[0-9]+):`, v)
	not startswith(v, "127.")
	msg := sprintf("`%s` opens a SOCKS proxy for other machines that sends their traffic out through another host; the user has to approve it. One on localhost (-D 1080) serves only this machine.", [full_text(cmd)])
}

# A SOCKS proxy left running in the background (-f, or the call's own
# &): it outlives the call, and what the agent sends through it later
# (curl --socks5 localhost:1080) leaves from the other host. One held
# in the foreground ends with the call.
ask contains {"id": "network.proxy_tunnel", "msg": msg} if {
	"tunnel" in input.agentjail.kinds
	some cmd in commands
	cmd.name in {"ssh", "autossh"}
	has_option(cmd, {"D"})
	backgrounded_tunnel(cmd)
	msg := sprintf("`%s` leaves a SOCKS proxy running in the background that sends this machine's traffic out through another host; the user has to approve it.", [full_text(cmd)])
}

backgrounded_tunnel(cmd) if cmd.background

backgrounded_tunnel(cmd) if "f" in cmd.flags

backgrounded_tunnel(cmd) if cmd.name == "autossh"

# A program run through Tor (torsocks), or a login or attack tool, or a
# bare public address, reached through a chain of proxies
# (proxychains): its traffic leaves from elsewhere, hiding where it came
# from. A fetch through a company's proxy chain (proxychains4 git
# fetch) is how some networks get out at all, and passes.
tor_wrappers := {"torsocks", "tsocks", "torify"}

proxy_chain_wrappers := {"proxychains", "proxychains4", "proxychains-ng"}

# Programs that log in to or probe another machine.
login_or_probe_tools := {
	"ssh", "scp", "sftp", "autossh", "mosh", "telnet", "nc", "ncat", "netcat", "socat", "nmap", "masscan", "sqlmap",
	"hydra", "medusa", "ncrack", "xfreerdp", "rdesktop", "smbclient", "crackmapexec", "nxc", "netexec", "evil-winrm",
	"vncviewer", "msfconsole", "nikto", "gobuster", "ffuf", "wpscan",
}

ask contains {"id": "network.proxy_tunnel", "msg": msg} if {
	some cmd in commands
	some w in cmd.wrappers
	hidden_route(cmd, w)
	msg := sprintf("`%s %s` sends its traffic through Tor or a chain of proxies, so it reaches the other host from somewhere else; the user has to approve it.", [w, full_text(cmd)])
}

hidden_route(_, w) if w in tor_wrappers

hidden_route(cmd, w) if {
	w in proxy_chain_wrappers
	cmd.name in login_or_probe_tools
}

hidden_route(cmd, w) if {
	w in proxy_chain_wrappers
	some a in cmd.args
	public_ip_in(a)
}

ask contains {"id": "network.proxy_tunnel", "msg": msg} if {
	"doors" in input.agentjail.kinds
	some cmd in commands
	cmd.name == "socat"
	some a in cmd.args
	regex.match(`(?i)^(TCP|TCP4|TCP6)-LISTEN:`, a)
	some b in cmd.args
	regex.match(`(?i)^(TCP|TCP4|TCP6|OPENSSL|SOCKS4A?):`, b)
	not regex.match(`(?i):(localhost|127\.[0-9.]+)[:,]`, b)
	msg := sprintf("`%s` relays a port of this machine to another host; the user has to approve it.", [full_text(cmd)])
}

# Proxy variables set for the rest of the session (export) or for one
# program, pointing at another host.
ask contains {"id": "network.proxy_tunnel", "msg": msg} if {
	regex.match(`(?i)_proxy=`, input.agentjail.command)
	some cmd in commands
	some k, v in object.union(cmd.assigns, export_assigns(cmd))
	lower(k) in {"http_proxy", "https_proxy", "all_proxy", "ftp_proxy"}
	not regex.match(`(?i)^([a-z0-9]+://)?(localhost|127\.[0-9.]+|\[::1\])(:|/|$)`, v)
	v != ""
	msg := sprintf("This sends the traffic of what runs next through %s (%s); the user has to approve it.", [v, k])
}

export_assigns(cmd) := {k: v |
	cmd.name == "export"
	some a in cmd.args
	contains(a, "=")
	parts := split(a, "=")
	k := parts[0]
	v := substring(a, count(k) + 1, -1)
} if cmd.name == "export"

export_assigns(cmd) := {} if cmd.name != "export"

# --- credential dumpers (ATT&CK T1555, T1003) --------------------------

# Tools whose one purpose is to pull every saved password, key and
# session out of the machine (browsers, keyrings, memory, mail clients),
# whether run as programs or as the script an interpreter runs.
credential_dumpers := {
	"lazagne", "mimipenguin", "mimikatz", "pypykatz", "secretsdump", "keychaindump", "chainbreaker",
	"hack-browser-data", "firefox_decrypt", "sharpchrome", "sharpdpapi", "dumpzilla", "3snake",
	"swap_digger", "linikatz", "truffleproc", "dploot", "donpapi",
}

dumper_name(p) := lower(regex.replace(base_name(p), `\.(py|pl|rb|sh|exe|ps1|js)$`, ""))

deny contains {"id": "secrets.credentials", "msg": msg} if {
	# A cheap test of the line first: the names are rare.
	regex.match(`(?i)lazagne|mimipenguin|katz|secretsdump|keychaindump|chainbreaker|hack-browser|firefox_decrypt|sharp(chrome|dpapi)|dumpzilla|3snake|swap_digger|truffleproc|dploot|donpapi`, input.agentjail.command)
	some cmd in commands
	some target in {cmd.name, object.get(cmd, "program", "")} | {t | some t in run_targets(cmd)}
	target != ""
	dumper_name(target) in credential_dumpers
	msg := sprintf("Blocked: `%s` pulls every saved password, key and session out of this machine. Ask the user for the one value you need.", [base_name(target)])
}
