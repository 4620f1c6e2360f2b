package agentjail

t_redirected(name, args, op, path) := object.union(t_cmd(name, args, []), {"redirects": [{"op": op, "target": path, "path": path}]})

test_append_bashrc_asked if t_asked("persist.shell_startup", t_bash([t_redirected("echo", ["export X=1"], ">>", "/home/dev/.bashrc")]))

test_read_bashrc_allowed if not t_fired("persist.shell_startup", t_bash([t_cmd("cat", ["/home/dev/.bashrc"], ["/home/dev/.bashrc"])]))

test_write_tool_zshrc_asked if t_asked("persist.shell_startup", t_tool("Write", {"file_path": "~/.zshrc", "content": "x"}, ["/home/dev/.zshrc"]))

test_authorized_keys_denied if t_denied("persist.authorized_keys", t_bash([t_redirected("echo", ["ssh-ed25519 AAAA"], ">>", "/home/dev/.ssh/authorized_keys")]))

test_etc_hosts_denied if t_denied("persist.system_config", t_bash([t_cmd("tee", ["-a", "/etc/hosts"], ["/etc/hosts"])]))

test_launch_daemon_denied if t_denied("persist.launch_daemon", t_tool("Write", {"file_path": "/Library/LaunchDaemons/x.plist"}, ["/Library/LaunchDaemons/x.plist"]))

test_user_launch_agent_asked if t_asked("persist.user_service", t_tool("Write", {"file_path": "~/Library/LaunchAgents/com.x.plist"}, ["/home/dev/Library/LaunchAgents/com.x.plist"]))

test_crontab_install_asked if t_asked("persist.crontab", t_bash([t_cmd("crontab", ["jobs.txt"], ["/home/dev/project/jobs.txt"])]))

test_crontab_list_allowed if not t_fired("persist.crontab", t_bash([t_cmd("crontab", ["-l"], [])]))

test_sudo_asked if {
	cmd := object.union(t_cmd("apt-get", ["install", "nginx"], []), {"wrappers": ["sudo"]})
	t_asked("priv.sudo", t_bash([cmd]))
}

test_no_sudo_allowed if not t_fired("priv.sudo", t_bash([t_cmd("apt-get", ["install", "nginx"], [])]))

# The system-file rules start with the fixed start or end of their paths.
test_authorized_keys2_denied if t_denied("persist.authorized_keys", t_tool("Write", {"file_path": "/home/dev/.ssh/authorized_keys2"}, ["/home/dev/.ssh/authorized_keys2"]))

test_system_bin_denied if t_denied("persist.system_files", t_tool("Write", {"file_path": "/usr/bin/git"}, ["/usr/bin/git"]))

test_usr_local_asked if t_asked("persist.system_files", t_tool("Write", {"file_path": "/usr/local/bin/tool"}, ["/usr/local/bin/tool"]))

test_cron_file_asked if t_asked("persist.crontab", t_tool("Write", {"file_path": "/var/spool/cron/crontabs/dev"}, ["/var/spool/cron/crontabs/dev"]))

test_project_file_no_system_rule if {
	ev := t_tool("Write", {"file_path": "/home/dev/project/etc/x.conf"}, ["/home/dev/project/etc/x.conf"])
	not t_fired("persist.system_config", ev)
	not t_fired("persist.system_files", ev)
	not t_fired("persist.crontab", ev)
}
