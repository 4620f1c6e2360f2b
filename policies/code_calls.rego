package agentjail

# What an interpreter's code does through its libraries, judged by the
# calls the code makes whatever language it is in: code fetched from
# the network and run (exec(urlopen(u).read()), fetch(u).then(eval)),
# code decoded and run (exec(base64.b64decode(...)), eval
# Buffer.from(x, 'base64')), and library calls that reach secrets or
# destroy cloud data (browser_cookie3, keyring.get_password, boto3's
# objects.all().delete()). The shell commands code runs (os.system,
# backticks, exec "sh", "-c", ...) are parsed and judged as commands
# by the daemon (code_apis in roles.rego); these are the effects no
# command shows.
#
# code_effects: one row per effect. A row:
#   all      regular expressions the code must all match
#   effect   what the message says the code does
#   rule     the rule that judges it (code.fetch_run, code.decode_run,
#            code.secret_read, code.cloud_destroy, code.cloud_credential,
#            collection.recording, system.fork_bomb, system.timestomp,
#            remote.bare_address_fetch, network.attack_tool)
# A user's policy adds rows with `code_effect contains {...}`.
code_effects := array.concat(core_code_effects, [r | some r in code_effect])

code_effect contains row if {
	some row in []
}

# Calls that run a string as code, in the common languages (a method of
# the same name, model.eval() or re.exec(), is not one).
_run_string := `(^|[^\w.])exec\s*\(|(^|[^\w.])eval\s*[\(\)\s"'$,]|\bnew\s+Function\s*\(|(^|[^\w.])Function\s*\(|(^|[^\w.])load(string)?\s*\(|\binstance_eval\b|\bclass_eval\b|\bpickle\.loads?\s*\(|\bmarshal\.loads\s*\(|\bdill\.loads?\s*\(|\bvm\.run\w*\s*\(|\brequire\s*\(\s*['"]data:|\bimport\s*\(\s*['"]data:`

# Calls that fetch from the network (a backtick runs its command in
# Ruby, Perl and PHP, and %x{} and qx() are written as backticks in
# their code_view).
_fetch := `\burlopen\s*\(|\brequests\.(get|post|request)\s*\(|\bhttpx\.(get|post)\s*\(|\burllib3?\b|\bfetch\s*\(|\bhttps?\.get\s*\(|\baxios\b|\bURI\.open\b|\bopen-uri\b|\bNet::HTTP\b|\bURI\s*\(\s*['"]https?:|LWP::|\bgetstore\s*\(|\bio\.popen\s*\(\s*["'](curl|wget)|\bHTTP::Tiny\b|\bget\s*\(\s*['"]https?://|\bfile_get_contents\s*\(\s*['"]https?://|\bcurl_exec\b|\bsocket\.(http|url)\b|\bio\.popen\s*\(\s*['"](curl|wget)\b|\bhttp\.request\b|\bBun\.fetch\b|\x60\s*(curl|wget)\s`

# Calls that decode a payload.
_decode := `\bb64decode\s*\(|\bb32decode\s*\(|\ba85decode\s*\(|\bbase64\.decodebytes\s*\(|\bzlib\.decompress\s*\(|\bgzip\.decompress\s*\(|\blzma\.decompress\s*\(|\bbz2\.decompress\s*\(|\bbytes\.fromhex\s*\(|\bbinascii\.(unhexlify|a2b_\w+)\s*\(|\bcodecs\.decode\s*\(|\bdecode_base64\s*\(|\bpack\s*\(\s*['"]H\*|\bBuffer\.from\s*\([^)]*['"](base64|hex)['"]|\batob\s*\(|\bBase64\.(decode64|strict_decode64|urlsafe_decode64)\b|\bunpack1?\s*\(\s*['"]m|\bbase64_decode\s*\(|\bgzinflate\s*\(|\bstr_rot13\s*\(|\bString\.fromCharCode\s*\(|\bchr\s*\(\s*\d+\s*\)\s*\+\s*chr`

# Calls that hand a value (not a literal the daemon can read) to a shell:
# os.execute(h:read("*a")), os.system(body), execSync(text).
_shell_of_value := `\b(os\.execute|os\.system|os\.popen|io\.popen|execSync|shell_exec|passthru)\s*\(\s*[A-Za-z_][\w.:]*\s*[(:)]|(^|[^\w.])system\s*\(\s*[A-Za-z_$][\w.:]*\s*[(:)]|\bsubprocess\.\w+\s*\(\s*[A-Za-z_][\w.]*\s*[,)][^\n]*shell\s*=\s*True`

