package agentjail

# Tests of self_files.rego: the cheap test every shell call meets first
# (names_guard_place), and that the protected-file rules behind it still
# find what they found before and nothing more. Paths arrive normalized
# (the daemon resolves ~, $HOME, .., // and trailing slashes); args keep
# the words as typed.

t_socket := "/run/user/1000/agentjail/agentjail.sock"

# t_with(ev, fields) is ev with more of input.agentjail: a socket, say.
t_with(ev, fields) := object.union(ev, {"agentjail": fields})

t_rm(words, paths) := t_bash([t_cmd("rm", array.concat(["-rf"], words), paths)])

# --- names_guard_place: found ------------------------------------------

test_guard_place_found_in_the_home if names_guard_place(["/home/dev/project/src", "/home/dev/.agentjail/policies/allow.rego"]) with input as t_bash([])

test_guard_place_found_for_the_home_itself if names_guard_place(["/home/dev/.agentjail"]) with input as t_bash([])

test_guard_place_found_for_agent_settings if {
	every p in [
		"/home/dev/.claude/settings.json",
		"/home/dev/project/.claude/settings.local.json",
		"/home/dev/.codex/config.toml",
		"/home/dev/.gemini/settings.json",
		"/home/dev/.cursor/hooks.json",
		"/home/dev/.copilot/config.json",
		"/home/dev/project/.github/hooks/guard.json",
		"/etc/claude-code/managed-settings.json",
		"/etc/claude-code/managed-settings.d/10-hooks.json",
		"/Library/Application Support/ClaudeCode/managed-settings.json",
		"/etc/gemini-cli/settings.json",
		"/Library/Application Support/GeminiCli/settings.json",
	] {
		claude_settings(p) with input as t_bash([])
		names_guard_place([p]) with input as t_bash([])
	}
}

test_guard_place_found_for_the_service if {
	every p in [
		"/home/dev/Library/LaunchAgents/dev.agentjail.agent.plist",
		"/home/dev/Library/LaunchAgents",
		"/home/dev/.config/systemd/user/agentjail.service",
		"/home/dev/.config/systemd",
		"/home/dev/.local/share/systemd/user/agentjail.service.d",
		"/Library/LaunchDaemons/dev.agentjail.plist",
		"/etc/systemd/user/agentjail.service",
	] {
		service_file(p) with input as t_bash([])
		names_guard_place([p]) with input as t_bash([])
	}
}

test_guard_place_found_for_a_glob if names_guard_place(["/home/dev/.agentj*"]) with input as t_bash([])

test_guard_place_found_in_a_configured_home if {
	ev := t_with(t_bash([]), {"agentjail_home": "/opt/guard"})
	names_guard_place(["/opt/guard/config.yaml"]) with input as ev
	names_guard_place(["/work/project/--state=/opt/guard/x"]) with input as ev
}

test_guard_place_found_in_a_policy_folder if names_guard_place(["/srv/policies/allow.rego"]) with input as t_bash([])
	with data.config.policy_dirs as ["/srv/policies"]

test_guard_place_found_for_the_socket_and_its_folder if {
	ev := t_with(t_bash([]), {"socket": t_socket})
	names_guard_place([t_socket]) with input as ev
	names_guard_place(["/run/user/1000/agentjail"]) with input as ev
	names_guard_place(["/home/dev/project/UNIX-LISTEN:/run/user/1000/agentjail/agentjail.sock,fork"]) with input as ev
}

test_guard_place_found_in_a_static_folder if {
	ev := t_with(t_bash([]), {"paths": ["/home/dev/project/x"], "prefixes": ["/home/dev/.claude"]})
	call_names_guard_place with input as ev
}

# --- names_guard_place: not found --------------------------------------

test_guard_place_not_found_for_ordinary_paths if {
	ev := t_with(t_bash([]), {"socket": t_socket, "agentjail_home": "/opt/guard"})
	not names_guard_place(["/home/dev/project/src", "/home/dev/project/-20", "/tmp/build/out.txt", "/home/dev/.ssh/id_rsa", "/run/user/1000/other.sock"]) with input as ev
	not names_guard_place([]) with input as ev
	not call_names_guard_place with input as t_with(ev, {"paths": ["/home/dev/project/src"], "prefixes": []})
}

test_guard_place_not_found_without_a_socket if not names_guard_place(["/run/user/1000/agentjail"]) with input as t_with(t_bash([]), {"socket": ""})

# protected_file keeps its exact places behind the cheap test.
test_protected_file_look_alikes_are_not_protected if {
	every p in ["/home/dev/.agentjail-notes", "/tmp/x/.agentjail", "/home/dev/project/.agentjail", "/home/dev/.claude-backup/notes.txt"] {
		not protected_file(p) with input as t_bash([])
	}
}

