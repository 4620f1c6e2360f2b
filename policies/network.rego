package agentjail

# Network: reverse shells, secrets sent in a request, cloud metadata
# endpoints (deny); ports exposed to the outside and pushes to ad-hoc
# remotes (ask).

# --- reverse shells ----------------------------------------------------

loopback_host := `^(localhost|127\.[0-9.]+|::1|0\.0\.0\.0|\[::1\])$`

# /dev/tcp/HOST/PORT redirects: a shell wired to a socket. Both rules
# first take a cheap look at the command line (written out, not through a
# helper rule, which costs more to consult than the look itself) before
# walking every redirect of every command.
deny contains {"id": "network.reverse_shell", "msg": msg} if {
	contains(input.agentjail.command, "/dev/")
	some cmd in commands
	some r in cmd.redirects
	parts := regex.find_all_string_submatch_n(`^/dev/(tcp|udp)/([^/]+)/`, r.target, 1)
	count(parts) > 0
	not regex.match(loopback_host, parts[0][2])
	socket_shell(cmd, r)
	msg := sprintf("Blocked: `%s` wires a shell or a stream to %s, a reverse shell or a raw upload. Use the project's own tools to talk to servers.", [cmd.name, r.target])
}

socket_shell(cmd, _) if cmd.name in shells

socket_shell(cmd, _) if cmd.name == "exec"

socket_shell(_, r) if contains(r.op, ">")

ask contains {"id": "network.raw_socket", "msg": msg} if {
	contains(input.agentjail.command, "/dev/")
	some cmd in commands
	some r in cmd.redirects
	parts := regex.find_all_string_submatch_n(`^/dev/(tcp|udp)/([^/]+)/`, r.target, 1)
	count(parts) > 0
	not regex.match(loopback_host, parts[0][2])
	not socket_shell(cmd, r)
	msg := sprintf("`%s` opens a raw connection to %s; the user has to approve it.", [cmd.name, r.target])
}

deny contains {"id": "network.reverse_shell", "msg": msg} if {
	"netshell" in input.agentjail.kinds
	some cmd in commands
	reverse_shell(cmd)
	msg := sprintf("Blocked: `%s` hands a shell to a network connection (a reverse or bind shell). Ask the user to set up remote access themselves.", [full_text(cmd)])
}

reverse_shell(cmd) if {
	cmd.name in {"nc", "ncat", "netcat"}
	has_flag(cmd, {"e", "c", "exec", "sh-exec", "lua-exec"})
}

reverse_shell(cmd) if {
	cmd.name == "socat"
	some a in cmd.args
	regex.match(`(?i)(^|,|!!)(exec|system):`, a)
	some b in cmd.args
	regex.match(`(?i)^(tcp|tcp4|tcp6|udp|udp4|udp6|ssl|openssl|sctp)[-:]`, b)
}

# A shell or interpreter reading its code from a network connection.
reverse_shell(cmd) if {
	cmd.name in code_runners
	reads_stdin(cmd)
	some src in cmd.pipe_from
	src in {"nc", "ncat", "netcat", "socat", "telnet", "openssl"}
}

# mkfifo with a network tool in one call: the classic named-pipe shell.
reverse_shell(cmd) if {
	cmd.name in {"nc", "ncat", "netcat", "telnet", "openssl"}
	"mkfifo" in input.agentjail.names
	some other in commands
	other.name in shells
}

# Interpreter code that connects a socket and hands it a shell.
reverse_shell(cmd) if {
	cmd.name in interpreters
	some code in code_args(cmd)
	regex.match(`(?i)socket|fsockopen|TCPSocket|net\.connect|new\s+net\.Socket|IO::Socket`, code)
	regex.match(`(?i)dup2|pty\.spawn|/bin/(ba|z)?sh|\bexec\s*\(|spawn\(|subprocess|child_process|popen|proc_open|system\(`, code)
}

# --- secrets in requests -----------------------------------------------

