package agentjail

# What this machine offers the network: folders of the home or the
# machine served to it, shells and control sockets reachable from it, data
# stores opened to every interface, a cluster's API or pods exposed.

# --- folders served to the network ---------------------------------------

# file_servers: programs that serve a folder over HTTP, by the word that
# names the server (the program, python's module, busybox's applet), with
# the options that give the folder and the address it listens on; a
# server whose folder is an operand says so; without either it serves
# its working folder. A user's policy adds rows with
# `file_server contains [name, row]`.
core_file_servers := {
	"http.server": {"dir": ["-d", "--directory"], "bind": ["-b", "--bind"]},
	"SimpleHTTPServer": {"dir": [], "bind": []},
	"php": {"dir": ["-t", "--docroot"], "bind": ["-S"]},
	"httpd": {"dir": ["-h"], "bind": ["-p"]},
	"ruby-httpd": {"operand": true, "bind": ["--bind-address"]},
	"serve": {"operand": true, "bind": ["-l", "--listen"]},
	"http-server": {"operand": true, "bind": ["-a"]},
	"live-server": {"operand": true, "bind": ["--host"]},
	"static-server": {"operand": true, "bind": []},
	"miniserve": {"operand": true, "bind": ["-i", "--interfaces"]},
	"darkhttpd": {"operand": true, "bind": ["--addr"]},
	"updog": {"dir": ["-d", "--directory"], "bind": []},
	"web": {"dir": ["--path"], "bind": []},
	"webfsd": {"dir": ["-r"], "bind": ["-i"]},
	"file-server": {"dir": ["-r", "--root"], "bind": ["-l", "--listen"]},
}

file_servers := object.union(core_file_servers, {pair[0]: pair[1] | some pair in file_server})

file_server contains pair if {
	some pair in []
}

program_group contains [prog, "serve"] if some prog in {
	"python", "python2", "python3", "php", "busybox", "serve", "http-server", "live-server", "static-server",
	"miniserve", "darkhttpd", "updog", "twistd", "webfsd", "caddy", "ruby", "npx", "bunx", "pnpx",
}

# server_words(cmd): the words from the server's name on, for each way
# the command starts one (a set: a command may name it more than once).
server_words(cmd) := {array.slice(cmd.args, i, count(cmd.args)) |
	cmd.name in {"python", "python2", "python3"}
	some i, a in cmd.args
	a in {"http.server", "SimpleHTTPServer"}
	i > 0
	cmd.args[i - 1] == "-m"
} | {array.concat(["php"], cmd.args) |
	cmd.name == "php"
	has_flag(cmd, {"S"})
} | {array.concat(["ruby-httpd"], array.slice(cmd.args, i + 1, count(cmd.args))) |
	# ruby -run -e httpd DIR (un.rb's httpd)
	cmd.name == "ruby"
	"-run" in cmd.args
	some i, a in cmd.args
	a == "httpd"
} | {array.slice(cmd.args, i, count(cmd.args)) |
	cmd.name in {"busybox", "twistd", "caddy", "npx", "bunx", "pnpx"}
	some i, a in cmd.args
	a in {"httpd", "web", "file-server", "serve", "http-server", "live-server", "static-server"}
	every b in array.slice(cmd.args, 0, i) {
		startswith(b, "-")
	}
} | {array.concat([cmd.name], cmd.args) |
	cmd.name in {"serve", "http-server", "live-server", "static-server", "miniserve", "darkhttpd", "updog", "webfsd"}
}

# served_roots(cmd, row, words): the folder the server serves: its
# folder option, else its folder operand, else its working folder.
served_roots(cmd, row, words) := {local_path(v, cmd.cwd) | some v in option_values(cmd, {o | some o in row.dir})} if {
	count(option_values(cmd, {o | some o in row.dir})) > 0
} else := {local_path(w, cmd.cwd) | some w in operand_root(array.slice(words, 1, count(words)))} if {
	object.get(row, "operand", false)
	count(operand_root(array.slice(words, 1, count(words)))) > 0
} else := {cmd.cwd}

# operand_root(words): the first word that is neither an option nor the
# value of one nor a port number.
operand_root(words) := {w |
	some i, w in words
	root_word(words, i)
	not some_root_word_before(words, i)
}

root_word(words, i) if {
	not startswith(words[i], "-")
	not regex.match(`^[0-9]+$`, words[i])
	not value_after_option(words, i)
}

