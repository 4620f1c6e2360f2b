package agentjail

# What programs do with files beyond their plain operands (in the spirit
# of GTFOBins' file-read, file-write and upload functions): the table the
# daemon's parser reads into each command's reads and writes, and that
# the rules over credentials read another way (exfil.rego) and over
# written places (persistence.rego, autorun.rego, ...) judge.

# --- what programs do with files ---------------------------------------

# file_functions: for each program, its functions that read a file the
# user did not hand it as an ordinary operand.
#
#   read_prefixes prefixes of words that name a local file it reads
#                 (curl file://PATH, socat FILE:PATH)
#   sql_reads     its SQL reads files named in quotes (LOAD DATA LOCAL
#                 INFILE '/x', pg_read_file('/x'), COPY t FROM '/x')
#   read_options  options whose value is a file it reads and may print
#                 (ssh -F echoes the lines it cannot parse)
#   script_reads  dot-commands whose first word is a file it reads
#                 (sqlite3 '.import FILE t', '.read FILE')
#   upload        options whose value is a file or body it sends
#   sends_stdin   it sends its standard input to the host it is given
#   writes        the files it writes (GTFOBins' file-write function), as
#                 the daemon's shell parser reads them into each command's
#                 writes (see shell.WriteRoles): "options" whose value is a
#                 file it writes (sort -o), "dirs" whose value is a folder
#                 it writes into (tar -C), "operands" it writes ("all",
#                 "first", "second", "last"), "when" flags without which
#                 it writes none of them (sed -i, tar -x), "args": patterns
#                 one of which an argument as written must match (defaults
#                 write, plutil -replace), "suffix" added to a written
#                 operand without it and "name_dir" for one given as a
#                 bare name (a defaults domain), "words": patterns
#                 over its arguments whose group 1 is a file it writes
#                 (sqlite3 ".output FILE", vim -c ":w FILE")
#
# Every rule over written places (persistence.rego, autorun.rego, ...)
# sees what the writes rows name, so a program added here is judged by
# all of them. A user's policy adds rows with
# `file_function contains [prog, row]`.
core_file_functions := {
	"curl": {"read_prefixes": ["file://"], "upload": ["-T", "--upload-file", "-d", "--data", "--data-binary", "--data-ascii", "--data-urlencode", "--json", "-F", "--form"], "writes": {"options": ["-o", "--output"]}},
	"wget": {"read_prefixes": ["file://"], "upload": ["--post-file", "--body-file"], "writes": {"options": ["-O", "--output-document", "-o", "--output-file", "-a", "--append-output"]}},
	"aria2c": {"read_prefixes": ["file://"]},
	"xh": {"upload": []},
	"ssh": {"read_options": ["-F"]},
	"scp": {"read_options": ["-F"], "writes": _writes_last},
	"sftp": {"read_options": ["-F"]},
	"autossh": {"read_options": ["-F"]},
	"litecli": {"script_reads": [".import", ".read", ".open"], "sql_reads": true},
	"mysql": {"sql_reads": true},
	"mariadb": {"sql_reads": true},
	"psql": {"sql_reads": true},
	"clickhouse-client": {"sql_reads": true},
	"du": {"read_options": ["--files0-from"]},
	"nc": {"sends_stdin": true},
	"ncat": {"sends_stdin": true},
	"netcat": {"sends_stdin": true},
	"socat": {"sends_stdin": true, "read_prefixes": ["FILE:", "OPEN:", "GOPEN:", "READLINE,history="]},
	"telnet": {"sends_stdin": true},
	# Writers of their operands.
	"tee": {"writes": _writes_all},
	"rm": {"writes": _writes_all},
	"unlink": {"writes": _writes_all},
	"truncate": {"writes": _writes_all},
	"shred": {"writes": _writes_all},
	"srm": {"writes": _writes_all},
	"dd": {"writes": _writes_all},
	"mv": {"writes": _writes_all},
	"ed": {"writes": _writes_all},
	"red": {"writes": _writes_all},
	"ex": {"writes": _writes_all},
	"cp": {"writes": _writes_last},
	"install": {"writes": _writes_last},
	"ln": {"writes": _writes_last},
	"rsync": {"writes": _writes_last},
	"ditto": {"writes": _writes_last},
	"sed": {"writes": _writes_in_place},
	"gsed": {"writes": _writes_in_place},
	"perl": {"writes": _writes_in_place},
	"ruby": {"writes": _writes_in_place},
	"uniq": {"writes": {"operands": "second"}},
	"sponge": {"writes": _writes_all},
	"dos2unix": {"writes": _writes_all},
	"unix2dos": {"writes": _writes_all},
	"mac2unix": {"writes": _writes_all},
	"shfmt": {"writes": {"operands": "all", "when": ["w", "write"]}},
	"split": {"writes": {"operands": "second"}},
	# Writers through an option or a script word.
	"sort": {"writes": {"options": ["-o", "--output"]}},
	"shuf": {"writes": {"options": ["-o", "--output"]}},
	"openssl": {"writes": {"options": ["-out", "-keyout"]}},
	"find": {"writes": {"options": ["-fprint", "-fprint0", "-fprintf", "-fls"]}},
	"patch": {"writes": {"options": ["-o", "--output"], "dirs": ["-d", "--directory"]}},
	"csplit": {"writes": {"options": ["-f", "--prefix"]}},
	"xxd": {"writes": {"operands": "second"}},
	"iconv": {"writes": {"options": ["-o", "--output"]}},
	"uudecode": {"writes": {"options": ["-o"]}},
	"base64": {"writes": {"options": ["-o", "--output"]}},
	"xh": {"writes": {"options": ["-o", "--output"]}},
	"http": {"upload": [], "writes": {"options": ["-o", "--output"]}},
	"https": {"upload": [], "writes": {"options": ["-o", "--output"]}},
	"sqlite3": {"script_reads": [".import", ".read", ".open", ".restore"], "sql_reads": true, "writes": _sql_writes},
	"sqlite": {"script_reads": [".import", ".read", ".open", ".restore"], "sql_reads": true, "writes": _sql_writes},
	"duckdb": {"script_reads": [".import", ".read", ".open"], "sql_reads": true, "writes": _sql_writes},
	"vim": {"writes": _vim_writes},
	"vi": {"writes": _vim_writes},
	"nvim": {"writes": _vim_writes},
	"gvim": {"writes": _vim_writes},
	# Unpackers, into a folder.
	"tar": {"writes": {"dirs": ["-C", "--directory"], "when": ["x", "extract", "get"], "bundled": true}},
	"gtar": {"writes": {"dirs": ["-C", "--directory"], "when": ["x", "extract", "get"], "bundled": true}},
	"bsdtar": {"writes": {"dirs": ["-C", "--directory"], "when": ["x", "extract"], "bundled": true}},
	"cpio": {"writes": {"dirs": ["-D", "--directory"], "when": ["i", "extract"]}},
	"unzip": {"writes": {"dirs": ["-d"]}},
	"7z": {"writes": {"dirs": ["-o"]}},
	"7za": {"writes": {"dirs": ["-o"]}},
	# macOS property lists and binaries, edited in place: a launch
	# agent's program, an app's environment (DYLD_INSERT_LIBRARIES), the
	# libraries a binary loads, its signature.
	"defaults": {"writes": {"operands": "second", "args": [`^(write|delete|import|rename)$`], "suffix": ".plist", "name_dir": "~/Library/Preferences"}},
	# git clone URL DIR writes the repository into DIR (a clone into an
	# editor's extensions folder installs an extension).
	"git": {"writes": {"operands": "last", "args": [`^clone$`]}},
	"plutil": {"writes": {"operands": "last", "args": [`^-(replace|insert|remove|convert|append)$`]}},
	"PlistBuddy": {"writes": {"operands": "last", "args": [`(?i)^\s*:?(set|add|delete|merge|import|clear|copy)\b`]}},
	"install_name_tool": {"writes": {"operands": "last"}},
	"codesign": {"writes": {"operands": "all", "args": [`^(-s|--sign|--remove-signature|-f|--force)$`]}},
	"vtool": {"writes": {"options": ["-output", "-o"]}},
}