# Token shapes: cloud keys, provider tokens, private key headers.
token_shape := `AKIA[0-9A-Z]{16}|ASIA[0-9A-Z]{16}|gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{20,}|glpat-[A-Za-z0-9_-]{20}|sk-[A-Za-z0-9_-]{20,}|sk_(live|test)_[A-Za-z0-9]{10,}|rk_live_[A-Za-z0-9]{10,}|xox[abposr]-[A-Za-z0-9-]{10,}|AIza[0-9A-Za-z_-]{35}|npm_[A-Za-z0-9]{36}|pypi-[A-Za-z0-9_-]{20,}|-----BEGIN [A-Z ]*PRIVATE KEY|sk-live-[A-Za-z0-9]{10,}|eyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}`

request_tools := {"curl", "wget", "http", "https", "xh", "aria2c", "lwp-download", "GET", "POST", "fetch"}

# Options whose value carries credentials on purpose (using, not leaking).
credential_options := {"-H", "--header", "-u", "--user", "--oauth2-bearer", "--proxy-user", "-K", "--config", "--http-user", "--http-password", "--password", "--user-agent", "-A"}

# request_words(cmd) are the words of a request other than its
# credential options' values: the URL, the body, form fields.
request_words(cmd) := [a |
	some i, a in cmd.args
	not credential_value(cmd, i)
	not credential_option_word(a)
]

credential_value(cmd, i) if {
	i > 0
	cmd.args[i - 1] in credential_options
}

credential_option_word(a) if {
	some o in credential_options
	startswith(o, "--")
	startswith(a, concat("", [o, "="]))
}

credential_option_word(a) if regex.match(`^-[Hu].`, a)

# httpie and xh take headers as Name:value words.
credential_option_word(a) if regex.match(`^[A-Za-z0-9-]+:[^/=]`, a)

# A secret in a request's URL or body is its normal use when every host
# the request goes to is the service the secret is for (an API key in
# openweathermap's query string, codecov's upload token in its form) or
# this machine; sent anywhere else it is exfiltration. Whose a secret is
# comes from its name (sent_to_own_service).
deny contains {"id": "network.secret_in_request", "msg": msg} if {
	"network" in input.agentjail.kinds
	some cmd in commands
	cmd.name in request_tools
	some a in request_words(cmd)
	some name in secret_var_refs(a)
	not sent_to_own_service(name, cmd)
	msg := sprintf("Blocked: `%s` puts $%s, a secret, in a request's URL or body, to a host that is not the service its name says it is for. Send a secret only to its own service.", [cmd.name, name])
}

# sent_to_own_service(name, cmd): every host of the request is this
# machine or belongs to the service the variable is named for. A name
# whose first word is in service_secret_domains belongs to those domains
# only; any other belongs to a host whose registrable name is one of the
# name's own words (CODECOV_TOKEN and codecov.io), starts with one of at
# least four letters (OPENWEATHER_KEY and openweathermap.org), or has a
# short word's letters as its initials in order (OWM_API_KEY and
# openweathermap.org). Words every secret's name has (API, KEY, TOKEN)
# say nothing of whose it is.
sent_to_own_service(name, cmd) if {
	hosts := request_hosts(cmd)
	count(hosts) > 0
	every h in hosts {
		service_host(name, h)
	}
}

service_host(_, h) if regex.match(loopback_host, h)

service_host(name, h) if {
	domains := service_secret_domains[upper(split(name, "_")[0])]
	host_in(h, domains)
}

service_host(name, h) if {
	not service_secret_domains[upper(split(name, "_")[0])]
	some w in secret_name_words(name)
	some l in registrable_words(h)
	secret_word_names(w, l)
}

generic_secret_words := {
	"api", "key", "keys", "token", "tokens", "secret", "secrets", "access", "auth", "password", "passwd", "pass", "pat",
	"client", "app", "id", "private", "public", "prod", "production", "dev", "development", "test", "staging", "my",
	"bearer", "oauth", "sk", "pk", "live", "service", "account", "user", "admin", "url", "webhook", "write", "read",
	"upload", "env", "v1", "v2", "v3", "project", "org", "default", "new", "old", "main", "global", "local",
}