some_root_word_before(words, i) if {
	some j in numbers.range(0, i - 1)
	j < i
	root_word(words, j)
}

value_after_option(words, i) if {
	i > 0
	regex.match(`^-[a-zA-Z]$|^--(port|listen|host|address|addr|config|cors|cache|ssl|cert|key|proxy)$`, words[i - 1])
}

# Loopback when the address option names only this machine.
listens_on_loopback(cmd, row) if {
	some v in option_values(cmd, {o | some o in row.bind})
	host := regex.replace(v, `:[0-9]*$`, "")
	regex.match(`^(localhost|127\.[0-9.]+|::1|\[::1\])$`, host)
}

# served_folders: [command, folder] for each server the call starts that
# listens beyond this machine.
served_folders contains [cmd, root] if {
	"serve" in input.agentjail.kinds
	some cmd in commands
	some words in server_words(cmd)
	row := file_servers[words[0]]
	not listens_on_loopback(cmd, row)
	some root in served_roots(cmd, row, words)
}

# The home folder, a folder that holds it (/, /home) or a credential
# folder served: its keys and tokens go to anyone who can reach the port.
deny contains {"id": "network.serve_secrets", "msg": msg} if {
	"serve" in input.agentjail.kinds
	some [cmd, root] in served_folders
	serves_secrets(root)
	msg := sprintf("Blocked: `%s` serves %s to the network, and with it the keys and tokens it holds. Serve the project's build folder instead.", [full_text(cmd), shown(root)])
}

serves_secrets(root) if under(home, root)

serves_secrets("/")

serves_secrets(root) if known_secret(root)

ask contains {"id": "network.serve_folder", "msg": msg} if {
	"serve" in input.agentjail.kinds
	some [cmd, root] in served_folders
	not serves_secrets(root)
	catastrophic(root)
	not home_project(root)
	msg := sprintf("`%s` serves %s to the network, the user's own files or the machine's; the user has to approve it. Serve the project's build folder instead.", [full_text(cmd), shown(root)])
}

# --- shells and control sockets served to the network --------------------

# Programs whose whole function is a shell reachable over the network
# (web terminals, telnet daemons), run directly or as a busybox applet.
shell_servers := {"gotty", "ttyd", "wetty", "shellinaboxd", "telnetd", "utelnetd", "in.telnetd"}

# Servers that run code for whoever connects and are safe only behind
# their authentication and on loopback: each row gives the options of the
# address they listen on (their default is loopback) and patterns of the
# words that turn authentication off.
unauthenticated_servers := {
	"code-server": {"bind": ["--bind-addr", "--host"], "noauth": [`^--auth=none$`, `^none$`]},
	"openvscode-server": {"bind": ["--host"], "noauth": [`^--without-connection-token$`]},
	"jupyter": {"bind": ["--ip"], "noauth": [`^--(NotebookApp|ServerApp)\.(token|password)=(''|""|)$`]},
	"jupyter-lab": {"bind": ["--ip"], "noauth": [`^--(NotebookApp|ServerApp)\.(token|password)=(''|""|)$`]},
	"jupyter-notebook": {"bind": ["--ip"], "noauth": [`^--(NotebookApp|ServerApp)\.(token|password)=(''|""|)$`]},
}

# Daemons whose API is root on this machine, told to listen on TCP.
control_daemons := {"dockerd": ["-H", "--host"], "containerd": ["--address"], "podman": ["--url"]}

program_group contains [prog, "serve"] if some prog in shell_servers

program_group contains [prog, "serve"] if some prog, _ in unauthenticated_servers

program_group contains [prog, "serve"] if some prog, _ in control_daemons

program_group contains ["socat", "serve"]

deny contains {"id": "network.shell_server", "msg": msg} if {
	"serve" in input.agentjail.kinds
	some cmd in commands
	serves_shell(cmd)
	msg := sprintf("Blocked: `%s` serves a shell or this machine's control socket to the network, where anyone who reaches the port runs commands as you. Ask the user to set up remote access themselves.", [full_text(cmd)])
}

serves_shell(cmd) if {
	cmd.name in shell_servers
	not info_only(cmd)
}

serves_shell(cmd) if {
	cmd.name == "busybox"
	positional(cmd)[0] in shell_servers
}