test_protected_file_home_and_inside if {
	protected_file("/home/dev/.agentjail") with input as t_bash([])
	protected_file("/home/dev/.agentjail/policies/allow.rego") with input as t_bash([])
}

# --- the shell rules, through the cheap test ----------------------------

test_rm_home_forms_denied if {
	every words in [["~/.agentjail/"], ["$HOME/.agentjail/policies/../policies"], ["/home/dev//.agentjail/policies/"], ["${HOME}/.agentjail"]] {
		t_denied("self.protected_file", t_rm(words, ["/home/dev/.agentjail/policies"]))
	}
}

test_rm_home_look_alikes_allowed if {
	not t_fired("self.protected_file", t_rm(["~/.agentjail-notes"], ["/home/dev/.agentjail-notes"]))
	not t_fired("self.protected_file", t_rm(["/tmp/x/.agentjail"], ["/tmp/x/.agentjail"]))
}

# A word that holds the home's full path counts, as it always has.
test_rm_word_holding_the_home_denied if t_denied("self.protected_file", t_rm(["/home/dev/.agentjail-notes"], ["/home/dev/.agentjail-notes"]))

test_read_only_on_the_home_allowed if not t_fired("self.protected_file", t_bash([t_cmd("cat", ["~/.agentjail/config.yaml"], ["/home/dev/.agentjail/config.yaml"])]))

test_ordinary_call_allowed if not t_fired("self.protected_file", t_bash([t_cmd("ls", ["-la", "./src"], ["/home/dev/project/src"])]))

test_socket_and_its_folder_denied if {
	t_denied("self.protected_file", t_with(t_rm([t_socket], [t_socket]), {"socket": t_socket}))
	t_denied("self.protected_file", t_with(t_rm(["/run/user/1000/agentjail/"], ["/run/user/1000/agentjail"]), {"socket": t_socket}))
	not t_fired("self.protected_file", t_with(t_rm(["/run/user/1000/agentjail-old"], ["/run/user/1000/agentjail-old"]), {"socket": t_socket}))
}

test_socket_inside_a_word_denied if {
	cmd := t_cmd("socat", ["UNIX-LISTEN:/run/user/1000/agentjail/agentjail.sock,fork", "EXEC:/bin/true"], ["/home/dev/project/UNIX-LISTEN:/run/user/1000/agentjail/agentjail.sock,fork"])
	t_denied("self.protected_file", t_with(t_bash([cmd]), {"socket": t_socket}))
}

test_policy_folder_denied if {
	t_denied("self.protected_file", t_rm(["/srv/policies/allow.rego"], ["/srv/policies/allow.rego"])) with data.config.policy_dirs as ["/srv/policies"]
	not t_fired("self.protected_file", t_rm(["/srv/other/allow.rego"], ["/srv/other/allow.rego"])) with data.config.policy_dirs as ["/srv/policies"]
}

test_configured_home_denied if {
	ev := t_with(t_rm(["$AGENTJAIL_HOME/policies"], ["/opt/guard/policies"]), {"agentjail_home": "/opt/guard"})
	t_denied("self.protected_file", ev)
}

test_static_folder_of_a_dynamic_word_denied if {
	cmd := object.union(t_cmd("cp", ["x", "~/.claude/$F"], ["/home/dev/project/x"]), {"prefixes": ["/home/dev/.claude"]})
	t_denied("self.protected_file", t_with(t_bash([cmd]), {"prefixes": ["/home/dev/.claude"]}))
}

test_redirect_into_the_home_denied if {
	cmd := object.union(t_cmd("echo", ["x"], []), {"redirects": [{"op": ">", "path": "/home/dev/.agentjail/policies/allow.rego", "prefix": "", "target": "~/.agentjail/policies/allow.rego"}]})
	t_denied("self.protected_file", t_bash([cmd]))
}

test_glob_on_the_home_denied if t_denied("self.protected_file", t_rm(["~/.agentj*"], ["/home/dev/.agentj*"]))

test_xargs_from_the_home_denied if {
	find := t_cmd("find", ["~/.agentjail", "-name", "*.rego"], ["/home/dev/.agentjail"])
	rm := object.union(t_cmd("rm", [], []), {"wrappers": ["xargs"], "pipe_from": ["find"]})
	t_denied("self.protected_file", t_bash([find, rm]))
}

# --- file tools ---------------------------------------------------------

test_write_service_unit_denied if t_denied("self.protected_file", t_tool("Write", {"file_path": "/home/dev/.config/systemd/user/agentjail.service", "content": ""}, ["/home/dev/.config/systemd/user/agentjail.service"]))

test_write_project_file_allowed if not t_fired("self.protected_file", t_tool("Write", {"file_path": "/home/dev/project/main.go", "content": ""}, ["/home/dev/project/main.go"]))
