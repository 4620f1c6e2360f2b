package agentjail

# macOS: the user's private data stores, the machine's security switches,
# AppleScript that drives other applications, and Time Machine and APFS
# volumes. What each program does is a table below; the rules ask whether
# a command does it. Keychains, browser profiles, Gatekeeper, SIP and the
# application firewall are in secrets.rego and privilege.rego already.

# --- private data stores (ATT&CK T1005, T1539) -------------------------

# The user's messages, mail, notes, contacts, calendars, Safari's
# container, the TCC permission database and the local storage of chat
# apps (Slack, Discord, Teams, Signal, Telegram: their cookies and
# tokens log in as the user), in a home folder (/Users/NAME/Library,
# /home/NAME/Library, /var/root/Library) or the machine's /Library:
# reading them is reading the user's private life and the sessions in
# it; they are judged as secrets (secrets.credentials). secret(p) is
# asked of every unusual path, so a substring test comes first.
macos_private_pattern := `^(/[^/]+){0,2}/Library/(Messages|Mail|Containers/com\.apple\.(Safari|mail|Notes|MobileSMS)|Group Containers/group\.com\.apple\.notes|Application Support/(AddressBook|CallHistoryDB|com\.apple\.TCC|Knowledge|Slack|discord|Microsoft Teams|Microsoft/Teams|Signal|Telegram Desktop|WhatsApp)|Containers/com\.microsoft\.teams2?|Calendars|Cookies|Accounts)(/.*)?$`

secret(p) if {
	contains(p, "/Library/")
	regex.match(macos_private_pattern, p)
}

# --- security switches (ATT&CK T1562.001, T1553.001, T1021) ------------

# Programs that switch a protection off, by the words that do it: data
# for disables_protection (priv.firewall_off).
protection_switches := {
	"profiles": [["remove"], ["-D"]],
	"softwareupdate": [["--schedule", "off"]],
	# Forgets every login item and background task the user approved,
	# so what was planted is no longer listed in System Settings.
	"sfltool": [["resetbtm"]],
}

# Boot arguments that switch off code-signing enforcement (AMFI) or SIP.
program_group contains ["nvram", "firewall"]

disables_protection(cmd) if {
	cmd.name == "nvram"
	some a in cmd.args
	regex.match(`(?i)^(boot-args=.*(amfi_get_out_of_my_way|cs_enforcement_disable|amfi=)|csr-active-config=)`, a)
}

# Turning disk encryption off (FileVault, an APFS volume's encryption)
# leaves the data readable to whoever holds the disk; sometimes the user
# wants it, and it can be turned back on: asked.
encryption_switches := {
	"fdesetup": [["disable"]],
	"diskutil": [["apfs", "decryptVolume"], ["cs", "revert"], ["coreStorage", "revert"]],
}

program_group contains [prog, "firewall"] if some prog, _ in encryption_switches

ask contains {"id": "macos.encryption_off", "msg": msg} if {
	"firewall" in input.agentjail.kinds
	some cmd in commands
	some words in encryption_switches[cmd.name]
	every w in words {
		w in cmd.args
	}
	msg := sprintf("`%s` turns disk encryption off; the user has to approve it.", [full_text(cmd)])
}

# Making a user an administrator, creating one, or granting an
# authorization right to everyone: macOS's usermod -aG sudo, asked like
# it (priv.sudo).
program_group contains [prog, "firewall"] if some prog in {"dscl", "dseditgroup", "sysadminctl", "security"}

runs_as_root(cmd) if {
	cmd.name == "dscl"
	some a in cmd.args
	regex.match(`(?i)^-(append|create|merge)$`, a)
	some g in cmd.args
	regex.match(`(?i)^/(Groups/(admin|wheel)|Users/.+)$`, g)
}

runs_as_root(cmd) if {
	cmd.name == "dseditgroup"
	"edit" in cmd.args
	some g in cmd.args
	g in {"admin", "wheel"}
}

