package agentjail

# The shared helpers of lib.rego and verbs.rego, written for speed: each
# keeps the meaning it had when it was written the plain way.

test_agentjail_homes_configured_and_default if {
	homes := agentjail_homes with input as {"agentjail": {"home": "/home/dev", "agentjail_home": "/opt/aj"}}
	homes == {"/opt/aj", "/home/dev/.agentjail"}
}

test_agentjail_homes_default_only if {
	agentjail_homes == {"/home/dev/.agentjail"} with input as {"agentjail": {"home": "/home/dev", "agentjail_home": ""}}
	agentjail_homes == {"/home/dev/.agentjail"} with input as {"agentjail": {"home": "/home/dev", "agentjail_home": ".agentjail"}}
	agentjail_homes == {"/home/dev/.agentjail"} with input as {"agentjail": {"home": "/home/dev"}}
	agentjail_homes == {"/home/dev/.agentjail"} with input as {"agentjail": {"home": "/home/dev", "agentjail_home": "/home/dev/.agentjail"}}
}

test_agentjail_homes_without_home if agentjail_homes == {"/.agentjail"} with input as {"agentjail": {}}

test_derived_defaults if {
	home == "" with input as {}
	project == "" with input as {}
	temp_dir == "/tmp" with input as {"agentjail": {}}
	count(named_paths) == 0 with input as {}
	count(writes) == 0 with input as {"agentjail": {}}
}

test_commands_only_for_shell_calls if {
	commands == [] with input as {"agentjail": {"tool_kind": "shell"}}
	not commands with input as {"agentjail": {"tool_kind": "file"}}
	not commands with input as {}
}

test_takes_value_looks_up_one_pair if {
	takes_value("kubectl", "-n")
	not takes_value("kubectl", "-x")
	not takes_value("ls", "-la")
}

test_takes_value_sees_added_pairs if {
	takes_value("mytool", "--env") with value_option as {["mytool", "--env"]}
}

test_positional_skips_option_values if {
	positional({"name": "kubectl", "args": ["-n", "prod", "delete", "deploy", "api", "--grace-period", "0"]}) == ["delete", "deploy", "api"]
	positional({"name": "ls", "args": ["-la", "./src"]}) == ["./src"]
	positional({"name": "git", "args": ["-C", "dir", "branch", "-D", "x"]}) == ["branch", "x"]
}

test_has_words_in_order_and_contiguous if {
	has_words(["auth", "token", "--show"], "auth token")
	has_words(["x", "auth", "token"], "auth token")
	has_words(["token"], "token")
	not has_words(["auth", "x", "token"], "auth token")
	not has_words(["token", "auth"], "auth token")
	not has_words(["auth"], "auth token")
}

test_value_options_come_from_program_roles if {
	takes_value("curl", "-o")
	takes_value("curl", "--header")
	takes_value("psql", "-h")
	not takes_value("python3", "-m") # names the tool run: python3 -m twine upload
	takes_value("mytool", "--env") with program_role as {["mytool", {"text": ["env"]}]}
}
