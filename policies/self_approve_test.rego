package agentjail

# self.approve: a held call is answered by a person, never by the agent.

t_aj(args) := t_cmd("agentjail", args, [])

test_approve_denied if t_denied("self.approve", t_bash([t_aj(["approve", "3f2a", "--session"])]))

test_deny_with_code_denied if t_denied("self.approve", t_bash([t_aj(["deny", "3f2a", "--code", "914202"])]))

test_pending_denied if t_denied("self.approve", t_bash([t_aj(["pending"])]))

test_grants_revoke_denied if t_denied("self.approve", t_bash([t_aj(["grants", "revoke", "--all"])]))

# One message, the approval's: self.cli leaves these to self.approve.
test_approve_not_self_cli if not t_denied("self.cli", t_bash([t_aj(["approve", "3f2a"])]))

test_grants_list_allowed if {
	ev := t_bash([t_aj(["grants"])])
	not t_denied("self.approve", ev)
	not t_denied("self.cli", ev)
}

test_status_allowed if not t_denied("self.approve", t_bash([t_aj(["status"])]))

test_help_approve_allowed if not t_denied("self.approve", t_bash([t_aj(["help", "approve"])]))

test_which_approve_denied if {
	which := object.union(t_cmd("which", ["agentjail"], []), {"via": "substitution"})
	run := object.union(t_cmd("$(which agentjail)", ["approve", "3f2a"], []), {"program": "$(which agentjail)", "subst": ["which"], "dynamic": true})
	t_denied("self.approve", t_bash([which, run]))
}

test_alias_denied if {
	def := t_cmd("alias", ["ok=agentjail approve"], [])
	t_denied("self.approve", t_bash([def, t_cmd("ok", ["3f2a"], [])]))
}

test_alias_status_allowed if {
	def := t_cmd("alias", ["st=agentjail status"], [])
	not t_denied("self.approve", t_bash([def, t_cmd("st", [], [])]))
}

test_copy_run_denied if {
	cp := t_cmd("cp", ["/home/dev/.agentjail/bin/agentjail", "/tmp/helper"], ["/home/dev/.agentjail/bin/agentjail", "/tmp/helper"])
	run := object.union(t_cmd("helper", ["approve", "3f2a"], []), {"program": "/tmp/helper"})
	t_denied("self.approve", t_bash([cp, run]))
}

test_copy_without_answer_allowed if {
	cp := t_cmd("cp", ["/home/dev/.agentjail/bin/agentjail", "/tmp/helper"], ["/home/dev/.agentjail/bin/agentjail", "/tmp/helper"])
	not t_denied("self.approve", t_bash([cp, t_cmd("helper", ["status"], [])]))
}

test_go_run_denied if t_denied("self.approve", t_bash([t_cmd("go", ["run", "./cmd/agentjail", "pending"], [])]))

test_go_run_status_allowed if not t_denied("self.approve", t_bash([t_cmd("go", ["run", "./cmd/agentjail", "status"], [])]))

test_interpreter_subprocess_denied if t_denied("self.approve", t_bash([t_cmd("python3", ["-c", `import subprocess; subprocess.run(["agentjail", "approve", "3f2a"])`], [])]))

test_interpreter_socket_frame_denied if t_denied("self.approve", t_bash([t_cmd("python3", ["-c", `import socket; s=socket.socket(socket.AF_UNIX); s.connect(p); s.send(b'{"op": "answer"}')`], [])]))

test_interpreter_print_allowed if not t_denied("self.approve", t_bash([t_cmd("python3", ["-c", `print("deny list updated")`], [])]))

# --- the socket ----------------------------------------------------------

test_system_socket_socat_denied if t_denied("self.approve", t_bash([t_cmd("socat", ["-", "UNIX-CONNECT:/run/agentjail/agentjail.sock"], [])]))

test_system_socket_nc_denied if t_denied("self.approve", t_bash([t_cmd("nc", ["-U", "/var/run/agentjail/agentjail.sock"], ["/var/run/agentjail/agentjail.sock"])]))

test_daemon_socket_curl_denied if {
	ev := object.union(t_bash([t_cmd("curl", ["--unix-socket", "/tmp/aj/s.sock", "http://x/"], ["/tmp/aj/s.sock"])]), {"agentjail": {"socket": "/tmp/aj/s.sock"}})
	t_denied("self.approve", ev)
}

