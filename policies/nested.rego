package agentjail

# Commands inside other commands: programs that carry a command line and
# run it in a pod or container, on a VM or a fleet of hosts, on a cloud
# instance, on the Windows side of WSL, or here under injected secrets.
# Each row's "nested" says where the command starts and whether it runs
# elsewhere (remote: judged as `ssh HOST CMD` is) or on this machine
# (judged in full, as `bash -c CMD` is); the shell parser reads it
# (internal/shell/nested.go):
#
#   remote        runs in a container, a VM or on other hosts
#   syntax        "" words run as they are, "sh" one line for a shell,
#                 "cmd" or "powershell" a Windows shell's line
#   from          the operand (from 1, after the subcommand) it starts at
#   single        the operand at from alone is the command
#   after_dashes  the words after `--`
#   after         the rest after one of these operands (salt cmd.run)
#   options       options whose value is the command line
#   rest_options  options whose value and every word after it are
#   encoded       options whose value is base64 of UTF-16LE
#   lists         options whose value lists command lines ("commands")
#   gate          options that, when given, must have one of these
#                 values for `options` to hold a command (ansible -m)
#
# A row here is merged into the program's row in roles.rego (object.union
# merges objects key by key), so the program's other roles stay.

_in_pod := {"remote": true, "after_dashes": true}

_kube_nested := object.union(core_program_roles.kubectl, {"nested": _in_pod})

_kube_nested_rows := {"subcommands": {"exec": _kube_nested, "debug": _kube_nested, "run": _kube_nested, "attach": _kube_nested}}

# docker exec CTR CMD: the options that take a value, so that CTR and
# CMD are found past them.
_exec_values := ["e", "env", "u", "user", "w", "workdir", "detach-keys", "index"]

_container_exec := {"text": _exec_values, "use": ["env-file"], "nested": {"remote": true, "from": 2}}

_run_values := [
	"a", "attach", "add-host", "c", "cpu-shares", "cap-add", "cap-drop", "cgroup-parent", "cidfile", "cpus", "cpuset-cpus",
	"device", "dns", "e", "env", "entrypoint", "expose", "gpus", "group-add", "h", "hostname", "ip", "ipc", "l", "label",
	"label-file", "log-driver", "log-opt", "m", "memory", "memory-swap", "name", "network", "net", "network-alias", "p",
	"publish", "pid", "platform", "pull", "restart", "runtime", "security-opt", "shm-size", "stop-signal", "stop-timeout",
	"storage-opt", "sysctl", "tmpfs", "u", "user", "ulimit", "userns", "uts", "w", "workdir", "health-cmd", "service-ports",
]

_container_run_nested := object.union(_container_run, {"text": _run_values, "nested": {"remote": true, "from": 2}})

_compose_nested := {"subcommands": {
	"exec": _container_exec,
	"run": object.union(_container_run_nested, {"text": array.concat(_run_values, ["v", "volume"])}),
}}

_engine_nested := {"subcommands": {
	"exec": _container_exec,
	"run": _container_run_nested,
	"container": {"subcommands": {"exec": _container_exec, "run": _container_run_nested}},
	"compose": _compose_nested,
}}

program_role contains [prog, _kube_nested_rows] if some prog in {"kubectl", "oc"}

program_role contains [prog, _engine_nested] if some prog in {"docker", "podman", "nerdctl"}

program_role contains ["docker-compose", _compose_nested]

program_role contains ["podman-compose", _compose_nested]

# Fleets: ansible's ad-hoc command (the default module is command),
# salt's cmd.run, pdsh, clush and pssh.
_ansible_modules := [
	"command", "shell", "raw", "script", "win_shell", "win_command",
	"ansible.builtin.command", "ansible.builtin.shell", "ansible.builtin.raw", "ansible.builtin.script",
	"ansible.windows.win_shell", "ansible.windows.win_command",
]

program_role contains ["ansible", {"nested": {"remote": true, "syntax": "sh", "options": ["a", "args"], "gate": {"m": _ansible_modules, "module-name": _ansible_modules}}}]

program_role contains [prog, {
	"text": ["t", "timeout", "c", "config", "L", "list", "G", "grain", "N", "nodegroup", "out", "return", "batch-size", "b", "S", "range", "tgt-type"],
	"nested": {"remote": true, "syntax": "sh", "after": ["cmd.run", "cmd.shell", "cmd.run_all", "cmd.run_stdout", "cmd.run_stderr", "cmd.exec_code", "cmd.powershell"]},
}] if some prog in {"salt", "salt-ssh"}

program_role contains [prog, {"text": ["w", "x", "R", "l", "t", "u", "f", "g", "X", "N"], "nested": {"remote": true, "syntax": "sh", "from": 1}}] if some prog in {"pdsh", "clush"}