secret_name_words(name) := {w |
	some part in split(lower(name), "_")
	w := part
	regex.match(`^[a-z][a-z0-9]+$`, w)
	not w in generic_secret_words
}

# registrable_words(h): the words of the name a host is registered under
# (api.openweathermap.org: openweathermap; app.my-service.co.uk: my,
# service), never those of the names below it, which anyone who owns the
# domain picks.
registrable_words(h) := {w |
	parts := split(lower(h), ".")
	n := count(parts)
	n >= 2
	i := registrable_index(parts, n)
	some w in split(parts[i], "-")
	w != ""
}

registrable_index(parts, n) := n - 3 if {
	n >= 3
	parts[n - 2] in {"co", "com", "org", "net", "ac", "gov", "edu", "ne", "or"}
	count(parts[n - 1]) == 2
} else := n - 2

secret_word_names(w, l) if w == l

secret_word_names(w, l) if {
	count(w) >= 4
	startswith(l, w)
}

secret_word_names(w, l) if {
	regex.match(`^[a-z]{2,4}$`, w)
	regex.match(concat("", ["^", concat("[a-z0-9]*", split(w, "")), "[a-z0-9]*$"]), l)
}

deny contains {"id": "network.secret_in_request", "msg": msg} if {
	"network" in input.agentjail.kinds
	some cmd in commands
	cmd.name in request_tools
	some a in request_words(cmd)
	regex.match(token_shape, a)
	msg := sprintf("Blocked: `%s` sends a token-shaped secret in a request's URL or body.", [cmd.name])
}

# A secret in a header is used, not leaked, when it goes to its own
# service. Two kinds of header secrets are leaked wherever they go:
# secrets no service takes as they are (AWS's secret key signs requests
# and is never sent; private keys), and a service's token sent to a host
# that is not that service. service_secret_domains says, by the first
# word of a variable's name, which domains its secrets belong to; a
# user's policy may add rows. Variables it does not name stay allowed.
never_sent_var_pattern := `(?i)^(AWS_SECRET_ACCESS_KEY|AWS_SESSION_TOKEN|.*PRIVATE_?KEY.*|.*SIGNING_?KEY.*|.*PASSPHRASE.*)$`

service_secret_domains := {
	"GITHUB": {"github.com", "githubusercontent.com", "ghcr.io"},
	"GH": {"github.com", "githubusercontent.com", "ghcr.io"},
	"GITLAB": {"gitlab.com"},
	"OPENAI": {"openai.com"},
	"ANTHROPIC": {"anthropic.com"},
	"STRIPE": {"stripe.com"},
	"SLACK": {"slack.com"},
	"NPM": {"npmjs.org", "npmjs.com"},
	"HF": {"huggingface.co"},
	"HUGGINGFACE": {"huggingface.co"},
	"CLOUDFLARE": {"cloudflare.com"},
	"SENTRY": {"sentry.io"},
	"DATADOG": {"datadoghq.com", "datadoghq.eu"},
	"VERCEL": {"vercel.com"},
	"NETLIFY": {"netlify.com"},
	"HEROKU": {"heroku.com"},
	"TWILIO": {"twilio.com"},
	"SENDGRID": {"sendgrid.com"},
	"DIGITALOCEAN": {"digitalocean.com"},
}

# header_words(cmd): the values of a request's credential options.
header_words(cmd) := [a |
	some i, a in cmd.args
	header_word(cmd, i, a)
]

header_word(cmd, i, _) if credential_value(cmd, i)

header_word(_, _, a) if credential_option_word(a)

request_hosts(cmd) := {h |
	some a in cmd.args
	regex.match(`^[a-zA-Z][a-zA-Z0-9+.-]*://`, a)
	h := url_host(a)
}

host_in(h, domains) if h in domains

# only_loopback(cmd): every URL of the request is on this machine.
only_loopback(cmd) if {
	hosts := request_hosts(cmd)
	count(hosts) > 0
	every h in hosts {
		regex.match(loopback_host, h)
	}
}

host_in(h, domains) if {
	some d in domains
	endswith(h, concat("", [".", d]))
}

