package agentjail

t_install(prog, args) := t_bash([t_cmd(prog, args, [])])

test_typosquat_transposed_asked if t_asked("supplychain.typosquat", t_install("pip", ["install", "reqeusts"]))

test_typosquat_dropped_letter_asked if t_asked("supplychain.typosquat", t_install("npm", ["install", "crossenv"]))

test_typosquat_added_letter_asked if t_asked("supplychain.typosquat", t_install("npm", ["i", "expresss@4"]))

test_typosquat_pypi_normalised_asked if t_asked("supplychain.typosquat", t_install("pip", ["install", "Python_Dateutils==2.8"]))

test_well_known_allowed if not t_fired("supplychain.typosquat", t_install("pip", ["install", "requests>=2", "urllib3", "scapy"]))

test_neighbours_both_known_allowed if not t_fired("supplychain.typosquat", t_install("npm", ["install", "preact", "mysql2", "color"]))

test_short_names_skipped if not t_fired("supplychain.typosquat", t_install("npm", ["install", "nuxt"]))

test_requirements_file_allowed if not t_fired("supplychain.typosquat", t_install("pip", ["install", "-r", "requirements.txt"]))

test_one_edit if {
	one_edit("requests", "reqeusts")
	one_edit("urlib3", "urllib3")
	one_edit("urllib3", "urlib3")
	one_edit("beautifulsoup5", "beautifulsoup4")
	not one_edit("numpy", "numba")
	not one_edit("react", "react")
}

test_ignore_scripts_off_asked if t_asked("supplychain.install_scripts_on", t_install("npm", ["config", "set", "ignore-scripts", "false"]))

test_ignore_scripts_on_allowed if not t_fired("supplychain.install_scripts_on", t_install("npm", ["config", "set", "ignore-scripts", "true"]))

t_set_url(url, remotes) := object.union(t_bash([t_cmd("git", ["remote", "set-url", "origin", url], [])]), {"agentjail": {"git_remotes": remotes}})

test_remote_redirect_asked if t_asked("repo.remote_redirect", t_set_url("https://github.com/helper-bot/api.git", {"origin": "git@github.com:dev/api.git"}))

test_remote_unknown_asked if t_asked("repo.remote_redirect", t_bash([t_cmd("git", ["remote", "set-url", "origin", "git@github.com:dev/api.git"], [])]))

test_remote_protocol_switch_allowed if not t_fired("repo.remote_redirect", t_set_url("git@github.com:dev/api.git", {"origin": "https://github.com/dev/api"}))

test_remote_ssh_url_switch_allowed if not t_fired("repo.remote_redirect", t_set_url("ssh://git@github.com/Dev/api.git", {"origin": "https://github.com/dev/api.git/"}))

test_repo_slug if {
	repo_slug("git@github.com:dev/app.git") == "github.com/dev/app"
	repo_slug("https://user@github.com/dev/app") == "github.com/dev/app"
	repo_slug("ssh://git@github.com:22/dev/app.git") == "github.com/dev/app"
}
