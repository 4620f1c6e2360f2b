package agentjail

# What programs do with files, beyond what a rule over written paths
# already sees: file_functions.rego's table says which files each
# program writes (the daemon lists them in input.agentjail.writes, so
# persistence.rego's rules judge sort -o ~/.bashrc as they judge tee), and
# these rules cover what a list of written files cannot say: an archive
# unpacked into the home folder, and a program no table knows given a
# start-up file.

# --- archives unpacked or downloads saved into the home folder -------------

# Programs that write files into a folder given by an option (tar -C,
# unzip -d, wget -P).
program_group contains [prog, "unpack"] if {
	some prog, row in file_functions
	row.writes.dirs
}

# unpack_folder(p): a folder whose files run by themselves: the home
# (its start-up files, ~/.ssh), and the folders of start-up files and
# login services.
unpack_folder(p) if p == home

unpack_folder(p) if regex.match(`^(\.config|\.config/(systemd|systemd/user|autostart|fish|fish/conf\.d)|Library|Library/LaunchAgents)$`, home_rel(p))

ask contains {"id": "persist.unpack_home", "msg": msg} if {
	"unpack" in input.agentjail.kinds
	some cmd in commands
	file_functions[cmd.name].writes.dirs
	some p in cmd.writes
	unpack_folder(p)
	msg := sprintf("`%s` writes files it unpacks or downloads into %s, where they can replace start-up files that run in every shell or at login; the user has to approve it. Write them into a folder of the project or a temp folder and copy what is needed.", [cmd.name, pretty(p)])
}

# --- unknown programs on persistence places --------------------------------

# persistence_place(p): a file that runs by itself later: start-up files,
# login keys, login services.
persistence_place(p) if startup_file(p)

persistence_place(p) if base_name(p) in {"authorized_keys", "authorized_keys2"}

persistence_place(p) if regex.match(`^(Library/LaunchAgents|\.config/systemd/user|\.config/autostart)/`, home_rel(p))

# Programs known only to read, show or check the files they are given
# (GTFOBins' file-read function), and editors a person opens: none of
# them changes a start-up file it is given as an operand. Programs of
# any other table (roles, groups, file functions) are known too: what
# they write is in input.agentjail.writes.
file_readers := {
	"cat", "bat", "batcat", "less", "more", "most", "view", "head", "tail", "nl", "od", "xxd", "hexdump", "hd",
	"strings", "iconv", "diff", "colordiff", "delta", "cmp", "comm", "join", "paste", "fold", "fmt", "pr", "column",
	"rev", "tac", "base32", "base64", "zcat", "bzcat", "xzcat", "look", "grep", "egrep", "fgrep", "rg", "ag", "ack",
	"source", ".", "shellcheck", "shfmt", "wc", "stat", "ls", "file", "test", "[", "md5sum", "sha1sum", "sha256sum",
	"shasum", "cksum", "readlink", "realpath", "basename", "dirname", "echo", "printf", "tree", "lsattr", "getfacl",
	"code", "cursor", "subl", "mate", "open", "xdg-open", "nano", "pico", "emacs", "micro", "hx", "kate", "gedit",
	"chezmoi", "stow", "yadm", "git", "cd", "pushd", "touch", "chmod", "diff3", "sdiff", "vimdiff",
	"cut", "sort", "uniq", "awk", "sed", "jq", "yq", "tr", "plutil", "systemd-analyze", "xmllint",
	"desktop-file-validate", "ssh-keygen",
}

known_program(name) if name in file_readers

known_program(name) if program_roles[name]

known_program(name) if file_functions[name]

known_program(name) if program_groups[name]

known_program(name) if metadata_only(name)

ask contains {"id": "persist.unknown_program", "msg": msg} if {
	# The file names of persistence places, written out so that OPA's
	# rule index answers the test: most calls name none.
	strings.any_suffix_match(input.agentjail.unusual_paths, [
		".bashrc", ".bash_profile", ".bash_login", ".bash_logout", ".profile", ".zshrc", ".zprofile", ".zshenv", ".zlogin",
		".zlogout", ".kshrc", ".cshrc", ".tcshrc", ".inputrc", ".fish", "authorized_keys", "authorized_keys2", ".plist",
		".service", ".timer", ".desktop",
	])
	some p in input.agentjail.unusual_paths
	persistence_place(p)
	some cmd in commands
	p in cmd.paths
	not p in cmd.writes
	not known_program(cmd.name)
	not dynamic_program(cmd)
	msg := sprintf("`%s` is not a program agentjail knows, and it is given %s, which runs by itself later (in every new shell or at login); the user has to approve it. Read it with cat or grep, or tell the user the change to make.", [cmd.name, pretty(p)])
}