deny contains {"id": "network.secret_in_request", "msg": msg} if {
	"network" in input.agentjail.kinds
	some cmd in commands
	cmd.name in request_tools
	some a in header_words(cmd)
	some name in secret_var_refs(a)
	regex.match(never_sent_var_pattern, name)
	not only_loopback(cmd)
	msg := sprintf("Blocked: `%s` sends $%s in a header; no service takes that secret as it is, so it leaves for the server to keep. Use the service's own CLI or SDK.", [cmd.name, name])
}

deny contains {"id": "network.secret_in_request", "msg": msg} if {
	"network" in input.agentjail.kinds
	some cmd in commands
	cmd.name in request_tools
	some a in header_words(cmd)
	some name in secret_var_refs(a)
	domains := service_secret_domains[upper(split(name, "_")[0])]
	some h in request_hosts(cmd)
	not regex.match(loopback_host, h)
	not host_in(h, domains)
	msg := sprintf("Blocked: `%s` sends $%s, a secret of %s, to %s. Send a token only to its own service.", [cmd.name, name, concat(", ", sort([d | some d in domains])), h])
}

# A request whose body or URL is computed from the environment or a
# secret store: curl -d "$(env)".
deny contains {"id": "network.secret_in_request", "msg": msg} if {
	"network" in input.agentjail.kinds
	some cmd in commands
	cmd.name in request_tools
	some src in cmd.subst
	src in {"env", "printenv", "gh", "aws", "pass", "op", "security", "gcloud", "az", "git", "secret-tool"}
	some other in commands
	other.name == src
	leaks_from(other)
	msg := sprintf("Blocked: `%s` sends the output of `%s` (the environment or a credential) over the network.", [cmd.name, src])
}

leaks_from(cmd) if cmd.name in {"env", "printenv"}

leaks_from(cmd) if {
	some words in invocations(cmd)
	some row in token_printers
	words[0] == row.tool
	token_verb(words, row)
}

# Interpreter code that sends the environment or a secret variable over
# the network.
deny contains {"id": "network.env_to_network", "msg": msg} if {
	"netshell" in input.agentjail.kinds
	some cmd in commands
	some code in code_args(cmd)
	regex.match(env_code_pattern, code)
	reads_secret_env(code)
	regex.match(`fetch\(|requests\.|urllib|https?\.(request|get)|XMLHttpRequest|axios|net\.connect|socket|Net::HTTP|LWP|HTTP::Tiny|curl|https?://`, code)
	msg := sprintf("Blocked: this `%s` code sends environment variables (tokens, keys) over the network. Send only the specific non-secret values needed.", [cmd.name])
}

# A stream of the project, an archive or a database dump piped to a
# remote host.
ask contains {"id": "network.upload_stream", "msg": msg} if {
	"network" in input.agentjail.kinds
	some cmd in commands
	cmd.name in {"ssh", "nc", "ncat", "netcat", "socat", "curl", "telnet"}
	some src in cmd.pipe_from
	src in {"tar", "zip", "gzip", "pg_dump", "pg_dumpall", "mysqldump", "mongodump", "sqlite3", "cpio", "bsdtar"}
	msg := sprintf("`%s | %s` sends an archive or a database dump to another host; the user has to approve it.", [src, cmd.name])
}

# A whole home folder (~/Documents, ~/Pictures, HOME itself) copied to
# another host or to cloud storage: the user's own files leave the
# machine. Copies of the project, and downloads into HOME, stay allowed.
remote_copiers := {"rclone", "rsync", "scp", "sftp", "aws", "gsutil", "gcloud", "azcopy", "s3cmd", "mc", "restic", "duplicity", "croc", "magic-wormhole", "wormhole"}

program_group contains [prog, "network"] if some prog in remote_copiers

ask contains {"id": "network.upload_stream", "msg": msg} if {
	"network" in input.agentjail.kinds
	some cmd in commands
	cmd.name in remote_copiers
	some p in cmd.paths
	p in catastrophic_paths
	under(p, home)
	not in_project(p)
	not secret(p)
	some a in cmd.args
	remote_destination(a)
	copied_from(cmd, p, a)
	msg := sprintf("`%s` copies %s, the user's own files, to %s; the user has to approve it.", [cmd.name, pretty(p), a])
}