runs_as_root(cmd) if {
	cmd.name == "sysadminctl"
	has_option(cmd, {"addUser", "secureTokenOn", "adminUser"})
}

runs_as_root(cmd) if {
	cmd.name == "security"
	subcommand(cmd) == "authorizationdb"
	"write" in cmd.args
}

# Programs that open this Mac to logins from elsewhere (ssh, Apple
# events, screen sharing, Remote Desktop), by the words that do it.
remote_access_switches := {
	"systemsetup": [["-setremotelogin", "on"], ["-setremoteappleevents", "on"]],
	"kickstart": [["-activate"]],
}

program_group contains [prog, "firewall"] if some prog, _ in protection_switches

program_group contains [prog, "firewall"] if some prog, _ in remote_access_switches

program_group contains [prog, "firewall"] if some prog in {"launchctl", "tccutil", "defaults", "xattr"}

disables_protection(cmd) if {
	some words in protection_switches[cmd.name]
	every w in words {
		w in cmd.args
	}
}

# Security agents by launchd label (or the plist that names it).
security_agent_labels := `(?i)(com\.apple\.(alf|XProtect|MRT|security\.syspolicy|ManagedClient)|com\.crowdstrike|com\.sentinelone|com\.microsoft\.(wdav|fresno)|com\.jamf|com\.google\.santa|at\.obdev\.littlesnitch|com\.objective-see|com\.sophos|com\.carbonblack|co\.elastic|com\.paloaltonetworks|osquery)`

disables_protection(cmd) if {
	cmd.name == "launchctl"
	positional(cmd)[0] in {"unload", "bootout", "disable", "remove", "kill", "stop"}
	some a in positional(cmd)
	regex.match(security_agent_labels, a)
}

# Remote-access services by launchd label (or plist).
remote_access_labels := `(?i)(^|/)(ssh|com\.openssh\.sshd|com\.apple\.screensharing|com\.apple\.RemoteDesktop\.agent|com\.apple\.ARDAgent)(\.plist)?$`

deny contains {"id": "macos.remote_access", "msg": msg} if {
	"firewall" in input.agentjail.kinds
	some cmd in commands
	opens_remote_access(cmd)
	msg := sprintf("Blocked: `%s` lets others log in to or control this Mac from the network. Ask the user to turn it on in System Settings if it is needed.", [full_text(cmd)])
}

opens_remote_access(cmd) if {
	some words in remote_access_switches[cmd.name]
	every w in words {
		w in cmd.args
	}
}

opens_remote_access(cmd) if {
	cmd.name == "launchctl"
	positional(cmd)[0] in {"load", "bootstrap", "enable", "kickstart"}
	some a in positional(cmd)
	regex.match(remote_access_labels, a)
}

# tccutil reset without an application resets every app's privacy
# grants on the machine; with one (tccutil reset Camera com.example.app)
# it is a developer resetting their own app, asked.
deny contains {"id": "macos.tcc_reset", "msg": msg} if {
	"firewall" in input.agentjail.kinds
	some cmd in commands
	cmd.name == "tccutil"
	pos := positional(cmd)
	pos[0] == "reset"
	count(pos) < 3
	msg := sprintf("Blocked: `%s` resets the privacy permissions (files, camera, screen, automation) of every app on this Mac. Tell the user to do it in System Settings if it is needed.", [full_text(cmd)])
}

ask contains {"id": "macos.tcc_reset", "msg": msg} if {
	"firewall" in input.agentjail.kinds
	some cmd in commands
	cmd.name == "tccutil"
	pos := positional(cmd)
	pos[0] == "reset"
	count(pos) >= 3
	msg := sprintf("`%s` resets an app's privacy permissions; the user has to approve it.", [full_text(cmd)])
}

