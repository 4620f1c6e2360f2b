package agentjail

# Code loaded into another program through its environment (ATT&CK
# T1574.006, T1218.015): a library preloaded into an installed app, an
# Electron app told to run as Node, a JVM or Node given an agent to load.
# The program then runs the code with its own identity and permissions
# (a signed app's keychain and privacy grants). A project's own binaries
# and tests under a sanitizer or a system library stay allowed.
#
# injection_variables: the variable, what it makes the program do, and
# when set, a pattern its value must match.
injection_variables := {
	"DYLD_INSERT_LIBRARIES": {"does": "loads a library into"},
	"LD_PRELOAD": {"does": "loads a library into"},
	"LD_AUDIT": {"does": "loads a library into"},
	"ELECTRON_RUN_AS_NODE": {"does": "runs JavaScript as Node inside", "value": `^[^0]`},
	"NODE_OPTIONS": {"does": "loads code into", "value": `(^|\s)(-r|--require|--import|--loader|--experimental-loader)[\s=]`},
	"JAVA_TOOL_OPTIONS": {"does": "loads an agent into", "value": `-javaagent:|-agentpath:`},
	"_JAVA_OPTIONS": {"does": "loads an agent into", "value": `-javaagent:|-agentpath:`},
}

# Libraries of the system or a package manager: preloading them is
# ordinary (jemalloc, a sanitizer's runtime).
system_library_pattern := `^(/usr/(local/)?lib(64|exec)?/|/lib(64)?/|/opt/homebrew/(lib|opt|Cellar)/|/usr/local/(opt|Cellar)/|/nix/store/)`

ask contains {"id": "code.app_injection", "msg": msg} if {
	regex.match(`DYLD_INSERT|LD_PRELOAD|LD_AUDIT|ELECTRON_RUN_AS_NODE|NODE_OPTIONS|JAVA_TOOL_OPTIONS|_JAVA_OPTIONS`, input.agentjail.command)
	some cmd in commands
	some k, v in object.union(object.get(cmd, "env", {}), object.get(cmd, "assigns", {}))
	row := injection_variables[k]
	regex.match(object.get(row, "value", "."), v)
	not injected_own(cmd, k, v)
	msg := sprintf("`%s=%s` %s %s, which then runs it as itself, with its own permissions; the user has to approve it.", [k, v, row.does, env_target(cmd)])
}

# injected_own: the project's own program, or a system library preloaded.
injected_own(cmd, _, _) if {
	contains(cmd.program, "/")
	in_project(local_path(cmd.program, cmd.cwd))
}

injected_own(_, k, v) if {
	k in preload_variables
	libs := preloaded(v)
	count(libs) > 0
	every lib in libs {
		regex.match(system_library_pattern, lib)
	}
}

# A library the project builds, preloaded into a program that is not an
# installed app (a test under a sanitizer or a fake clock).
injected_own(cmd, k, v) if {
	k in preload_variables
	libs := preloaded(v)
	count(libs) > 0
	every lib in libs {
		in_project(local_path(lib, cmd.cwd))
	}
	not regex.match(`(^|/)(Applications/|[^/]+\.app/)|^/(opt|snap)/`, cmd.program)
}

# A module or agent the project has (--require ./test/setup.js,
# -javaagent:build/agent.jar) or a package by its name (-r
# ts-node/register) loaded into a program that is not an installed app.
injected_own(cmd, k, v) if {
	k in {"NODE_OPTIONS", "JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS"}
	loaded := {x | some m in regex.find_all_string_submatch_n(`(?:(?:-r|--require|--import|--loader|--experimental-loader)[\s=]+|-javaagent:|-agentpath:)['"]?([^\s'"=]+)`, v, 8); x := m[1]}
	count(loaded) > 0
	every l in loaded {
		project_module(l, cmd.cwd)
	}
	not regex.match(installed_app_pattern, cmd.program)
}

# project_module(l, cwd): a package by its name, or a file in the project.
project_module(l, _) if not regex.match(`^[/~.]`, l)

project_module(l, cwd) if in_project(local_path(l, cwd))

preload_variables := {"LD_PRELOAD", "DYLD_INSERT_LIBRARIES", "LD_AUDIT"}

preloaded(v) := [l | some l in regex.split(`[: ]+`, v); l != ""]

# Chromium's and Electron's switches that run a command of the caller's
# in the app's place, or open a debugger that runs any code in it (and
# reads its cookies), on an installed app. node --inspect of the
# project's own code stays free.
chromium_exec_switch := `^--(gpu-launcher|renderer-cmd-prefix|utility-cmd-prefix|ppapi-plugin-launcher|browser-subprocess-path|plugin-launcher)=`

chromium_debug_switch := `^--(inspect(-brk)?|remote-debugging-port|remote-debugging-pipe)(=|$)`

installed_app_pattern := `(^|/)(Applications/|[^/]+\.app/)|^/(opt|snap|usr/share|usr/lib)/|^/usr/bin/(google-chrome|chromium|brave|microsoft-edge|code|slack|discord|teams|signal-desktop|1password)`

ask contains {"id": "code.app_injection", "msg": msg} if {
	regex.match(`--(gpu-launcher|renderer-cmd-prefix|utility-cmd-prefix|ppapi-plugin-launcher|browser-subprocess-path|plugin-launcher)=`, input.agentjail.command)
	some cmd in commands
	some a in cmd.args
	regex.match(chromium_exec_switch, a)
	msg := sprintf("`%s` makes %s run a command of its own in the app's place (%s); the user has to approve it.", [clip_text(full_text(cmd)), cmd.program, a])
}

ask contains {"id": "code.app_injection", "msg": msg} if {
	regex.match(`--(inspect|remote-debugging)`, input.agentjail.command)
	some cmd in commands
	regex.match(installed_app_pattern, cmd.program)
	some a in cmd.args
	regex.match(chromium_debug_switch, a)
	msg := sprintf("`%s` opens a debugger into an installed app: whoever connects runs code in it and reads its sessions. The user has to approve it.", [clip_text(full_text(cmd))])
}
