package agentjail

# First version: a word-level look at each ;, &, | or newline separated
# part of the command. Shell-aware parsing replaces this.

deny contains {"id": "fs.rm_recursive_root_or_home", "msg": msg} if {
	some target in rm_recursive_targets
	target in catastrophic_rm_targets
	msg := sprintf("Blocked: deleting `%s` recursively would wipe your home directory or the whole system. Delete the specific files or folders inside the project instead.", [target])
}

# Targets of rm commands that delete recursively.
rm_recursive_targets contains trim(w, `"'`) if {
	input.tool_name == "Bash"
	regex.match(`(^|[^A-Za-z0-9_.-])rm\b`, input.tool_input.command) # cheap guard before splitting
	some part in regex.split(`[;&|\n()]+`, input.tool_input.command)
	words := [w | some w in split(trim_space(part), " "); w != ""]
	some i, program in words
	command_basename(program) == "rm"
	args := array.slice(words, i + 1, count(words))
	some flag in args
	rm_recursive_flag(flag)
	some w in args
	not startswith(w, "-")
}

rm_recursive_flag(flag) if regex.match(`^-[a-zA-Z]*[rR]`, flag)

rm_recursive_flag("--recursive")

command_basename(word) := base if {
	parts := split(trim_left(word, `\"'`), "/")
	base := trim_right(parts[count(parts) - 1], `"'`)
}

catastrophic_rm_targets := {
	"/", "/*", "~", "~/", "~/*", "$HOME", "$HOME/", "$HOME/*", "${HOME}", "${HOME}/", "${HOME}/*",
	derived_home, concat("", [derived_home, "/"]), concat("", [derived_home, "/*"]),
}

# derived_home is the user's home directory as the daemon resolved it.
derived_home := object.get(input, ["agentjail", "home"], "")