_writes_all := {"operands": "all"}

_writes_last := {"operands": "last"}

_writes_in_place := {"operands": "all", "when": ["i", "in-place"]}

_sql_writes := {"words": [`(?m)^\s*\.(?:output|once|save)\s+(?:-\S+\s+)*(\S+)`, `(?i)\bvacuum\b[^;']*\binto\s+'([^']+)'`]}

# vim run with commands (-c, -s, -e) writes the files it opened, and any
# a :w command names; opened alone it is the user's editor.
_vim_writes := {"operands": "all", "when": ["c", "s", "e", "E"], "words": [`(?:^|\|)\s*[:+]*\s*(?:w|write|wq|x|xit|sav|saveas|up|update)!?\s+(?:>>\s*)?([^|\s]+)`]}

# file_writes: the writes rows, as the shell parser reads them
# (roles.rego's shell_roles).
file_writes := {prog: row.writes | some prog, row in file_functions; row.writes}

file_functions := object.union(core_file_functions, {pair[0]: pair[1] | some pair in file_function})

file_function contains pair if {
	some pair in []
}

# Every program of the table is in the "file_function" group, so rules
# over the table start with a test OPA's rule index answers.
program_group contains [prog, "file_function"] if {
	some prog, row in file_functions
	some key, _ in row
	key != "writes"
}
