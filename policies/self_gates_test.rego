package agentjail

# self.rego's rules start with facts OPA's rule index answers.

test_edit_of_claude_settings_not_a_shell_write if not t_fired("self.settings_shell_write", t_tool("Edit", {"file_path": "/home/dev/.claude/settings.json"}, ["/home/dev/.claude/settings.json"]))

test_project_write_not_a_home_write if not t_fired("self.home_write", t_tool("Edit", {"file_path": "/home/dev/project/main.go"}, ["/home/dev/project/main.go"]))

test_redirect_into_agentjail_home_denied if t_denied("self.home_write", t_bash([object.union(t_cmd("echo", ["x"], []), {"redirects": [{"op": ">", "target": "/home/dev/.agentjail/config.yaml", "path": "/home/dev/.agentjail/config.yaml"}]})]))
