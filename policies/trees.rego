package agentjail

# Trees that hold secrets. A recursive search prints what it finds in
# every file below the folder it is given, whatever its pattern:
# `grep -r -A40 BEGIN ~` shows ~/.ssh/id_rsa, `rg --hidden key ~` the
# agents' login tokens. So a search of a folder that holds credential
# places (secret_holder, bulk_copy.rego) is a read of them, as a copy or
# an archive of it is (secrets.bulk_copy); a folder above one of the
# user's protected_paths is read like them. One that shows only names or
# counts (-l, -c, Grep's files_with_matches) reads nothing out, and a
# search of a project or one of its folders stays allowed. Searches for
# secret-looking text are denied by secrets.search_home; the jail keeps
# confined shell calls out of the credential places and protected_paths
# whatever they compute (jail.rego).

# tree_searchers: programs that search the contents of a folder's files,
# and how. recursive: the flags that make it descend ([] always does);
# names_only: the flags with which it shows only the names or counts of
# the files that match. A search given no folder searches where it runs.
tree_searchers := {
	"grep": _grep_tree, "egrep": _grep_tree, "fgrep": _grep_tree,
	"rg": {"recursive": [], "names_only": ["l", "c", "q", "files", "files-with-matches", "files-without-match", "count", "count-matches", "quiet", "type-list"]},
	"ag": {"recursive": [], "names_only": ["l", "L", "c", "g", "files-with-matches", "files-without-matches", "count", "list-file-types"]},
	"ack": {"recursive": [], "names_only": ["l", "L", "c", "f", "g", "files-with-matches", "files-without-matches", "count"]},
	"pt": {"recursive": [], "names_only": ["l", "L", "c", "g", "files-with-matches", "files-without-matches", "count"]},
	"ugrep": {"recursive": ["r", "R", "recursive", "dereference-recursive"], "names_only": ["l", "L", "c", "q", "files-with-matches", "files-without-match", "count", "quiet"]},
}

_grep_tree := {"recursive": ["r", "R", "recursive", "dereference-recursive"], "names_only": ["l", "L", "c", "q", "files-with-matches", "files-without-match", "count", "quiet", "silent"]}

# scanner_programs: programs that look for credentials in a folder and
# print the ones they find (trufflehog prints each secret whole).
scanner_programs := {"trufflehog", "gitleaks", "detect-secrets", "noseyparker", "ggshield", "whispers", "ripsecrets", "secretlint", "talisman", "kingfisher"}

program_group contains [prog, "tree_search"] if some prog, _ in tree_searchers

program_group contains [prog, "tree_search"] if some prog in scanner_programs

program_group contains ["git", "tree_search"]

# tree_search_roots(cmd): the folders cmd searches every file below.
tree_search_roots(cmd) := roots if {
	row := tree_searchers[cmd.name]
	searches_tree(cmd, row)
	not shows_names_only(cmd)
	roots := search_roots(cmd)
}

# git grep --no-index searches a folder as grep -r does; in a
# repository it searches only what git tracks there.
tree_search_roots(cmd) := roots if {
	cmd.name == "git"
	"grep" in cmd.args
	has_option(cmd, {"no-index"})
	not has_option(cmd, {"l", "L", "c", "q", "files-with-matches", "name-only", "files-without-match", "count", "quiet"})
	roots := {p | some p in cmd.paths; p != cmd.cwd} | {cmd.cwd | count(cmd.paths) == 0}
}

# shows_names_only(cmd): a search that shows only the names or counts of
# the files that match.
shows_names_only(cmd) if has_flag(cmd, {f | some f in tree_searchers[cmd.name].names_only})

searches_tree(_, row) if count(row.recursive) == 0

searches_tree(cmd, row) if has_flag(cmd, {f | some f in row.recursive})

# search_roots(cmd): the paths cmd names, or the folder it runs in.
search_roots(cmd) := {p | some p in cmd.paths} if count(cmd.paths) > 0

search_roots(cmd) := {cmd.cwd} if count(cmd.paths) == 0

