package agentjail

# Privilege: setuid and capabilities that turn a program into a way to
# root, other ways to run as root, and switching the machine's firewall
# or security controls off.

# setuid_mode(m): a chmod mode that sets the setuid or setgid bit.
setuid_mode(m) if regex.match(`^[ugoa]*[+=][rwxXt]*s`, m)

setuid_mode(m) if regex.match(`^0?[2467][0-7]{3}$`, m)

deny contains {"id": "priv.setuid", "msg": msg} if {
	"chmod" in input.agentjail.kinds
	some cmd in commands
	cmd.name == "chmod"
	some m in cmd.operands
	some part in split(m, ",")
	setuid_mode(part)
	msg := sprintf("Blocked: `chmod %s` makes a program run as its owner (often root) for whoever starts it. Ask the user to do this themselves.", [m])
}

# Capabilities that amount to root.
root_capabilities := `(?i)cap_(setuid|setgid|sys_admin|dac_override|dac_read_search|sys_ptrace|chown|fowner|sys_module|sys_rawio|setfcap|bpf)`

deny contains {"id": "priv.setcap", "msg": msg} if {
	"firewall" in input.agentjail.kinds
	some cmd in commands
	cmd.name == "setcap"
	some a in cmd.args
	regex.match(root_capabilities, a)
	msg := sprintf("Blocked: `%s` grants a program a capability that amounts to root. Ask the user to do this themselves.", [full_text(cmd)])
}

ask contains {"id": "priv.setcap", "msg": msg} if {
	"firewall" in input.agentjail.kinds
	some cmd in commands
	cmd.name == "setcap"
	not has_flag(cmd, {"v"})
	not regex.match(root_capabilities, concat(" ", cmd.args))
	msg := sprintf("`%s` grants a program extra privileges; the user has to approve it.", [full_text(cmd)])
}

ask contains {"id": "priv.sudo", "msg": msg} if {
	"firewall" in input.agentjail.kinds
	some cmd in commands
	runs_as_root(cmd)
	msg := sprintf("`%s` runs commands as root or changes who may; the user has to approve it.", [full_text(cmd)])
}

runs_as_root(cmd) if cmd.name == "run0"

# A shell in privileged mode (-p) keeps the rights of the set-user-ID
# program that started it instead of dropping them: the spelling of a
# setuid escape (`find . -exec /bin/sh -p \;`), never of everyday work.
# fish's -p is its profiler, so it is not listed.
ask contains {"id": "priv.privileged_shell", "msg": msg} if {
	"shell" in input.agentjail.kinds
	some cmd in commands
	cmd.name in {"sh", "bash", "dash", "ksh", "mksh", "zsh", "ash"}
	"p" in cmd.flags
	msg := sprintf("`%s` starts a shell that keeps a set-user-ID program's rights (often root); the user has to approve it.", [full_text(cmd)])
}

runs_as_root(cmd) if {
	cmd.name in {"usermod", "gpasswd"}
	some a in cmd.args
	regex.match(`(^|,)(sudo|wheel|admin|root|docker|lxd|libvirt|disk|shadow)(,|$)`, a)
}

# Switching off the firewall or the system's security controls.
security_services := `^(firewalld|ufw|nftables|iptables|ip6tables|netfilter-persistent|apparmor|auditd|selinux|fail2ban|crowdsec|falcon-sensor|osqueryd|clamav-daemon|com\.apple\.alf)(\.service)?$`

deny contains {"id": "priv.firewall_off", "msg": msg} if {
	"firewall" in input.agentjail.kinds
	some cmd in commands
	disables_protection(cmd)
	msg := sprintf("Blocked: `%s` switches off the firewall or a security control of this machine. Ask the user to do this themselves.", [full_text(cmd)])
}

disables_protection(cmd) if {
	cmd.name == "ufw"
	positional(cmd)[0] in {"disable", "reset"}
}

disables_protection(cmd) if {
	cmd.name in {"systemctl", "service"}
	pos := positional(cmd)
	some verb in pos
	verb in {"stop", "disable", "mask", "kill"}
	some unit in pos
	regex.match(security_services, unit)
}

disables_protection(cmd) if {
	cmd.name in {"iptables", "ip6tables"}
	has_option(cmd, {"F", "flush", "X", "delete-chain"})
}

disables_protection(cmd) if {
	cmd.name in {"iptables", "ip6tables"}
	has_option(cmd, {"P", "policy"})
	"ACCEPT" in cmd.args
}

disables_protection(cmd) if {
	cmd.name == "nft"
	has_words(positional(cmd), "flush ruleset")
}

disables_protection(cmd) if {
	cmd.name == "pfctl"
	"-d" in cmd.args
}

disables_protection(cmd) if {
	cmd.name == "pfctl"
	some v in option_values(cmd, {"-F"})
	v in {"all", "rules"}
}

disables_protection(cmd) if {
	cmd.name == "spctl"
	has_option(cmd, {"master-disable", "global-disable", "disable"})
}

disables_protection(cmd) if {
	cmd.name == "csrutil"
	"disable" in positional(cmd)
}

disables_protection(cmd) if {
	cmd.name == "setenforce"
	positional(cmd)[0] in {"0", "Permissive", "permissive"}
}

disables_protection(cmd) if {
	cmd.name == "socketfilterfw"
	some v in option_values(cmd, {"--setglobalstate"})
	v == "off"
}

disables_protection(cmd) if cmd.name == "aa-teardown"

disables_protection(cmd) if {
	cmd.name == "firewall-cmd"
	has_option(cmd, {"panic-off", "set-default-zone"})
	some a in cmd.args
	regex.match(`trusted|panic-off`, a)
}

disables_protection(cmd) if {
	cmd.name == "netsh"
	some a in cmd.args
	lower(a) == "off"
}