program_role contains [prog, {"text": ["h", "hosts", "H", "host", "l", "user", "p", "par", "o", "outdir", "e", "errdir", "t", "timeout", "O", "option", "x", "extra-args", "X", "extra-arg"], "nested": {"remote": true, "syntax": "sh", "from": 1}}] if some prog in {"pssh", "parallel-ssh"}

# Chef's knife ssh QUERY COMMAND runs COMMAND on every node the search
# finds; Fabric's fab -H HOSTS -- COMMAND on each host.
program_role contains ["knife", {"subcommands": {"ssh": {
	"text": ["x", "ssh-user", "P", "ssh-password", "p", "ssh-port", "i", "ssh-identity-file", "G", "ssh-gateway", "a", "attribute", "C", "concurrency", "c", "config", "u", "user", "k", "key", "s", "server-url", "E", "environment"],
	"nested": {"remote": true, "syntax": "sh", "from": 2, "single": true},
}}}]

program_role contains ["fab", {"text": ["H", "hosts", "R", "roles", "i", "identity", "u", "user", "S", "ssh-config", "f", "fabfile"], "nested": {"remote": true, "syntax": "sh", "after_dashes": true}}]

# Cloud control planes that run a command on an instance.
program_role contains ["aws", {"subcommands": {
	"ssm": {"subcommands": {"send-command": object.union(core_program_roles.aws, {"nested": {"remote": true, "syntax": "sh", "lists": ["parameters"]}})}},
	"ecs": {"subcommands": {"execute-command": object.union(core_program_roles.aws, {"nested": {"remote": true, "syntax": "sh", "options": ["command"]}})}},
}}]

_gcloud_ssh := object.union(core_program_roles.gcloud, {"nested": {"remote": true, "syntax": "sh", "options": ["command"]}})

program_role contains ["gcloud", {"subcommands": {
	"compute": {"subcommands": {"ssh": _gcloud_ssh}},
	"cloud-shell": {"subcommands": {"ssh": _gcloud_ssh}},
}}]

program_role contains ["az", {"subcommands": {"vm": {"subcommands": {"run-command": {"subcommands": {"invoke": object.union(core_program_roles.az, {"nested": {"remote": true, "syntax": "sh", "options": ["scripts"]}})}}}}}}]

program_role contains [prog, {"subcommands": {"ssh": {"subcommands": {"console": {"text": ["a", "app", "r", "region", "s", "select", "u", "user"], "nested": {"remote": true, "syntax": "sh", "options": ["C", "command"]}}}}}}] if some prog in {"fly", "flyctl"}

program_role contains ["heroku", {"subcommands": {"run": {"text": ["a", "app", "r", "remote", "s", "size", "e", "env", "type"], "nested": {"remote": true, "syntax": "sh", "from": 1}}}}]

program_role contains ["vagrant", {"subcommands": {"ssh": {"nested": {"remote": true, "syntax": "sh", "options": ["c", "command"]}}}}]

program_role contains ["multipass", {"subcommands": {"exec": {"text": ["d", "working-directory"], "nested": {"remote": true, "after_dashes": true, "from": 2}}}}]

program_role contains [prog, {"subcommands": {"exec": {"text": ["env", "cwd", "user", "group", "project"], "nested": {"remote": true, "after_dashes": true}}}}] if some prog in {"lxc", "incus"}

# Local runners: the command runs here with secrets in its environment,
# judged in full.
_here_after_dashes := {"nested": {"after_dashes": true, "options": ["command"]}}

program_role contains [prog, {"subcommands": {"run": object.union(_here_after_dashes, {"text": ["p", "project", "c", "config", "env", "path", "token", "projectId", "t"], "use": ["env-file"]})}}] if some prog in {"doppler", "infisical"}

program_role contains ["op", {"subcommands": {"run": {"use": ["env-file"], "text": ["account"], "nested": {"after_dashes": true}}}}]

program_role contains ["aws-vault", {"subcommands": {"exec": {"text": ["region", "duration", "d", "mfa-token", "t", "backend"], "nested": {"after_dashes": true, "from": 2}}}}]

program_role contains ["chamber", {"subcommands": {"exec": {"nested": {"after_dashes": true}}}}]

program_role contains ["railway", {"subcommands": {"run": {"text": ["s", "service", "e", "environment"], "nested": {"from": 1}}}}]

program_role contains ["dotenv", {"use": ["e"], "text": ["v", "c", "p"], "nested": {"after_dashes": true, "from": 1}}]

program_role contains ["dotenvx", {"subcommands": {"run": {"use": ["f", "env-file"], "nested": {"after_dashes": true}}}}]