# Preference domains and the keys in them that hold a security setting.
# A domain may be given as a plist path (/Library/Preferences/com.apple.alf).
security_preferences := {
	"com.apple.LaunchServices": {"LSQuarantine"},
	"com.apple.alf": {"globalstate", "stealthenabled", "allowsignedenabled", "allowdownloadsignedenabled", "loggingenabled"},
	"com.apple.security": {"GKAutoRearm"},
	"com.apple.systempolicy.control": {"EnableAssessment", "AllowIdentifiedDevelopers"},
	"com.apple.security.assessment": {"enabled"},
	"com.apple.screensaver": {"askForPassword", "askForPasswordDelay"},
	"com.apple.SoftwareUpdate": {"AutomaticCheckEnabled", "AutomaticDownload", "CriticalUpdateInstall", "ConfigDataInstall"},
	"com.apple.commerce": {"AutoUpdate"},
	"com.apple.loginwindow": {"autoLoginUser", "GuestEnabled"},
	"com.apple.AppleFileServer": {"guestAccess"},
	"com.apple.smb.server": {"AllowGuestAccess"},
	"com.apple.Terminal": {"SecureKeyboardEntry"},
}

# A write of one of those keys: denied when it turns the setting off (or
# deletes it), asked otherwise (hardening scripts write them too).
deny contains {"id": "macos.security_defaults", "msg": msg} if {
	"firewall" in input.agentjail.kinds
	some cmd in commands
	key := security_preference_write(cmd)
	weakening_value(cmd, key)
	msg := sprintf("Blocked: `%s` turns a macOS security setting off (%s). Tell the user the setting to change in System Settings instead.", [full_text(cmd), key])
}

ask contains {"id": "macos.security_defaults", "msg": msg} if {
	"firewall" in input.agentjail.kinds
	some cmd in commands
	key := security_preference_write(cmd)
	not weakening_value(cmd, key)
	msg := sprintf("`%s` changes a macOS security setting (%s); the user has to approve it.", [full_text(cmd), key])
}

security_preference_write(cmd) := key if {
	cmd.name == "defaults"
	pos := [a | some a in cmd.args; not startswith(a, "-")]
	pos[0] in {"write", "delete"}
	domain := regex.replace(pos[1], `^.*/|\.plist$`, "")
	keys := security_preferences[domain]
	key := pos[2]
	key in keys
}

weakening_value(cmd, _) if "delete" in cmd.args

weakening_value(cmd, key) if {
	some i, a in cmd.args
	a == key
	some v in array.slice(cmd.args, i + 1, count(cmd.args))
	lower(v) in {"false", "no", "0", "off"}
}

# Login items and Dock tiles kept in preferences: an app added there
# starts at login or stands in for one the user clicks (T1547.015).
ask contains {"id": "persist.user_service", "msg": msg} if {
	"firewall" in input.agentjail.kinds
	some cmd in commands
	cmd.name == "defaults"
	pos := [a | some a in cmd.args; not startswith(a, "-")]
	pos[0] in {"write", "import"}
	domain := regex.replace(pos[1], `^.*/|\.plist$`, "")
	some key in login_item_keys[domain]
	key in cmd.args
	msg := sprintf("`defaults write %s %s` adds a program that starts at login or from the Dock; the user has to approve it.", [domain, key])
}

login_item_keys := {
	"loginwindow": {"AutoLaunchedApplicationDictionary", "LoginHook", "LogoutHook"},
	"com.apple.loginwindow": {"AutoLaunchedApplicationDictionary", "LoginHook", "LogoutHook"},
	"com.apple.loginitems": {"SessionItems", "privilegedlist"},
	"com.apple.dock": {"persistent-apps", "persistent-others"},
}

# Removing the quarantine mark (xattr -d com.apple.quarantine, xattr -c)
# or whitelisting with spctl --add lets a downloaded program run without
# Gatekeeper's check. Marks on the project's own builds are its business.
ask contains {"id": "macos.quarantine_removed", "msg": msg} if {
	"firewall" in input.agentjail.kinds
	some cmd in commands
	lifts_quarantine(cmd)
	some p in cmd.paths
	not in_project(p)
	msg := sprintf("`%s` lets %s run without Gatekeeper's check of downloaded software; the user has to approve it.", [full_text(cmd), shown(p)])
}