test_socket_glob_denied if t_denied("self.approve", t_bash([t_cmd("socat", ["-", "UNIX:/run/agentj*/*.sock"], [])]))

test_other_socket_allowed if not t_denied("self.approve", t_bash([t_cmd("socat", ["-", "UNIX-CONNECT:/tmp/app.sock"], [])]))

test_nc_tcp_allowed if not t_denied("self.approve", t_bash([t_cmd("nc", ["-z", "localhost", "5432"], [])]))

# --- the bus -------------------------------------------------------------

test_gdbus_menu_event_denied if t_denied("self.approve", t_bash([t_cmd("gdbus", ["call", "--session", "--dest", ":1.87", "--object-path", "/MenuBar", "--method", "com.canonical.dbusmenu.Event", "12", "clicked", "<0>", "0"], [])]))

test_gdbus_joined_method_denied if t_denied("self.approve", t_bash([t_cmd("gdbus", ["call", "--session", "--dest=:1.87", "--object-path=/MenuBar", "--method=com.canonical.dbusmenu.EventGroup", "[]"], [])]))

test_busctl_emit_action_denied if t_denied("self.approve", t_bash([t_cmd("busctl", ["--user", "emit", "/org/freedesktop/Notifications", "org.freedesktop.Notifications", "ActionInvoked", "us", "41", "approve"], [])]))

test_dbus_send_signal_denied if t_denied("self.approve", t_bash([t_cmd("dbus-send", ["--session", "--type=signal", "/org/freedesktop/Notifications", "org.freedesktop.Notifications.ActionInvoked", "uint32:41", "string:approve"], [])]))

test_busctl_activate_denied if t_denied("self.approve", t_bash([t_cmd("busctl", ["--user", "call", ":1.87", "/StatusNotifierItem", "org.kde.StatusNotifierItem", "Activate", "ii", "0", "0"], [])]))

test_makoctl_invoke_denied if t_denied("self.approve", t_bash([t_cmd("makoctl", ["invoke", "-n", "41"], [])]))

test_gdbus_introspect_allowed if not t_denied("self.approve", t_bash([t_cmd("gdbus", ["introspect", "--session", "--dest", "org.freedesktop.Notifications", "--object-path", "/org/freedesktop/Notifications"], [])]))

test_busctl_monitor_allowed if not t_denied("self.approve", t_bash([t_cmd("busctl", ["--user", "monitor", "--match", "member='ActionInvoked'"], [])]))

test_list_names_allowed if not t_denied("self.approve", t_bash([t_cmd("dbus-send", ["--session", "--print-reply", "--dest=org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus.ListNames"], [])]))

test_grep_action_invoked_allowed if not t_denied("self.approve", t_bash([t_cmd("grep", ["-rn", "ActionInvoked", "src/"], [])]))

test_gi_emit_denied if t_denied("self.approve", t_bash([t_cmd("python3", ["-c", `from gi.repository import Gio; b.emit_signal(None, "/org/freedesktop/Notifications", "org.freedesktop.Notifications", "ActionInvoked", None)`], [])]))

test_gi_notify_allowed if not t_denied("self.approve", t_bash([t_cmd("python3", ["-c", `from gi.repository import Notify; Notify.init("ci"); Notify.Notification.new("build done").show()`], [])]))

# --- a shell given the command as text -------------------------------------

test_here_string_denied if {
	sh := object.union(t_cmd("bash", [], []), {"redirects": [{"op": "<<<", "target": "agentjail approve 3f2a", "path": ""}]})
	t_denied("self.approve", t_bash([sh]))
}

test_echo_pipe_denied if {
	sh := object.union(t_cmd("sh", [], []), {"pipe_from": ["echo"]})
	t_denied("self.approve", t_bash([t_cmd("echo", ["agentjail deny 3f2a"], []), sh]))
}

test_echo_pipe_status_allowed if {
	sh := object.union(t_cmd("sh", [], []), {"pipe_from": ["echo"]})
	not t_denied("self.approve", t_bash([t_cmd("echo", ["agentjail status"], []), sh]))
}
