package agentjail

# autorun.rego's narrow program groups and the gates in front of its
# costlier helpers.

test_registry_verbs_are_grouped if {
	every name, _ in registry_verbs {
		"registry" in program_groups[name]
	}
}

test_npm_registry_swap_asked if t_asked("persist.registry_swap", t_bash([t_cmd("npm", ["config", "set", "registry", "https://x.example"], [])]))

test_go_env_goproxy_asked if t_asked("persist.registry_swap", t_bash([t_cmd("go", ["env", "-w", "GOPROXY=https://x.example"], [])]))

test_go_test_no_registry_swap if not t_fired("persist.registry_swap", t_bash([t_cmd("go", ["test", "./..."], [])]))

test_systemd_run_asked if t_asked("persist.scheduled", t_bash([t_cmd("systemd-run", ["--on-calendar=daily", "/home/dev/x.sh"], [])]))

test_ssh_copy_id_to_localhost_denied if t_denied("persist.ssh_copy_id", t_bash([t_cmd("ssh-copy-id", ["dev@localhost"], [])]))

test_git_config_global_hooks_asked if t_asked("persist.git_config", t_bash([t_cmd("git", ["config", "--global", "core.hooksPath", "/tmp/h"], [])]))

test_git_config_local_allowed if not t_fired("persist.git_config", t_bash([t_cmd("git", ["config", "core.hooksPath", ".githooks"], [])]))

test_pth_write_denied if t_denied("persist.python_startup", t_tool("Write", {"file_path": "/usr/lib/python3/site-packages/x.pth"}, ["/usr/lib/python3/site-packages/x.pth"]))

test_sitecustomize_write_asked if t_asked("persist.python_startup", t_tool("Write", {"file_path": "/home/dev/lib/sitecustomize.py"}, ["/home/dev/lib/sitecustomize.py"]))

test_project_pth_allowed if not t_fired("persist.python_startup", t_tool("Write", {"file_path": "/home/dev/project/x.pth"}, ["/home/dev/project/x.pth"]))

test_shadowing_git_in_local_bin_denied if t_denied("persist.path_hijack", t_tool("Write", {"file_path": "/home/dev/.local/bin/git"}, ["/home/dev/.local/bin/git"]))

test_own_tool_in_local_bin_asked if t_asked("persist.user_bin", t_tool("Write", {"file_path": "/home/dev/.local/bin/mytool"}, ["/home/dev/.local/bin/mytool"]))