# xattr's letters cluster (-rd, -rc): -d deletes the mark, -w replaces
# it (an empty or forged value passes Gatekeeper as well), -c clears
# every attribute.
lifts_quarantine(cmd) if {
	cmd.name == "xattr"
	"com.apple.quarantine" in cmd.args
	some f in cmd.flags
	regex.match(`^[a-z]*[dw][a-z]*$`, f)
}

lifts_quarantine(cmd) if {
	cmd.name == "xattr"
	some f in cmd.flags
	regex.match(`^[a-z]*c[a-z]*$`, f)
}

lifts_quarantine(cmd) if {
	cmd.name == "spctl"
	has_option(cmd, {"add"})
}

# --- AppleScript (ATT&CK T1059.002, T1056.002, T1113) ------------------

# What AppleScript or JXA code does, by pattern, and the stance on it:
# typing into other apps or asking the user for their password hands
# the machine away; reading Messages, Mail, Contacts or Notes reads the
# user's private data; running a line in a terminal or as administrator
# escapes this check, and is asked.
applescript_acts := [
	{"re": `(?i)\b(keystroke|key code)\b|\.(keystroke|keyCode)\(`, "verdict": "deny", "what": "types keystrokes into other applications"},
	{"re": `(?i)display dialog[^\n]*(hidden answer|passw|credential|admin)|(passw|credential)[^\n]*display dialog|displayDialog\([^\n]*hiddenAnswer`, "verdict": "deny", "what": "asks the user for a password in a dialog of its own"},
	{"re": `(?i)(tell application|Application\()\s*"(Messages|Mail|Contacts|Address Book|Notes|Keychain Access|Photos|Calendar|Reminders)"`, "verdict": "deny", "what": "reads or sends the user's messages, mail, contacts or notes"},
	{"re": `(?i)(execute[^\n]*javascript|do JavaScript|\.execute\(\{?\s*javascript)`, "verdict": "deny", "what": "runs JavaScript in the user's logged-in browser tabs"},
	{"re": `(?i)(tell application|Application\()\s*"(Safari|Google Chrome|Chromium|Brave Browser|Microsoft Edge|Arc|Firefox)"[^\n]*\b(URL|source|text|name|title)s? of\b`, "verdict": "ask", "what": "reads what the user has open in the browser"},
	{"re": `(?i)(tell application|Application\()\s*"(Terminal|iTerm2?)"[^\n]*(do script|write text|doScript)`, "verdict": "ask", "what": "runs a command in a terminal window"},
	{"re": `(?i)with administrator privileges|administratorPrivileges`, "verdict": "ask", "what": "runs a command as administrator"},
	{"re": `(?i)\bto\s+(shut\s*down|restart|log\s*out|sleep)\b|aevt(rsdn|rrst|rlgo|shut)|\.(shutDown|restart|logOut)\(`, "verdict": "ask", "what": "shuts down, restarts or logs out the Mac, closing the user's work"},
]

deny contains {"id": "macos.applescript", "msg": msg} if {
	"interpreter" in input.agentjail.kinds
	some cmd in commands
	cmd.name == "osascript"
	some act in applescript_acts
	act.verdict == "deny"
	some code in code_strings(cmd)
	regex.match(act.re, code)
	msg := sprintf("Blocked: this AppleScript %s. Tell the user what you need done instead.", [act.what])
}

ask contains {"id": "macos.applescript", "msg": msg} if {
	"interpreter" in input.agentjail.kinds
	some cmd in commands
	cmd.name == "osascript"
	some act in applescript_acts
	act.verdict == "ask"
	some code in code_strings(cmd)
	regex.match(act.re, code)
	msg := sprintf("This AppleScript %s, outside agentjail's check; the user has to approve it.", [act.what])
}

