package agentjail

t_ps := t_cmd("powershell.exe", ["-Command", "x"], [])

t_win(name, args, paths) := object.union(t_cmd(name, args, paths), {"via": "powershell.exe", "wrappers": ["powershell.exe"]})

test_iex_iwr_denied if t_denied("nested.windows_download_run", t_bash([t_ps, t_win("iex", [], []), t_win("iwr", ["https://x.example/a.ps1"], [])]))

test_webclient_iex_denied if t_denied("nested.windows_download_run", t_bash([t_ps, t_win("iex", [], []), t_win("new-object", ["Net.WebClient"], [])]))

test_iwr_alone_allowed if not t_fired("nested.windows_download_run", t_bash([t_ps, t_win("iwr", ["https://x.example/a.json", "-OutFile", "a.json"], [])]))

test_iex_outside_windows_allowed if not t_fired("nested.windows_download_run", t_bash([t_cmd("iex", [], []), t_cmd("iwr", ["x"], [])]))

test_defender_off_denied if t_denied("nested.windows_defender_off", t_bash([t_ps, t_win("set-mppreference", ["-DisableRealtimeMonitoring", "$true"], [])]))

test_defender_query_allowed if not t_fired("nested.windows_defender_off", t_bash([t_ps, t_win("get-mppreference", [], [])]))

test_delete_profile_denied if t_denied("nested.windows_delete_tree", t_bash([t_ps, t_win("remove-item", ["-Recurse", "-Force", "/mnt/c/Users/dev"], ["/mnt/c/Users/dev"])]))

test_delete_project_folder_allowed if not t_fired("nested.windows_delete_tree", t_bash([t_ps, t_win("remove-item", ["-Recurse", "/mnt/c/Users/dev/src/app/build"], ["/mnt/c/Users/dev/src/app/build"])]))

test_windows_profile_secret if secret("/mnt/c/Users/dev/AppData/Roaming/Microsoft/Credentials/ABC") with input as t_bash([])

test_windows_profile_document_not_secret if not secret("/mnt/c/Users/dev/Documents/notes.txt") with input as t_bash([])