# copied_from(cmd, p, dest): p is written before the remote destination
# (cp SRC DEST), so it is copied from, not into; restic backs up the
# paths after its repository.
copied_from(cmd, p, dest) if {
	some j, a in cmd.args
	a == dest
	some k, b in cmd.args
	k < j
	trim_right(b, "/") == p
}

copied_from(cmd, _, _) if cmd.name == "restic"

remote_destination(a) if regex.match(`^(s3|gs|az|r2|b2|sftp|ftp|ftps|webdav|https?)://`, a)

# host:path or remote:path (rclone, scp, rsync); not a Windows drive.
remote_destination(a) if regex.match(`^[A-Za-z0-9_.@-]{2,}:[^/]?`, a)

# Uploading a database file or a dump.
ask contains {"id": "network.upload_stream", "msg": msg} if {
	"network" in input.agentjail.kinds
	some cmd in commands
	cmd.name in request_tools
	some a in cmd.args
	regex.match(`(^@|^[A-Za-z0-9_-]+=@|^)[^=]*\.(sqlite3?|db|sql|dump|bak)(\.gz)?$`, a)
	upload_word(cmd, a)
	msg := sprintf("`%s` uploads a database or a dump (%s); the user has to approve it.", [cmd.name, a])
}

upload_word(_, a) if contains(a, "@")

upload_word(cmd, a) if a in option_values(cmd, {"-T", "--upload-file", "--post-file", "--body-file"})

# DNS exfiltration: a name built from a secret or a substitution.
deny contains {"id": "network.dns_exfil", "msg": msg} if {
	"dns" in input.agentjail.kinds
	some cmd in commands
	cmd.name in {"host", "dig", "nslookup", "drill", "ping", "ping6", "traceroute", "getent", "resolvectl"}
	dns_leak(cmd)
	msg := sprintf("Blocked: `%s` looks up a name built from a secret or a command's output, which sends it to whoever runs that DNS zone.", [cmd.name])
}

dns_leak(cmd) if {
	some a in cmd.args
	count(secret_var_refs(a)) > 0
}

dns_leak(cmd) if count(cmd.subst) > 0

# --- cloud metadata endpoints ------------------------------------------

metadata_hosts := {"169.254.169.254", "metadata.google.internal", "metadata.goog", "fd00:ec2::254", "100.100.100.200", "169.254.170.2", "metadata.azure.com", "169.254.169.123"}

metadata_pattern := `(?i)(^|[^0-9a-z.])(169\.254\.169\.254|metadata\.google\.internal|metadata\.goog|fd00:ec2::254|100\.100\.100\.200|169\.254\.170\.2|169\.254\.169\.123)([^0-9]|$)`

# metadata_hint: a cheap look at the command line (any program can reach
# the endpoint, so no program group can stand in for it).
metadata_hint := `169\.254\.1|metadata\.|100\.100\.100\.200|fd00:ec2`

# Programs whose words are only text.
text_programs := {"echo", "printf", "grep", "egrep", "fgrep", "rg", "ag", "ack", "sed", "awk", "git", "gh", "jq", "yq", "cat", "less", "head", "tail", "man"}

deny contains {"id": "network.metadata", "msg": msg} if {
	regex.match(metadata_hint, input.agentjail.command)
	some cmd in commands
	not cmd.name in text_programs
	some a in cmd.args
	contains(a, ".")
	regex.match(metadata_pattern, a)
	msg := sprintf("Blocked: `%s` reaches the cloud metadata endpoint, which hands out this machine's cloud credentials. Ask the user for the value you need.", [cmd.name])
}

deny contains {"id": "network.metadata", "msg": msg} if {
	regex.match(metadata_hint, input.agentjail.command)
	some cmd in commands
	not cmd.name in text_programs
	some a in cmd.args
	contains(a, "fd00:ec2::254")
	msg := sprintf("Blocked: `%s` reaches the cloud metadata endpoint, which hands out this machine's cloud credentials.", [cmd.name])
}

