package agentjail

# Tests of self_unjudged.rego: a glob or archive the daemon could not
# read to the end asks only where it could reach a protected place.

t_unjudged(name, args, kind, root) := object.union(
	t_bash([object.union(t_cmd(name, args, []), {"unjudged": [{"kind": kind, "root": root, "why": "more than 256 matches"}]})]),
	{"agentjail": {"unjudged": true}},
)

test_unjudged_glob_in_the_home_asks if {
	some r in ask with input as t_unjudged("rm", ["-f", "/home/dev/*"], "glob", "/home/dev")
	r.id == "self.unjudged_glob"
}

test_unjudged_glob_above_a_protected_place_asks if {
	some r in ask with input as t_unjudged("rm", ["/home/dev/.config/*/*"], "glob", "/home/dev/.config")
	r.id == "self.unjudged_glob"
}

test_unjudged_glob_elsewhere_or_read_only_passes if {
	cache := {r.id | some r in ask} with input as t_unjudged("rm", ["node_modules/.cache/*"], "glob", "/home/dev/project/node_modules/.cache")
	not "self.unjudged_glob" in cache
	listing := {r.id | some r in ask} with input as t_unjudged("ls", ["/home/dev/*"], "glob", "/home/dev")
	not "self.unjudged_glob" in listing
}

test_unjudged_archive_into_the_home_asks if {
	some r in ask with input as t_unjudged("tar", ["-xz", "-C", "/home/dev"], "archive", "/home/dev")
	r.id == "self.unjudged_archive"
}

test_unjudged_archive_into_the_project_or_vendor_passes if {
	project_ids := {r.id | some r in ask} with input as t_unjudged("tar", ["-xz"], "archive", "/home/dev/project")
	not "self.unjudged_archive" in project_ids
	vendor_ids := {r.id | some r in ask} with input as t_unjudged("tar", ["-xz"], "archive", "/home/dev/project/vendor")
	not "self.unjudged_archive" in vendor_ids
}

# A script the daemon may not read (shell marks it: internal/shell's
# unread_denied_test.go) asks; a call that names none does not.
test_unreadable_script_asks if {
	ev := object.union(t_bash([t_cmd("bash", ["/home/dev/private/run.sh"], [])]), {"agentjail": object.union(t_bash([t_cmd("bash", ["/home/dev/private/run.sh"], [])]).agentjail, {"unreadable": ["/home/dev/private/run.sh"]})})
	t_asked("self.unreadable_script", ev)
}

test_readable_script_not_asked if not t_fired("self.unreadable_script", t_bash([t_cmd("bash", ["scripts/build.sh"], [])]))
