package agentjail

# macos.rego: its tables, its stances and the look-alikes beside them.

test_macos_programs_are_grouped if {
	every name, _ in protection_switches {
		"firewall" in program_groups[name]
	}
	every name, _ in remote_access_switches {
		"firewall" in program_groups[name]
	}
	every name, _ in backup_destroyers {
		"backup" in program_groups[name]
	}
}

test_messages_db_is_secret if t_denied("secrets.credentials", t_bash([t_cmd("sqlite3", ["/home/dev/Library/Messages/chat.db", "select 1"], ["/home/dev/Library/Messages/chat.db"])]))

test_app_support_of_editor_not_secret if not secret("/home/dev/Library/Application Support/Code/User/settings.json") with input as t_bash([])

test_tcc_reset_all_denied if t_denied("macos.tcc_reset", t_bash([t_cmd("tccutil", ["reset", "All"], [])]))

test_tcc_reset_one_app_asked if t_asked("macos.tcc_reset", t_bash([t_cmd("tccutil", ["reset", "Camera", "com.example.app"], [])]))

test_quarantine_off_denied if t_denied("macos.security_defaults", t_bash([t_cmd("defaults", ["write", "com.apple.LaunchServices", "LSQuarantine", "-bool", "false"], [])]))

test_firewall_pref_by_path_denied if t_denied("macos.security_defaults", t_bash([t_cmd("defaults", ["write", "/Library/Preferences/com.apple.alf", "globalstate", "-int", "0"], [])]))

test_firewall_on_asked if t_asked("macos.security_defaults", t_bash([t_cmd("defaults", ["write", "/Library/Preferences/com.apple.alf", "globalstate", "-int", "1"], [])]))

test_dock_pref_allowed if not t_fired("macos.security_defaults", t_bash([t_cmd("defaults", ["write", "com.apple.dock", "autohide", "-bool", "false"], [])]))

test_read_security_pref_allowed if not t_fired("macos.security_defaults", t_bash([t_cmd("defaults", ["read", "com.apple.LaunchServices", "LSQuarantine"], [])]))

test_quarantine_removed_from_download_asked if t_asked("macos.quarantine_removed", t_bash([t_cmd("xattr", ["-d", "com.apple.quarantine", "/home/dev/Downloads/X.app"], ["/home/dev/Downloads/X.app"])]))

test_quarantine_removed_from_build_allowed if not t_fired("macos.quarantine_removed", t_bash([t_cmd("xattr", ["-d", "com.apple.quarantine", "/home/dev/project/build/X.app"], ["/home/dev/project/build/X.app"])]))

test_xattr_list_allowed if not t_fired("macos.quarantine_removed", t_bash([t_cmd("xattr", ["-l", "/home/dev/Downloads/X.app"], ["/home/dev/Downloads/X.app"])]))

test_security_agent_unloaded_denied if t_denied("priv.firewall_off", t_bash([t_cmd("launchctl", ["unload", "-w", "/Library/LaunchDaemons/com.crowdstrike.falcond.plist"], [])]))

test_own_agent_unloaded_allowed if not t_fired("priv.firewall_off", t_bash([t_cmd("launchctl", ["bootout", "gui/501/com.example.dev"], [])]))

test_filevault_off_asked if t_asked("macos.encryption_off", t_bash([t_cmd("fdesetup", ["disable"], [])]))

test_filevault_status_allowed if not t_fired("macos.encryption_off", t_bash([t_cmd("fdesetup", ["status"], [])]))

test_profiles_remove_denied if t_denied("priv.firewall_off", t_bash([t_cmd("profiles", ["remove", "-all"], [])]))

test_remote_login_denied if t_denied("macos.remote_access", t_bash([t_cmd("systemsetup", ["-setremotelogin", "on"], [])]))

test_remote_login_query_allowed if not t_fired("macos.remote_access", t_bash([t_cmd("systemsetup", ["-getremotelogin"], [])]))

t_osascript(code) := t_bash([t_cmd("osascript", ["-e", code], [])])

test_keystroke_denied if t_denied("macos.applescript", t_osascript(`tell application "System Events" to keystroke "x"`))

test_password_dialog_denied if t_denied("macos.applescript", t_osascript(`display dialog "Password:" default answer "" with hidden answer`))

test_messages_denied if t_denied("macos.applescript", t_osascript(`tell application "Messages" to get every chat`))

test_terminal_do_script_asked if t_asked("macos.applescript", t_osascript(`tell application "Terminal" to do script "make"`))

test_notification_allowed if {
	not t_fired("macos.applescript", t_osascript(`display notification "done" with title "make"`))
}

test_screencapture_asked if t_asked("macos.screen_capture", t_bash([t_cmd("screencapture", ["-x", "/tmp/s.png"], ["/tmp/s.png"])]))

test_backup_delete_denied if t_denied("macos.backup_destroyed", t_bash([t_cmd("tmutil", ["deletelocalsnapshots", "/"], [])]))

test_backup_list_allowed if not t_fired("macos.backup_destroyed", t_bash([t_cmd("tmutil", ["listbackups"], [])]))

test_apfs_delete_volume_denied if t_denied("fs.format_disk", t_bash([t_cmd("diskutil", ["apfs", "deleteVolume", "disk1s5"], [])]))

test_apfs_list_allowed if not t_fired("fs.format_disk", t_bash([t_cmd("diskutil", ["apfs", "list"], [])]))

test_browser_javascript_denied if t_denied("macos.applescript", t_osascript(`tell application "Google Chrome" to execute front window's active tab javascript "document.cookie"`))

test_browser_open_location_allowed if not t_fired("macos.applescript", t_osascript(`tell application "Safari" to open location "http://localhost:3000"`))

test_open_command_file_asked if t_asked("macos.open_script", t_bash([t_cmd("open", ["-a", "Terminal", "/tmp/run.command"], ["/tmp/run.command"])]))

test_open_app_allowed if not t_fired("macos.open_script", t_bash([t_cmd("open", ["build/App.app"], ["/home/dev/project/build/App.app"])]))

test_slack_storage_is_secret if secret("/home/dev/Library/Application Support/Slack/Cookies") with input as t_bash([])

test_amfi_boot_args_denied if t_denied("priv.firewall_off", t_bash([t_cmd("nvram", ["boot-args=amfi_get_out_of_my_way=1"], [])]))

test_nvram_print_allowed if not t_fired("priv.firewall_off", t_bash([t_cmd("nvram", ["-p"], [])]))

test_admin_group_asked if t_asked("priv.sudo", t_bash([t_cmd("dscl", [".", "-append", "/Groups/admin", "GroupMembership", "eve"], [])]))

test_dscl_read_allowed if not t_fired("priv.sudo", t_bash([t_cmd("dscl", [".", "-read", "/Users/dev"], [])]))

t_osa(args, paths) := t_bash([t_cmd("osascript", args, paths)])

test_applescript_compiled_asked if t_asked("macos.applescript_file", t_osa(["/home/dev/project/run.scpt"], ["/home/dev/project/run.scpt"]))

test_applescript_temp_asked if t_asked("macos.applescript_file", t_osa(["/tmp/a.applescript"], ["/tmp/a.applescript"]))

test_applescript_project_text_allowed if not t_fired("macos.applescript_file", t_osa(["scripts/n.applescript"], ["/home/dev/project/scripts/n.applescript"]))

test_applescript_inline_allowed if not t_fired("macos.applescript_file", t_osa(["-e", "beep"], []))