ask contains {"id": "secrets.search_tree", "msg": msg} if {
	"tree_search" in input.agentjail.kinds
	some cmd in commands
	some p in tree_search_roots(cmd)
	secret_holder(p)
	msg := sprintf("`%s` searches every file under %s, which holds credentials (SSH and cloud keys, the agents' login tokens), and prints what matches there; the user has to approve it. Search the project, or give the folder you mean.", [cmd.name, shown(p)])
}

# A command run by find -exec gets every file under find's folders.
ask contains {"id": "secrets.search_tree", "msg": msg} if {
	"find" in input.agentjail.names
	some cmd in commands
	cmd.via == "find -exec"
	not metadata_only(cmd.name)
	some find in commands
	find.name == "find"
	some p in find.paths
	secret_holder(p)
	msg := sprintf("`find %s -exec %s` runs `%s` on every file under %s, which holds credentials (SSH and cloud keys, the agents' login tokens); the user has to approve it. Give the folder you mean.", [shown(p), cmd.name, cmd.name, shown(p)])
}

# Any agent's content search tool over such a folder, when it shows the
# lines that match.
ask contains {"id": "secrets.search_tree", "msg": msg} if {
	input.agentjail.tool == "search"
	input.agentjail.search.lines
	p := input.agentjail.file_path
	secret_holder(p)
	msg := sprintf("This search shows the matching lines of every file under %s, which holds credentials (SSH and cloud keys, the agents' login tokens); the user has to approve it. Search the project, or list only the names of the files that match.", [shown(p)])
}

# A secret scanner run over such a folder prints every secret it finds.
deny contains {"id": "secrets.search_home", "msg": msg} if {
	"tree_search" in input.agentjail.kinds
	some cmd in commands
	cmd.name in scanner_programs
	some p in search_roots(cmd)
	secret_holder(p)
	msg := sprintf("Blocked: `%s` over %s prints every key and token it finds there. Scan the project instead.", [cmd.name, shown(p)])
}

# protected_holder(p): the first of the user's protected_paths that p
# is a folder above (the path itself is judged by secrets.credentials).
protected_holder(p) := min(held) if {
	prefix := trim_suffix(p, "/")
	held := {q | some q in protected_paths; startswith(q, concat("", [prefix, "/"]))}
	count(held) > 0
}

# tree_reads: [program, folder] for each folder whose every file a
# command of the call reads: a search's, a copy's or an archive's
# sources, and what git add stages.
tree_reads contains [cmd.name, p] if {
	some cmd in commands
	some p in tree_search_roots(cmd)
}

tree_reads contains [cmd.name, p] if {
	some cmd in commands
	cmd.name in scanner_programs
	some p in search_roots(cmd)
}

tree_reads contains [cmd.name, p] if {
	some cmd in commands
	bulk_copiers[cmd.name]
	some p in bulk_sources(cmd)
}

tree_reads contains [cmd.name, p] if {
	some cmd in commands
	cmd.name == "git"
	"add" in cmd.args
	some p in cmd.paths
}

deny contains {"id": "secrets.protected_tree", "msg": msg} if {
	data.config.protected_paths[0]
	some [name, p] in tree_reads
	q := protected_holder(p)
	msg := sprintf("Blocked: `%s` reads every file under %s, and %s is in protected_paths in %s, so agents must not read, copy or change it. Give only the files you need, outside it.", [name, shown(p), shown(q), config_file])
}

deny contains {"id": "secrets.protected_tree", "msg": msg} if {
	data.config.protected_paths[0]
	some cmd in commands
	cmd.via == "find -exec"
	not metadata_only(cmd.name)
	some find in commands
	find.name == "find"
	some p in find.paths
	q := protected_holder(p)
	msg := sprintf("Blocked: `find %s -exec %s` reads every file under %s, and %s is in protected_paths in %s, so agents must not read, copy or change it.", [shown(p), cmd.name, shown(p), shown(q), config_file])
}

deny contains {"id": "secrets.protected_tree", "msg": msg} if {
	data.config.protected_paths[0]
	input.agentjail.tool == "search"
	input.agentjail.search.content
	p := input.agentjail.file_path
	q := protected_holder(p)
	msg := sprintf("Blocked: this search reads every file under %s, and %s is in protected_paths in %s, so agents must not read it. Search another folder.", [shown(p), shown(q), config_file])
}
