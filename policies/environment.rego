package agentjail

# The environment: printing every variable, or one whose name says it
# holds a secret, puts tokens in the agent's transcript (ask: a developer
# sometimes needs to see it). Using a variable (curl -H "Bearer $TOKEN")
# is not printing it. /proc/*/environ stays denied (secrets.rego).

# secret_var_pattern matches the name of a variable that holds a secret.
secret_var_pattern := `(?i)(token|secret|passw(or)?d|passphrase|api_?key|access_?key|private_?key|credential|session_?key|auth_?key|signing_?key|client_?secret|_pat$|^database_url$|_dsn$|conn(ection)?_?str(ing)?|cookie|webhook_url)`

# secret_var_refs(s) are the names of the variables s expands: $NAME,
# ${NAME}, ${NAME:-x}, ${!NAME}.
secret_var_refs(s) := {name |
	contains(s, "$")
	some m in regex.find_all_string_submatch_n(`\$\{?!?([A-Za-z_][A-Za-z0-9_]*)`, s, -1)
	name := m[1]
	regex.match(secret_var_pattern, name)
}

# The whole environment: these print every variable when given no operand.
env_listers := {"env", "printenv", "export", "set", "declare", "typeset"}

ask contains {"id": "env.dump", "msg": msg} if {
	"envdump" in input.agentjail.kinds
	some cmd in commands
	dumps_environment(cmd)
	not output_hidden(cmd)
	msg := sprintf("`%s` prints every environment variable, tokens and keys included; the user has to approve it. Print only the variables you need by name (printenv PATH).", [full_text(cmd)])
}

# The environment of a container or a deployed app, printed from here:
# docker exec api env, kubectl exec pod -- printenv, docker inspect
# --format '{{.Config.Env}}', heroku config. It holds the service's
# database passwords and API keys as much as the local one holds the
# user's. A named variable that does not look like a secret stays
# allowed (kubectl exec pod -- printenv NODE_ENV).
#
# remote_env_programs are the programs remote_env_dump knows (the
# container runners, heroku); their group narrows the rule's "infra"
# gate, so helm, terraform or aws never enter it. The sets in the
# definitions are written out: a table rule costs every call that
# consults it its evaluation.
remote_env_programs := {"docker", "podman", "nerdctl", "kubectl", "oc", "docker-compose", "lima", "colima", "heroku"}

program_group contains [prog, "remote_env"] if some prog in remote_env_programs

ask contains {"id": "env.dump", "msg": msg} if {
	"infra" in input.agentjail.kinds
	"remote_env" in input.agentjail.kinds
	some cmd in commands
	remote_env_dump(cmd)
	msg := sprintf("`%s` prints the environment of a container or a deployed app, its passwords and keys included; the user has to approve it. Print only the variable you need by name.", [full_text(cmd)])
}

# The exec forms are one definition, so a container command that is not
# an exec enters it once rather than once per form.
remote_env_dump(cmd) if {
	cmd.name in {"docker", "podman", "nerdctl", "kubectl", "oc", "docker-compose", "lima", "colima"}
	"exec" in cmd.args
	execs_env_dump(cmd)
}

execs_env_dump(cmd) if {
	n := count(cmd.args)
	cmd.args[n - 1] in {"env", "printenv", "set", "export"}
}

execs_env_dump(cmd) if {
	n := count(cmd.args)
	n > 1
	cmd.args[n - 2] == "printenv"
	regex.match(secret_var_pattern, cmd.args[n - 1])
}

# docker exec api sh -c 'env' and the like: the last word is a command line.
execs_env_dump(cmd) if {
	n := count(cmd.args)
	n > 2
	cmd.args[n - 2] == "-c"
	regex.match(`^\s*(env|printenv|export -p|set)\s*(\||;|$)`, cmd.args[n - 1])
}

remote_env_dump(cmd) if {
	cmd.name in {"docker", "podman", "nerdctl"}
	some a in cmd.args
	contains(a, ".Env") # before the positional words, which cost more
	positional(cmd)[0] in {"inspect", "container"}
}

remote_env_dump(cmd) if {
	cmd.name == "heroku"
	heroku_env_dump(cmd)
}

heroku_env_dump(cmd) if {
	positional(cmd)[0] == "config"
	not has_flag(cmd, {"help", "h"})
}

heroku_env_dump(cmd) if {
	positional(cmd)[0] == "config:get"
	some a in array.slice(positional(cmd), 1, 10)
	regex.match(secret_var_pattern, a)
}

remote_env_dump(cmd) if {
	cmd.name in {"kubectl", "oc"}
	"set" in cmd.args # before the positional words, which cost more
	positional(cmd)[0] == "set"
	positional(cmd)[1] == "env"
	has_flag(cmd, {"list"})
}

dumps_environment(cmd) if {
	cmd.name in {"env", "printenv"}
	count(cmd.operands) == 0
	not has_flag(cmd, {"u", "unset", "i", "ignore-environment", "C", "chdir", "S", "split-string"})
}

dumps_environment(cmd) if {
	cmd.name in {"export", "declare", "typeset"}
	count(cmd.operands) == 0
}

dumps_environment(cmd) if {
	cmd.name in {"export", "declare", "typeset"}
	has_flag(cmd, {"p", "x"})
	count(cmd.operands) == 0
}

dumps_environment(cmd) if {
	cmd.name == "set"
	count(cmd.args) == 0
}

dumps_environment(cmd) if {
	cmd.name == "compgen"
	has_flag(cmd, {"v", "e"})
}

