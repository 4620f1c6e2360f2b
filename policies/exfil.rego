package agentjail

# Exfiltration and remote code: the environment sent to the network,
# downloads or decoded payloads run by a shell or an interpreter.

env_dumpers := {"env", "printenv", "set", "export", "declare", "compgen"}

deny contains {"id": "exfil.env_to_network", "msg": msg} if {
	"network" in input.agentjail.kinds
	some cmd in commands
	cmd.name in network_tools
	some src in array.concat(cmd.pipe_from, cmd.subst)
	src in env_dumpers
	msg := sprintf("Blocked: `%s | %s` sends your environment variables (tokens, keys) over the network. Send only the specific non-secret values needed.", [src, cmd.name])
}

deny contains {"id": "exfil.env_to_network", "msg": msg} if {
	"network" in input.agentjail.kinds
	some cmd in commands
	cmd.name in network_tools
	some r in cmd.redirects
	r.op == "<"
	regex.match(`^/proc/[^/]+/environ$`, r.path)
	msg := "Blocked: this sends a process environment (tokens, keys) over the network."
}

# Runs what arrives on its standard input or in a substituted file.
code_runners := {
	"sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish", "python", "python3", "python2", "perl",
	"ruby", "node", "php", "bun", "deno", "lua", "Rscript", "eval", "source", ".",
}

# reads_stdin(cmd): a shell or interpreter given no script file, no code
# string and no module to run (roles.rego: its "code" and "program"
# options; their values are not operands).
reads_stdin(cmd) if {
	count(cmd.operands) == 0
	not program_given(cmd)
}

program_given(cmd) if {
	row := object.get(program_roles, cmd.name, {})
	some f in cmd.flags
	f in array.concat(object.get(row, "code", []), object.get(row, "program", []))
}

reads_stdin(cmd) if cmd.operands[0] in {"-", "/dev/stdin"}

reads_stdin(cmd) if {
	cmd.name in shells
	has_flag(cmd, {"s"})
}

deny contains {"id": "remote.download_to_shell", "msg": msg} if {
	"download" in input.agentjail.kinds
	some cmd in commands
	cmd.name in code_runners
	reads_stdin(cmd)
	some src in cmd.pipe_from
	src in downloaders
	msg := sprintf("Blocked: `%s ... | %s` runs code straight from the network that nobody has reviewed. Download it to a file, show it to the user, and run it only if they agree.", [src, cmd.name])
}

deny contains {"id": "remote.download_to_shell", "msg": msg} if {
	"download" in input.agentjail.kinds
	some cmd in commands
	cmd.name in code_runners
	some src in cmd.subst
	src in downloaders
	msg := sprintf("Blocked: `%s` runs code fetched by `%s` that nobody has reviewed. Download it to a file, show it to the user, and run it only if they agree.", [cmd.name, src])
}

decoders := {"base64", "xxd", "uudecode", "openssl", "gunzip", "zcat", "gzip", "bzip2", "xz", "rev", "tr"}

decoder(name, cmd) if {
	name == "base64"
	has_flag(cmd, {"d", "D", "decode"})
}

decoder(name, _) if {
	name in decoders
	name != "base64"
}

deny contains {"id": "remote.decoded_to_shell", "msg": msg} if {
	"decode" in input.agentjail.kinds
	some cmd in commands
	cmd.name in code_runners
	reads_stdin(cmd)
	some i, src in cmd.pipe_from
	some other in commands
	other.name == src
	decoder(src, other)
	msg := sprintf("Blocked: `%s | %s` runs a hidden (encoded) payload. Decode it to a file and show it to the user first.", [src, cmd.name])
}

deny contains {"id": "remote.decoded_to_shell", "msg": msg} if {
	"decode" in input.agentjail.kinds
	some cmd in commands
	runs_code(cmd)
	some src in cmd.subst
	some other in commands
	other.name == src
	decoder(src, other)
	msg := sprintf("Blocked: `%s` runs a hidden (encoded) payload decoded by `%s`. Decode it to a file and show it to the user first.", [cmd.name, src])
}

# runs_code(cmd): cmd runs code it is given (or is itself computed).
runs_code(cmd) if cmd.name in code_runners

runs_code(cmd) if dynamic_program(cmd)

ask contains {"id": "shell.dynamic_code", "msg": msg} if {
	"shell" in input.agentjail.kinds
	some cmd in commands
	runs_dynamic_string(cmd)
	msg := sprintf("`%s` runs code that is only known when it runs ($VAR or $(...)); the user has to approve it. Write the commands out instead.", [concat(" ", array.concat([cmd.name], cmd.args))])
}

runs_dynamic_string(cmd) if {
	evaluates_string(cmd)
	count(cmd.subst) == 0 # eval $VAR: whatever the variable holds
}

# eval "$(cat payload)": code read from a file. (eval "$(ssh-agent -s)"
# and the like, which print shell setup, stay allowed.)
runs_dynamic_string(cmd) if {
	evaluates_string(cmd)
	some src in cmd.subst
	src in {"cat", "head", "tail", "less", "more", "xargs", "tr", "sed", "awk", "rev", "dd", "xclip", "pbpaste"}
}

evaluates_string(cmd) if {
	cmd.name == "eval"
	cmd.dynamic
}

evaluates_string(cmd) if {
	cmd.name in shells
	has_flag(cmd, {"c"})
	cmd.dynamic
}