serves_shell(cmd) if {
	row := unauthenticated_servers[cmd.name]
	some a in cmd.args
	some pat in row.noauth
	regex.match(pat, a)
	some v in option_values(cmd, {o | some o in row.bind})
	not regex.match(`^(localhost|127\.[0-9.]+|::1|\[::1\])(:[0-9]+)?$`, v)
}

serves_shell(cmd) if {
	opts := control_daemons[cmd.name]
	some v in option_values(cmd, {o | some o in opts})
	startswith(v, "tcp://")
	not regex.match(`^tcp://(localhost|127\.[0-9.]+|\[::1\])(:|$)`, v)
}

# socat TCP-LISTEN:2375,fork UNIX-CONNECT:/var/run/docker.sock: a local
# socket (Docker's, containerd's) handed to whoever connects.
serves_shell(cmd) if {
	cmd.name == "socat"
	some a in cmd.args
	regex.match(`(?i)^(tcp|tcp4|tcp6|ssl|openssl)-listen:`, a)
	not regex.match(`(?i),bind=(localhost|127\.[0-9.]+|\[?::1\]?)(,|$)`, a)
	some b in cmd.args
	regex.match(`(?i)^(unix-connect|unix-client|unix):.*\.sock$`, b)
}

info_only(cmd) if has_flag(cmd, {"version", "help", "v", "h", "V"})

info_only(cmd) if count(cmd.args) == 0

# --- data stores opened to every interface -------------------------------

# Each row: patterns of a data store's words that make it listen on every
# interface or turn its protection off (redis' protected mode, MySQL's
# grant tables, Elasticsearch's security).
open_service_words := {
	"redis-server": [`^--protected-mode no$`, `^--bind (0\.0\.0\.0|\*|::|::\*)( |$)`],
	"valkey-server": [`^--protected-mode no$`, `^--bind (0\.0\.0\.0|\*|::|::\*)( |$)`],
	"mongod": [`^--bind_ip_all$`, `^--bind_ip[= ](0\.0\.0\.0|\*|::)$`],
	"memcached": [`^(-l|--listen)[= ]?(0\.0\.0\.0|::)$`],
	"postgres": [`^-h (\*|0\.0\.0\.0)$`, `^-c listen_addresses=(\*|0\.0\.0\.0)$`],
	"mysqld": [`^--bind-address[= ](0\.0\.0\.0|\*|::)$`, `^--skip-grant-tables$`],
	"mariadbd": [`^--bind-address[= ](0\.0\.0\.0|\*|::)$`, `^--skip-grant-tables$`],
	"elasticsearch": [`^-E network\.host=(0\.0\.0\.0|_site_|_global_)$`, `^-E xpack\.security\.enabled=false$`],
}

program_group contains [prog, "serve"] if some prog, _ in open_service_words

ask contains {"id": "network.open_service", "msg": msg} if {
	"serve" in input.agentjail.kinds
	some cmd in commands
	pats := open_service_words[cmd.name]
	some w in word_pairs(cmd)
	some pat in pats
	regex.match(pat, w)
	msg := sprintf("`%s` opens a data store to every network interface or turns its protection off (%s); the user has to approve it. Bind it to 127.0.0.1.", [cmd.name, w])
}

# word_pairs(cmd): each word, and each word with the one after it
# (--bind 0.0.0.0), so a pattern sees both spellings.
word_pairs(cmd) := {w | some w in cmd.args} | {concat(" ", [a, cmd.args[i + 1]]) |
	some i, a in cmd.args
	startswith(a, "-")
	i + 1 < count(cmd.args)
}

# --- cluster access exposed (ATT&CK T1133, T1572) -------------------------

program_group contains ["kubectl", "tunnel"]

# kubectl proxy and port-forward listen on 127.0.0.1 unless told
# otherwise; on every interface, anyone who reaches this machine reaches
# the cluster's API (with the user's credentials) or the pod.
exposes_port(cmd) if {
	cmd.name == "kubectl"
	"--address" in cmd.args
	positional(cmd)[0] in {"proxy", "port-forward"}
	some v in option_values(cmd, {"--address"})
	some a in split(v, ",")
	not a in {"localhost", "127.0.0.1", "::1"}
}

exposes_port(cmd) if {
	cmd.name == "kubectl"
	some a in cmd.args
	startswith(a, "--address=")
	positional(cmd)[0] in {"proxy", "port-forward"}
	some v in split(substring(a, 10, -1), ",")
	not v in {"localhost", "127.0.0.1", "::1"}
}