# export -p, declare -x, a bare export: the shell parser keeps
# declarations out of the commands, so the command line is read.
ask contains {"id": "env.dump", "msg": msg} if {
	input.agentjail.tool_kind == "shell" # written out: cheaper than consulting shell_call
	text := input.agentjail.command
	is_string(text)
	regex.match(`(^|[;&|(]\s*)(export|declare|typeset|readonly)(\s+-[a-zA-Z]*[px][a-zA-Z]*)*\s*($|[;&|)])`, text)
	msg := "`export -p`/`declare -x` prints every exported variable, tokens and keys included; the user has to approve it. Print only the variables you need by name (printenv PATH)."
}

# ps e / ps eww / ps auxe: BSD-style options that add each process's
# environment to its line.
dumps_environment(cmd) if {
	cmd.name == "ps"
	some o in cmd.operands
	regex.match(`^[a-zA-Z]*e[a-zA-Z]*$`, o)
	not regex.match(`^-`, o)
	regex.match(`^[auxwejcfghlmnrsStTvZ]+$`, o)
}

ask contains {"id": "env.secret_variable", "msg": msg} if {
	"envdump" in input.agentjail.kinds
	some cmd in commands
	prints_variables(cmd)
	some a in cmd.args
	some name in secret_var_refs(a)
	not feeds_login
	msg := sprintf("`%s` prints $%s, which looks like a secret; the user has to approve it. Check that it is set with `test -n \"$%s\"` instead.", [cmd.name, name, name])
}

ask contains {"id": "env.secret_variable", "msg": msg} if {
	"envdump" in input.agentjail.kinds
	some cmd in commands
	cmd.name == "printenv"
	some o in cmd.operands
	regex.match(secret_var_pattern, o)
	not feeds_login
	msg := sprintf("`printenv %s` prints a variable that looks like a secret; the user has to approve it. Check that it is set with `test -n \"$%s\"` instead.", [o, o])
}

prints_variables(cmd) if cmd.name in {"echo", "printf", "print"}

# `echo "$TOKEN" | docker login --password-stdin` hands the secret to a
# login without showing it.
feeds_login if {
	some cmd in commands
	has_flag(cmd, {"password-stdin", "with-token", "password-file"})
}

# Interpreters that read the environment in their code string.
env_code_pattern := `os\.environ|os\.getenv|getenv\(|process\.env|\bENV\b|\$ENV\{|%ENV|ENVIRON|Deno\.env|System\.getenv|\$_ENV|\$_SERVER`

# Code that prints or serialises the whole environment.
env_dump_code_pattern := `os\.environ\s*($|[)},;]|\.(items|copy|keys|values)\()|dict\(\s*os\.environ|process\.env\s*($|[)},;])|Object\.(entries|keys|values)\(\s*process\.env|ENV\.(to_h|to_hash|each|inspect|to_a|keys|map|select)\b|p\s+ENV\b|print\s+ENV\b|for\s*\(\s*\w+\s+in\s+ENVIRON|%ENV\s*\)|keys\s*\(?\s*%ENV|Deno\.env\.toObject|getenv\(\s*\)|\$_ENV\s*\)|\$_SERVER\s*\)`

interpreters := {"python", "python2", "python3", "node", "ruby", "perl", "php", "bun", "deno", "awk", "gawk", "mawk", "jq"}

# code_args(cmd) are the words of an interpreter that hold its program.
code_args(cmd) := [a | some a in cmd.args; not startswith(a, "-")] if cmd.name in interpreters

ask contains {"id": "env.interpreter", "msg": msg} if {
	"envdump" in input.agentjail.kinds
	some cmd in commands
	some code in code_args(cmd)
	regex.match(env_code_pattern, code)
	reads_secret_env(code)
	msg := sprintf("This `%s` code prints the environment or a variable that looks like a secret; the user has to approve it. Read only the variables you need by name.", [cmd.name])
}

reads_secret_env(code) if regex.match(env_dump_code_pattern, code)

reads_secret_env(code) if {
	some m in regex.find_all_string_submatch_n(`(?:environ|getenv|env|ENV|ENVIRON)\s*(?:\[|\{|\.get\(|\(|\.)\s*['"]?([A-Za-z_][A-Za-z0-9_]*)`, code, -1)
	regex.match(secret_var_pattern, m[1])
}

# jq's $ENV / env hold the whole environment.
reads_secret_env(code) if regex.match(`^\s*(\$ENV|env)\s*$`, code)

# output_hidden(cmd): what cmd prints goes only to a consumer that counts
# lines, keeps the names, or filters for something that is not a secret
# (env | wc -l, env | cut -d= -f1, env | grep PATH).
output_hidden(cmd) if {
	some other in commands
	cmd.name in other.pipe_from
	hides_values(other)
}

hides_values(cmd) if cmd.name == "wc"

hides_values(cmd) if {
	cmd.name in {"grep", "egrep", "rg"}
	has_flag(cmd, {"c", "count", "q", "quiet", "silent"})
}

hides_values(cmd) if {
	cmd.name == "cut"
	option_value(cmd, {"-f", "--fields"}) == "1"
}

hides_values(cmd) if {
	cmd.name in {"grep", "egrep", "fgrep", "rg", "sort", "head", "tail", "cut", "sed", "awk", "less", "column", "uniq"}
	count(cmd.args) > 0
	not has_flag(cmd, {"v", "invert-match"})
	every a in cmd.args {
		not regex.match(secret_var_pattern, a)
		not regex.match(secret_search_pattern, a)
	}
}

hides_values(cmd) if cmd.name == "sort"