core_code_effects := [
	{"all": [_fetch, _shell_of_value], "effect": "fetches text from the network and hands it to a shell, so what runs is whatever the server sends", "rule": "code.fetch_run"},
	{"all": [`\b(urlretrieve|wget\.download|download_file|getstore|mirror)\s*\(\s*['"]https?://([0-9]{1,3}\.){3}[0-9]{1,3}[:/'"]`], "effect": "saves a file fetched from a bare address, a host with no name to check", "rule": "remote.bare_address_fetch"},
	{"all": [`\bSOCK_(DGRAM|RAW)\b|\bdgram\.createSocket\b|\bUDPSocket\b`, `\.(sendto|send)\s*\(`, `\bitertools\.count\b|while\s*\(?\s*(True|1|true)\b|for\s*\(\s*;\s*;\s*\)|\bloop\s*(do|\{)|setInterval\s*\(`], "effect": "sends packets to another host without end, a flood", "rule": "network.attack_tool"},
	{"all": [`\bos\.utime\s*\([^)]*,|\bFile\.utime\s*\(|\bfs\.(l|f)?utimes(Sync)?\s*\(|\bTouch::|\bsetLastModified\s*\(|\bset_file_times\b`], "effect": "sets a file's times by hand, which hides when it was changed", "rule": "system.timestomp"},
	{"all": [_fetch, _run_string], "effect": "fetches code from the network and runs it, so what runs is whatever the server sends", "rule": "code.fetch_run"},
	{"all": [_decode, _run_string], "effect": "decodes a hidden payload and runs it as code, so what runs cannot be read on the line", "rule": "code.decode_run"},
	{"all": [`\b(browser_cookie3|pycookiecheat|rookiepy)\b|Cookies['"]?\s*\)|cookies\.sqlite|Login Data|logins\.json|key4\.db`], "effect": "reads a browser's cookies or saved passwords", "rule": "code.secret_read"},
	{"all": [`\bnet\.(connect|createConnection)\s*\(|require\s*\(\s*["'](net|tls)["']\s*\)[^;]*|\bsocket\.(connect|create_connection)\b|\.connect\s*\(\s*\(?\s*["'][0-9]|require\s*\(\s*["']socket["']\s*\)|\bTCPSocket\.(new|open)\b|\bIO::Socket::INET\b|\bfsockopen\s*\(|\bsocket\.tcp\s*\(`, `child_process|\bspawn\s*\(|/bin/(ba|z|da)?sh\b|\bio\.popen\s*\(|\bos\.execute\s*\(|\bsubprocess\b|\bpty\.spawn\b|\bexec\s*\(|\bsystem\s*\(`], "effect": "connects to another host and runs what it sends in a shell (a reverse shell)", "rule": "code.fetch_run"},
	{"all": [`/proc/(\{|\$|%|[0-9]+/|['"]\s*[+.,])[^\n]{0,40}\b(mem|environ)\b`], "effect": "reads another process's memory or environment, where its tokens and keys are", "rule": "code.secret_read"},
	{"all": [`\bkeyring\.(get_password|get_credential)\s*\(|\bsecretstorage\b|\bSecKeychain\w*|\bkeytar\.(getPassword|findCredentials)\b|\bSecret\.password_lookup`], "effect": "reads a password out of the system keyring", "rule": "code.secret_read"},
	{"all": [`\bpynput\b|\bkeyboard\.(on_press|on_release|hook|record|read_key|read_event)\b|\bevdev\b|\bImageGrab\.grab\b|\bpyautogui\.screenshot\b|\bmss\.mss\s*\(|\bcv2\.VideoCapture\s*\(\s*\d|\bsounddevice\.rec\b|\bgetUserMedia\b|\bdesktopCapturer\b|\bscreenshot-desktop\b|\bnode-record-lpcm16\b`], "effect": "records the screen, the camera, the microphone or the keys the user presses", "rule": "collection.recording"},
	{"all": [`\bos\.fork\s*\(|\bfork\b`, `while\s+(True|1)\b|while\s*\(\s*(1|true)\s*\)|\biter\s*\(\s*int\s*,\s*1\s*\)|\bitertools\.count\b|for\s*\(\s*;\s*;\s*\)|\bfork\b[^;\n]*\bwhile\b|\bloop\s*(do|\{)`, `\bos\.fork\s*\(\s*\)|\bfork\s*(\(\s*\))?\s*(while|;|\}|$)|\bProcess\.fork\b`], "effect": "forks without end until the machine stops answering", "rule": "system.fork_bomb"},
	{"all": [`\bboto3\b`, `\.objects\.all\(\)\.delete\(|\.delete_objects\s*\(|\.delete_bucket\s*\(|\.terminate_instances\s*\(|\.delete_db_(instance|cluster)\s*\(|\.delete_stack\s*\(|\.delete_table\s*\(|\.delete_function\s*\(|\.object_versions\.(all\(\)\.)?delete\(|\.delete_(secret|parameter|key_pair|snapshot|volume|user|role)\s*\(`], "effect": "deletes cloud resources or data through the AWS library", "rule": "code.cloud_destroy"},
	{"all": [`\bgoogle\.cloud\b|\bazure\.`, `\.delete\s*\(|\.delete_blobs?\s*\(|\.begin_delete\s*\(`], "effect": "deletes cloud resources or data through the cloud's library", "rule": "code.cloud_destroy"},
	{"all": [`\bboto3\b`, `\.create_access_key\s*\(|\.create_login_profile\s*\(|\.get_session_token\s*\(|\.assume_role\s*\(|\.get_secret_value\s*\(`], "effect": "mints or prints a cloud credential through the AWS library", "rule": "code.cloud_credential"},
]

