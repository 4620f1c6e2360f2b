package agentjail

test_unparsed_asked if {
	ev := object.union(t_bash([]), {"agentjail": object.union(t_bash([]).agentjail, {"parse_error": "1:6: reached EOF without closing quote"})})
	t_asked("shell.unparsed", ev)
}

test_parsed_not_asked if not t_asked("shell.unparsed", t_bash([t_cmd("ls", [], [])]))