# open runs a script file (.command, .tool, .sh ...) in a new Terminal
# window, outside agentjail's check; opening apps, folders and documents
# is everyday.
program_group contains ["open", "capture"]

ask contains {"id": "macos.open_script", "msg": msg} if {
	"capture" in input.agentjail.kinds
	some cmd in commands
	cmd.name == "open"
	some a in positional(cmd)
	regex.match(`(?i)\.(command|tool|sh|bash|zsh|scpt|applescript|workflow)$`, a)
	msg := sprintf("`%s` runs %s in a new window, outside agentjail's check; the user has to approve it.", [full_text(cmd), a])
}

# screencapture records whatever is on the screen: passwords, messages.
program_group contains ["screencapture", "capture"]

ask contains {"id": "macos.screen_capture", "msg": msg} if {
	"capture" in input.agentjail.kinds
	some cmd in commands
	cmd.name == "screencapture"
	not has_option(cmd, {"h", "help"})
	msg := sprintf("`%s` records the screen, with whatever is on it; the user has to approve it.", [full_text(cmd)])
}

# --- backups and volumes (ATT&CK T1490, T1485) -------------------------

# tmutil verbs that delete backups or stop them being made.
backup_destroyers := {"tmutil": {"delete", "deletelocalsnapshots", "thinlocalsnapshots", "disable", "disablelocal", "removedestination", "deleteinprogress"}}

program_group contains [prog, "backup"] if some prog, _ in backup_destroyers

deny contains {"id": "macos.backup_destroyed", "msg": msg} if {
	"backup" in input.agentjail.kinds
	some cmd in commands
	lower(subcommand(cmd)) in backup_destroyers[cmd.name]
	msg := sprintf("Blocked: `%s` deletes Time Machine backups or snapshots, or stops backups being made; what they keep cannot be got back. Ask the user to do it themselves.", [full_text(cmd)])
}

# diskutil apfs deleteVolume / deleteContainer / eraseVolume destroy
# volumes like eraseDisk does (fs.format_disk).
format_command(cmd) if {
	cmd.name == "diskutil"
	lower(subcommand(cmd)) in {"apfs", "cs", "corestorage", "ar", "appleraid"}
	regex.match(`(?i)^(delete|erase|remove)`, cmd.operands[1])
}

# What the security CLI does with the files it is given: a certificate
# it verifies, a signed profile it decodes. It uses them without showing
# a key, so naming one (a project's cert.pem) is not reading a secret.
program_role contains ["security", {"subcommands": {
	"verify-cert": {"use": ["c", "r"], "value": ["p", "k", "s", "n"]},
	"cms": {"use": ["i"], "value": ["o", "k", "c", "e", "u", "t", "Z", "N"]},
}}]

# --- AppleScript from a file (ATT&CK T1059.002) -------------------------

# osascript FILE runs a script agentjail does not read: a compiled one
# (.scpt, .scptd, an applet) cannot be read at all, and one in a temp or
# hidden folder was not part of the project. Judged like `osascript -e`
# with code that cannot be seen: the user approves it. A text script of
# the project (./scripts/notify.applescript) is the project's own code.
ask contains {"id": "macos.applescript_file", "msg": msg} if {
	"interpreter" in input.agentjail.kinds
	some cmd in commands
	cmd.name == "osascript"
	not "-e" in cmd.args
	some p in cmd.paths
	p == cmd.paths[0]
	unseen_script(p)
	msg := sprintf("`%s` runs an AppleScript agentjail cannot read (compiled, or from outside the project); it can drive other apps and run shell commands outside agentjail's check. The user has to approve it, or run it with -e so its code is seen.", [full_text(cmd)])
}

unseen_script(p) if regex.match(`\.(scpt|scptd|app)/?$`, p)

unseen_script(p) if in_temp(p)

unseen_script(p) if regex.match(`/\.[^/]+/`, p)

unseen_script(p) if not in_project(p)