# Every agent's fetch tool, whatever its field (Gemini's web_fetch has
# its URLs in its prompt): the URLs the daemon found in the tool's input.
deny contains {"id": "network.metadata", "msg": msg} if {
	not input.agentjail.commands
	input.agentjail.tool == "fetch"
	some url in input.agentjail.urls
	regex.match(metadata_pattern, url)
	msg := sprintf("Blocked: %s is the cloud metadata endpoint, which hands out this machine's cloud credentials.", [url])
}

# WebFetch and MCP fetches: the url field.
deny contains {"id": "network.metadata", "msg": msg} if {
	input.agentjail.urls[0]
	some url in fetched_url
	regex.match(metadata_pattern, url)
	msg := sprintf("Blocked: %s is the cloud metadata endpoint, which hands out this machine's cloud credentials.", [url])
}

deny contains {"id": "network.secret_in_request", "msg": msg} if {
	input.agentjail.urls[0]
	some url in fetched_url
	regex.match(token_shape, url)
	msg := "Blocked: this URL carries a token-shaped secret; fetching it sends the secret to that server."
}

# The same endpoints written as other spellings of their IPv4 address,
# which URL parsers and curl accept: one decimal number (2852039166),
# hex (0xa9fea9fe, 0xa9.0xfe.0xa9.0xfe), octal (0251.0376.0251.0376),
# the short forms (169.254.43518, 169.16689662) and IPv4-mapped IPv6
# (::ffff:169.254.169.254, ::ffff:a9fe:a9fe). Computed from the dotted
# addresses in metadata_hosts, so a host added there is covered too.
metadata_ip_forms contains f if {
	some ip in metadata_hosts
	regex.match(`^[0-9]+\.[0-9]+\.[0-9]+\.[0-9]+$`, ip)
	b := [to_number(x) | some x in split(ip, ".")]
	n := ((((b[0] * 256) + b[1]) * 256 + b[2]) * 256) + b[3]
	forms := {
		format_int(n, 10),
		concat("", ["0x", format_int(n, 16)]),
		concat("", ["0", format_int(n, 8)]),
		concat(".", [concat("", ["0x", format_int(x, 16)]) | some x in b]),
		concat(".", [concat("", ["0", format_int(x, 8)]) | some x in b]),
		sprintf("%d.%d.%d", [b[0], b[1], (b[2] * 256) + b[3]]),
		sprintf("%d.%d", [b[0], ((b[1] * 256) + b[2]) * 256 + b[3]]),
		concat("", ["::ffff:", ip]),
		sprintf("::ffff:%s:%s", [format_int((b[0] * 256) + b[1], 16), format_int((b[2] * 256) + b[3], 16)]),
	}
	some f in forms
}

# url_host(u): the host of a URL or of a bare host[:port]/path word,
# lower-cased and without IPv6 brackets.
# public_ip_in(a): the word names a bare IPv4 address outside the
# private, loopback and link-local ranges (user@203.0.113.5,
# http://203.0.113.5/x, 203.0.113.5:8080).
public_ip_in(a) if {
	some m in regex.find_all_string_submatch_n(`(?:^|[@/=])((?:[0-9]{1,3}\.){3}[0-9]{1,3})(?:$|[:/])`, a, 4)
	not regex.match(`^(10\.|127\.|0\.|169\.254\.|192\.168\.|172\.(1[6-9]|2[0-9]|3[01])\.)`, m[1])
}

url_host(u) := lower(trim(m[0][1], "[]")) if {
	m := regex.find_all_string_submatch_n(`^(?:[a-zA-Z][a-zA-Z0-9+.-]*://)?(?:[^@/]*@)?(\[[^\]]+\]|[^/:?#\s]+)`, u, 1)
	count(m) > 0
}

# mentions_encoded_ip: a cheap look for a number-shaped host that is not
# a dotted decimal address.
mentions_encoded_ip(text) if regex.match(`(?i)(^|[^0-9a-z.])(0x[0-9a-f]|0[0-7]|[0-9]{8,}|[0-9]+(\.[0-9]+)?\.[0-9]{4,})|::ffff:`, text)

