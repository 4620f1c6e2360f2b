package agentjail

# Recording the user: the screen, the camera, the microphone and the
# keys they press (ATT&CK T1113, T1125, T1123, T1056.001); typing into
# other windows, which runs outside agentjail's check; and dialogs that
# ask for the user's password (T1056.002). One row per program: what it
# records, and when set, a pattern its arguments must match (ffmpeg
# records only from a capture device; import only the root window) or,
# for unless, a pattern that makes it no recording (arecord -l). A
# recording is asked about; a password dialog is refused. macOS's own
# tools are in macos.rego (screencapture, osascript).
capture_programs := {
	"scrot": {"what": "the screen"},
	"gnome-screenshot": {"what": "the screen"},
	"spectacle": {"what": "the screen", "args": `(^|\s)(-b|--background|-f|--fullscreen|-o|--output)\b`},
	"flameshot": {"what": "the screen", "args": `^(full|screen)\b`},
	"grim": {"what": "the screen"},
	"maim": {"what": "the screen"},
	"xwd": {"what": "the screen", "args": `(^|\s)-root\b`},
	"import": {"what": "the screen", "args": `(^|\s)-window\s+root\b`},
	"wf-recorder": {"what": "the screen"},
	"ffmpeg": {"what": "the screen, camera or microphone", "args": `(^|\s)-f\s+(x11grab|kmsgrab|fbdev|v4l2|video4linux2|alsa|pulse|pipewire|avfoundation|gdigrab|dshow|openal|jack|oss)\b`},
	"gst-launch-1.0": {"what": "the screen, camera or microphone", "args": `\b(ximagesrc|v4l2src|pulsesrc|alsasrc|pipewiresrc|autoaudiosrc|autovideosrc|avfvideosrc|osxaudiosrc)\b`},
	"fswebcam": {"what": "the camera"},
	"streamer": {"what": "the camera"},
	"imagesnap": {"what": "the camera"},
	"arecord": {"what": "the microphone", "unless": `(^|\s)(-l|-L|--list-devices|--list-pcms)\b`},
	"parecord": {"what": "the microphone"},
	"pw-record": {"what": "the microphone"},
	"rec": {"what": "the microphone"},
	"sox": {"what": "the microphone", "args": `^((-[a-zA-Z-]+)(\s+[0-9]\S*)?\s+)*-d\b`},
	"xinput": {"what": "the keys the user presses", "args": `^(test|test-xi2)\b`},
	"xev": {"what": "the keys the user presses"},
	"evtest": {"what": "the keys the user presses"},
	"logkeys": {"what": "the keys the user presses", "args": `(^|\s)(-s|--start)\b`},
	"showkey": {"what": "the keys the user presses"},
}

# Programs that type or click into whatever window has the focus: a
# terminal there runs what they type without agentjail seeing it.
typing_programs := {
	"xdotool": `(^|\s)(type|key|keydown|keyup)\b`,
	"ydotool": `(^|\s)(type|key)\b`,
	"wtype": `^`,
	"dotool": `^`,
}

# Dialogs that ask the user for a password or another secret.
password_dialogs := {
	"zenity": `--password|--entry\b.*--hide-text|--hide-text.*--entry\b|--forms\b.*--add-password`,
	"kdialog": `--password|--newpassword`,
	"yad": `--entry\b.*--hide-text|--hide-text.*--entry\b|:H\b`,
	"pinentry": `^`,
	"pinentry-gnome3": `^`,
	"pinentry-qt": `^`,
	"pinentry-gtk-2": `^`,
	"pinentry-curses": `^`,
	"pinentry-tty": `^`,
	"pinentry-mac": `^`,
	"systemd-ask-password": `^`,
}

# Device files a program reads to record: input events, cameras, sound.
capture_devices := [
	{"re": `^/dev/input/`, "what": "the keys the user presses"},
	{"re": `^/dev/video[0-9]+$`, "what": "the camera"},
	{"re": `^/dev/snd/pcmC[0-9]+D[0-9]+c$`, "what": "the microphone"},
	{"re": `^/dev/fb[0-9]+$`, "what": "the screen"},
]

program_group contains [prog, "capture"] if some prog, _ in capture_programs

program_group contains [prog, "capture"] if some prog, _ in typing_programs

program_group contains [prog, "capture"] if some prog, _ in password_dialogs

ask contains {"id": "collection.recording", "msg": msg} if {
	"capture" in input.agentjail.kinds
	some cmd in commands
	row := capture_programs[cmd.name]
	not has_option(cmd, {"h", "help", "version"})
	capture_args_match(cmd, row)
	msg := sprintf("`%s` records %s; the user has to approve it.", [clip_text(full_text(cmd)), row.what])
}

capture_args_match(cmd, row) if {
	text := concat(" ", cmd.args)
	regex.match(object.get(row, "args", "."), text)
	not regex.match(object.get(row, "unless", "$^"), text)
}

# A device file named by any program (cat /dev/input/event3, dd
# if=/dev/video0).
ask contains {"id": "collection.recording", "msg": msg} if {
	some p in input.agentjail.paths
	startswith(p, "/dev/")
	some d in capture_devices
	regex.match(d.re, p)
	msg := sprintf("This call reads %s, which records %s; the user has to approve it.", [p, d.what])
}

ask contains {"id": "collection.typing", "msg": msg} if {
	"capture" in input.agentjail.kinds
	some cmd in commands
	pattern := typing_programs[cmd.name]
	regex.match(pattern, concat(" ", cmd.args))
	msg := sprintf("`%s` types into whatever window has the focus; a terminal there would run it outside agentjail's check. The user has to approve it.", [clip_text(full_text(cmd))])
}

deny contains {"id": "collection.password_prompt", "msg": msg} if {
	"capture" in input.agentjail.kinds
	some cmd in commands
	pattern := password_dialogs[cmd.name]
	regex.match(pattern, concat(" ", cmd.args))
	msg := sprintf("Blocked: `%s` asks the user for a password in a dialog of its own; what they type would reach the agent. Let the program that needs the password ask for it (sudo, ssh, a keyring).", [cmd.name])
}

clip_text(s) := s if count(s) <= 80

clip_text(s) := concat("", [substring(s, 0, 77), "..."]) if count(s) > 80