# code_programs: interpreters whose code, given on the line or on
# standard input, is read for these effects.
code_programs := {
	"python", "python2", "python3", "pypy3", "node", "nodejs", "deno", "bun", "ruby", "irb", "perl", "php", "lua", "luajit",
	"lua5.1", "lua5.2", "lua5.3", "lua5.4",
	"tclsh", "Rscript", "julia", "osascript", "pwsh", "powershell",
}

program_group contains [prog, "code_run"] if some prog in code_programs

# code_text(cmd): the code cmd runs from the line: its arguments, any
# here-document, and the parsed view of its calls (code_view: names
# resolved, constant strings computed) where its language has a parser.
code_text(cmd) := concat("\n", array.concat(
	array.concat(code_words(cmd), [r.target | some r in cmd.redirects; r.op in {"<<", "<<-", "<<<"}]),
	object.get(cmd, "code_view", []),
))

# deno's subcommand is not code: `deno eval CODE` does not call eval.
code_words(cmd) := array.slice(cmd.args, 1, count(cmd.args)) if {
	cmd.name == "deno"
	cmd.args[0] == "eval"
} else := cmd.args

code_hits contains [row.rule, row.effect, cmd.name] if {
	"code_run" in input.agentjail.kinds
	some cmd in commands
	cmd.name in code_programs
	text := code_text(cmd)
	some row in code_effects
	every re in row.all {
		regex.match(re, text)
	}
}

deny contains {"id": "code.fetch_run", "msg": msg} if {
	"code_run" in input.agentjail.kinds # answered by the rule index
	some ["code.fetch_run", what, name] in code_hits
	msg := sprintf("Blocked: this %s code %s. Download it to a file, show it to the user, and run it only if they agree.", [name, what])
}

deny contains {"id": "code.decode_run", "msg": msg} if {
	"code_run" in input.agentjail.kinds # answered by the rule index
	some ["code.decode_run", what, name] in code_hits
	msg := sprintf("Blocked: this %s code %s. Write the code out plainly so it can be judged.", [name, what])
}

deny contains {"id": "code.secret_read", "msg": msg} if {
	"code_run" in input.agentjail.kinds # answered by the rule index
	some ["code.secret_read", what, name] in code_hits
	msg := sprintf("Blocked: this %s code %s. Ask the user for the value you need.", [name, what])
}

deny contains {"id": "system.fork_bomb", "msg": msg} if {
	"code_run" in input.agentjail.kinds # answered by the rule index
	some ["system.fork_bomb", what, name] in code_hits
	msg := sprintf("Blocked: this %s code %s. Run a bounded number of processes.", [name, what])
}

ask contains {"id": "collection.recording", "msg": msg} if {
	"code_run" in input.agentjail.kinds # answered by the rule index
	some ["collection.recording", what, name] in code_hits
	msg := sprintf("This %s code %s; the user has to approve it.", [name, what])
}

ask contains {"id": "network.attack_tool", "msg": msg} if {
	"code_run" in input.agentjail.kinds # answered by the rule index
	some ["network.attack_tool", what, name] in code_hits
	msg := sprintf("This %s code %s; the user has to approve it, and only for systems they own or may test.", [name, what])
}

ask contains {"id": "remote.bare_address_fetch", "msg": msg} if {
	"code_run" in input.agentjail.kinds # answered by the rule index
	some ["remote.bare_address_fetch", what, name] in code_hits
	msg := sprintf("This %s code %s; the user has to approve it.", [name, what])
}

ask contains {"id": "system.timestomp", "msg": msg} if {
	"code_run" in input.agentjail.kinds # answered by the rule index
	some ["system.timestomp", what, name] in code_hits
	msg := sprintf("This %s code %s; the user has to approve it.", [name, what])
}

ask contains {"id": "code.cloud_destroy", "msg": msg} if {
	"code_run" in input.agentjail.kinds # answered by the rule index
	some ["code.cloud_destroy", what, name] in code_hits
	msg := sprintf("This %s code %s; the user has to approve it.", [name, what])
}

deny contains {"id": "code.cloud_credential", "msg": msg} if {
	"code_run" in input.agentjail.kinds # answered by the rule index
	some ["code.cloud_credential", what, name] in code_hits
	msg := sprintf("Blocked: this %s code %s; it would land in the transcript and outlive the task. Use the credentials already configured.", [name, what])
}