deny contains {"id": "network.metadata", "msg": msg} if {
	input.agentjail.urls[0]
	some url in fetched_url
	mentions_encoded_ip(url)
	url_host(url) in metadata_ip_forms
	msg := sprintf("Blocked: %s is the cloud metadata endpoint written another way; it hands out this machine's cloud credentials.", [url])
}

deny contains {"id": "network.metadata", "msg": msg} if {
	mentions_encoded_ip(input.agentjail.command)
	some cmd in commands
	not cmd.name in text_programs
	some a in cmd.args
	url_host(a) in metadata_ip_forms
	msg := sprintf("Blocked: `%s` reaches the cloud metadata endpoint written another way (%s); it hands out this machine's cloud credentials.", [cmd.name, a])
}

# fetched_url: a URL in any field of a tool that is not a shell (WebFetch,
# an MCP fetch or browser tool): the daemon lists them in
# input.agentjail.urls. Rules over it start with input.agentjail.urls[0],
# which OPA's rule index answers without entering them.
fetched_url contains u if {
	not input.agentjail.commands
	some u in input.agentjail.urls
}

# --- exposing local ports ----------------------------------------------

ask contains {"id": "network.expose_port", "msg": msg} if {
	"tunnel" in input.agentjail.kinds
	some cmd in commands
	exposes_port(cmd)
	msg := sprintf("`%s` exposes a port of this machine to another host or the internet; the user has to approve it.", [full_text(cmd)])
}

exposes_port(cmd) if {
	cmd.name in {"ssh", "autossh"}
	has_flag(cmd, {"R"})
}

exposes_port(cmd) if {
	cmd.name in {"ssh", "autossh"}
	some v in option_values(cmd, {"-o"})
	regex.match(`(?i)^(RemoteForward|GatewayPorts)`, v)
}

exposes_port(cmd) if {
	cmd.name == "ngrok"
	positional(cmd)[0] in {"http", "tcp", "tls", "start", "tunnel"}
}

exposes_port(cmd) if {
	cmd.name == "cloudflared"
	"tunnel" in positional(cmd)
	not positional(cmd)[1] in {"list", "info", "login"}
}

exposes_port(cmd) if cmd.name in {"lt", "localtunnel", "bore", "frpc"}

# Tunnels inside DNS or ICMP, a covert way in and out (T1572, T1071.004).
exposes_port(cmd) if {
	cmd.name in covert_tunnels
	count(cmd.args) > 0
	not has_flag(cmd, {"version", "help", "V", "h"})
}

covert_tunnels := {"iodine", "iodined", "dnscat", "dnscat2", "dns2tcpc", "dns2tcpd", "ptunnel", "ptunnel-ng", "hans", "icmptunnel", "icmpsh"}

# The same tunnels started by a package runner (npx localtunnel).
exposes_port(cmd) if {
	some words in runs_tool(cmd)
	words[0] in {"lt", "localtunnel", "bore", "untun", "ngrok"}
}

# chisel's reverse remotes (R:...) open a port on the other side.
exposes_port(cmd) if {
	cmd.name == "chisel"
	positional(cmd)[0] == "client"
	some a in cmd.args
	startswith(a, "R:")
}

exposes_port(cmd) if {
	cmd.name == "chisel"
	positional(cmd)[0] == "server"
	has_flag(cmd, {"reverse"})
}

exposes_port(cmd) if {
	cmd.name == "tailscale"
	positional(cmd)[0] == "funnel"
}

# --- pushes to ad-hoc remotes ------------------------------------------

adhoc_remote := `^([a-z+]+://|[A-Za-z0-9._-]+@[A-Za-z0-9._-]+:|[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}[:/])`

ask contains {"id": "network.push_url", "msg": msg} if {
	"git" in input.agentjail.names
	some cmd in commands
	cmd.name == "git"
	pos := positional(cmd)
	pos[0] == "push"
	count(pos) > 1
	regex.match(adhoc_remote, pos[1])
	msg := sprintf("`git push %s` sends the repository to a URL that is not one of its configured remotes; the user has to approve it.", [pos[1]])
}