program_role contains ["sops", {"subcommands": {"exec-env": {"nested": {"syntax": "sh", "from": 2}}}}]

# WSL: wsl.exe runs Linux commands here; cmd.exe and PowerShell run on
# the Windows side of this same machine.
program_role contains [prog, {"text": ["d", "distribution", "u", "user", "cd"], "nested": {"rest_options": ["e", "exec"], "after_dashes": true, "from": 1}}] if some prog in {"wsl", "wsl.exe"}

program_role contains [prog, {"nested": {"syntax": "cmd", "after": ["/c", "/C", "/k", "/K", "/r", "/R"]}}] if some prog in {"cmd", "cmd.exe"}

_powershell := {
	"text": ["executionpolicy", "ExecutionPolicy", "ep", "windowstyle", "WindowStyle", "w", "version", "inputformat", "outputformat", "configurationname", "workingdirectory", "wd"],
	"nested": {
		"syntax": "powershell",
		"from": 1,
		"rest_options": ["command", "c", "com", "comm", "comma", "comman"],
		"encoded": ["encodedcommand", "e", "ec", "en", "enc", "enco", "encodedc", "encoded"],
	},
}

program_role contains [prog, _powershell] if some prog in {"powershell", "powershell.exe", "pwsh", "pwsh.exe"}

# --- Windows shells reached from WSL ---------------------------------------
#
# The parser cuts a cmd.exe or PowerShell line into commands named in
# lower case, with Windows paths as WSL paths (C:\Users\x is
# /mnt/c/Users/x); the rules below judge what those commands do where the
# pack's Linux rules have no name for it.

windows_shells := {"powershell", "powershell.exe", "pwsh", "pwsh.exe", "cmd", "cmd.exe"}

program_group contains [prog, "windows_shell"] if some prog in windows_shells

# windows_commands are the commands a Windows shell in this call runs.
windows_commands contains cmd if {
	"windows_shell" in input.agentjail.kinds
	some cmd in input.agentjail.commands
	cmd.via in windows_shells
}

# ATT&CK T1059.001 + T1105: a script downloaded and run in one line
# (iex (iwr URL), IWR URL | IEX, IEX (New-Object Net.WebClient).DownloadString(URL)).
windows_runs_code := {"iex", "invoke-expression"}

windows_downloads := {"iwr", "invoke-webrequest", "irm", "invoke-restmethod", "curl", "wget", "start-bitstransfer", ".downloadstring", ".downloadfile", ".downloaddata", "certutil", "bitsadmin"}

deny contains {"id": "nested.windows_download_run", "msg": msg} if {
	"windows_shell" in input.agentjail.kinds
	some run in windows_commands
	run.name in windows_runs_code
	some dl in windows_commands
	windows_download(dl)
	msg := sprintf("Blocked: this PowerShell line downloads a script and runs it with `%s`, code nobody has reviewed. Download it to a file, show it to the user, and run it only if they agree.", [run.name])
}

windows_download(cmd) if cmd.name in windows_downloads

windows_download(cmd) if {
	cmd.name == "new-object"
	some a in cmd.args
	contains(lower(a), "webclient")
}

# ATT&CK T1562.001: Microsoft Defender switched off or told to skip
# folders, processes or file types.
deny contains {"id": "nested.windows_defender_off", "msg": msg} if {
	"windows_shell" in input.agentjail.kinds
	some cmd in windows_commands
	cmd.name in {"set-mppreference", "add-mppreference"}
	some a in cmd.args
	regex.match(`^-(disable|exclusion)`, lower(a))
	msg := sprintf("Blocked: `%s %s` turns off or narrows Microsoft Defender on the Windows side of this machine. Ask the user to change their antivirus settings themselves.", [cmd.name, a])
}

# ATT&CK T1485: a Windows drive, its Users or Windows folder, or a
# Windows profile deleted recursively (Remove-Item -Recurse, rd /s,
# del /s).
windows_deleters := {"remove-item", "ri", "rm", "rmdir", "rd", "del", "erase", "rmdir"}

deny contains {"id": "nested.windows_delete_tree", "msg": msg} if {
	"windows_shell" in input.agentjail.kinds
	some cmd in windows_commands
	cmd.name in windows_deleters
	some a in cmd.args
	regex.match(`^(-r|/s$)`, lower(a))
	some p in cmd.paths
	regex.match(`^/mnt/[a-z](/(Users(/[^/]+)?|Windows(/System32)?|Program Files( \(x86\))?|ProgramData))?$`, p)
	msg := sprintf("Blocked: `%s` deletes %s on the Windows side of this machine, a drive, its system or every file of a user. Delete only the specific files you created, inside the project.", [cmd.name, p])
}
