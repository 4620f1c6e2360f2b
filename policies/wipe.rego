package agentjail

# Destruction beyond rm: syncing deletions into home folders, shredding,
# truncating, moving home folders away, wiping disks, removing a
# repository's history, world-writable system files.

rsync_delete_flags := {"delete", "del", "delete-before", "delete-during", "delete-delay", "delete-after", "delete-excluded", "remove-source-files"}

# rsync_dest(cmd) is the local destination of an rsync: its last operand.
rsync_dest(cmd) := p if {
	last := cmd.operands[count(cmd.operands) - 1]
	not regex.match(`^[^/]*:`, last) # host:path is remote
	p := cmd.paths[count(cmd.paths) - 1]
}

deny contains {"id": "fs.sync_delete", "msg": msg} if {
	"wipe" in input.agentjail.kinds
	some cmd in commands
	cmd.name == "rsync"
	has_flag(cmd, rsync_delete_flags)
	not has_flag(cmd, {"n", "dry-run"})
	p := rsync_dest(cmd)
	catastrophic(p)
	msg := sprintf("Blocked: `rsync --delete` into %s deletes whatever the source lacks, a whole system or home folder. Sync into a folder inside the project.", [pretty(p)])
}

ask contains {"id": "fs.sync_delete", "msg": msg} if {
	"wipe" in input.agentjail.kinds
	some cmd in commands
	cmd.name == "rsync"
	has_flag(cmd, rsync_delete_flags)
	not has_flag(cmd, {"n", "dry-run"})
	p := rsync_dest(cmd)
	not catastrophic(p)
	outside(p)
	msg := sprintf("`rsync --delete` into %s deletes files outside the project; the user has to approve it.", [pretty(p)])
}

# shred and its kin overwrite files beyond recovery; so does BSD and
# macOS rm -P.
shredders := {"shred", "srm", "wipe", "gshred"}

shreds(cmd) if cmd.name in shredders

shreds(cmd) if {
	cmd.name == "rm"
	"P" in cmd.flags
}

deny contains {"id": "fs.shred", "msg": msg} if {
	"wipe" in input.agentjail.kinds
	some cmd in commands
	shreds(cmd)
	some p in cmd.paths
	outside(p)
	not in_temp(p)
	msg := sprintf("Blocked: `%s` destroys %s beyond recovery, outside the project. Ask the user to do it themselves.", [cmd.name, pretty(p)])
}

# A hidden file or folder of a temp folder (/tmp/.loot.tgz,
# /var/tmp/.x/keys) shredded is what was staged out of sight, its traces
# wiped (T1070.004); a plain scratch file there passes.
ask contains {"id": "fs.shred", "msg": msg} if {
	"wipe" in input.agentjail.kinds
	some cmd in commands
	shreds(cmd)
	some p in cmd.paths
	in_temp(p)
	regex.match(`/\.[^/.][^/]*(/|$)`, p)
	msg := sprintf("`%s` destroys %s, hidden in a temp folder, beyond recovery, which wipes the traces of what was staged there; the user has to approve it.", [cmd.name, pretty(p)])
}

ask contains {"id": "fs.shred", "msg": msg} if {
	"wipe" in input.agentjail.kinds
	some cmd in commands
	shreds(cmd)
	count(cmd.paths) == 0
	msg := sprintf("`%s` destroys files only known when it runs, beyond recovery; the user has to approve it.", [cmd.name])
}

deny contains {"id": "fs.truncate", "msg": msg} if {
	"wipe" in input.agentjail.kinds
	some cmd in commands
	cmd.name == "truncate"
	some p in cmd.paths
	outside(p)
	in_system(p)
	msg := sprintf("Blocked: `truncate` empties %s, a system file. Ask the user to do it themselves.", [pretty(p)])
}

ask contains {"id": "fs.truncate", "msg": msg} if {
	"wipe" in input.agentjail.kinds
	some cmd in commands
	cmd.name == "truncate"
	some p in cmd.paths
	outside(p)
	not in_system(p)
	msg := sprintf("`truncate` empties %s, outside the project; the user has to approve it.", [pretty(p)])
}

# mv of a home folder, the home directory or a system folder away.
deny contains {"id": "fs.move_away", "msg": msg} if {
	"wipe" in input.agentjail.kinds
	some cmd in commands
	cmd.name == "mv"
	count(cmd.paths) > 1
	some i, p in cmd.paths
	i < count(cmd.paths) - 1 # a source, not the destination
	not has_flag(cmd, {"t", "target-directory"})
	p in catastrophic_paths
	msg := sprintf("Blocked: `mv %s ...` moves a whole system or home folder away, which breaks everything that expects it there. Move only the specific files you created.", [pretty(p)])
}

# Wiping or re-encrypting disks.
deny contains {"id": "fs.wipe_disk", "msg": msg} if {
	"wipe" in input.agentjail.kinds
	some cmd in commands
	wipes_disk(cmd)
	not image_files_only(cmd)
	msg := sprintf("Blocked: `%s` erases a disk or its partition table. Ask the user to do this themselves.", [full_text(cmd)])
}

wipes_disk(cmd) if cmd.name == "blkdiscard"

wipes_disk(cmd) if {
	cmd.name == "sgdisk"
	has_option(cmd, {"Z", "zap-all", "z", "zap", "o", "clear", "d", "delete", "n", "new", "g", "mbrtogpt"})
}

wipes_disk(cmd) if {
	cmd.name == "cryptsetup"
	some w in positional(cmd)
	lower(w) in {"luksformat", "erase", "luckserase", "reencrypt", "luksremovekey", "lukskillslot"}
}

wipes_disk(cmd) if {
	cmd.name == "hdparm"
	has_option(cmd, {"security-erase", "security-erase-enhanced", "trim-sector-ranges"})
}

wipes_disk(cmd) if {
	cmd.name == "nvme"
	positional(cmd)[0] in {"format", "sanitize"}
}

wipes_disk(cmd) if {
	cmd.name == "zpool"
	positional(cmd)[0] in {"destroy", "labelclear"}
}

wipes_disk(cmd) if cmd.name in {"lvremove", "vgremove", "pvremove"}

wipes_disk(cmd) if {
	cmd.name == "mdadm"
	has_option(cmd, {"zero-superblock"})
}

# Removing a repository's history: .git itself, its objects or refs.
ask contains {"id": "fs.remove_git", "msg": msg} if {
	"rm" in input.agentjail.names
	some cmd in commands
	cmd.name == "rm"
	some p in cmd.paths
	regex.match(`(^|/)\.git(/(objects|refs|logs)(/.*)?)?$`, p)
	not in_temp(p) # a scratch copy's history, not the user's
	msg := sprintf("Deleting %s throws away the repository's history and unpushed commits; the user has to approve it.", [pretty(p)])
}

# World-writable system or secret files.
deny contains {"id": "fs.chmod_system", "msg": msg} if {
	"chmod" in input.agentjail.kinds
	some cmd in commands
	cmd.name == "chmod"
	some mode in cmd.operands
	mode in world_writable_modes
	some p in cmd.paths
	in_system(p)
	msg := sprintf("Blocked: `chmod %s` on %s lets every user change a system file, a way to root. Change only project files.", [mode, pretty(p)])
}
