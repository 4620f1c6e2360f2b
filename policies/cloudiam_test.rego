package agentjail

# access_verbs: a verb found by its tool and word wherever it stands after
# the tool's options, with its conditions; look-alikes stay allowed.

test_create_access_key_denied if t_denied("cloud.credential_create", t_bash([t_cmd("aws", ["iam", "create-access-key", "--user-name", "ci"], [])]))

test_list_access_keys_allowed if not t_fired("cloud.credential_create", t_bash([t_cmd("aws", ["iam", "list-access-keys"], [])]))

# Past the tool's value options (--profile prod).
test_verb_after_global_option if t_denied("cloud.credential_create", t_bash([t_cmd("aws", ["--profile", "prod", "sts", "get-session-token"], [])]))

# A verb anywhere after the tool: any gcloud resource's IAM binding.
test_iam_binding_any_resource if t_asked("cloud.access_grant", t_bash([t_cmd("gcloud", ["storage", "buckets", "add-iam-policy-binding", "gs://b", "--member=user:a@b.c"], [])]))

test_get_iam_policy_allowed if not t_fired("cloud.access_grant", t_bash([t_cmd("gcloud", ["projects", "get-iam-policy", "p"], [])]))

# "match": every expression must match the arguments.
test_public_acl_asked if t_asked("cloud.public_access", t_bash([t_cmd("aws", ["s3api", "put-bucket-acl", "--bucket", "b", "--acl", "public-read"], [])]))

test_private_acl_allowed if not t_fired("cloud.public_access", t_bash([t_cmd("aws", ["s3api", "put-bucket-acl", "--bucket", "b", "--acl", "private"], [])]))

test_gh_api_collaborator_put_asked if t_asked("cloud.access_grant", t_bash([t_cmd("gh", ["api", "-X", "PUT", "repos/o/r/collaborators/eve"], [])]))

test_gh_api_collaborator_list_allowed if not t_fired("cloud.access_grant", t_bash([t_cmd("gh", ["api", "repos/o/r/collaborators"], [])]))

# "flags" and "unless".
test_ssm_decryption_asked if t_asked("tokens.secret_store", t_bash([t_cmd("aws", ["ssm", "get-parameter", "--name", "/p", "--with-decryption"], [])]))

test_ssm_plain_allowed if not t_fired("tokens.secret_store", t_bash([t_cmd("aws", ["ssm", "get-parameter", "--name", "/p"], [])]))

test_doppler_names_allowed if not t_fired("tokens.secret_store", t_bash([t_cmd("doppler", ["secrets", "--only-names"], [])]))

# "alone": doppler secrets, not doppler secrets set, and the manager's
# own value options (-c prd) do not count as words.
test_doppler_secrets_asked if t_asked("tokens.secret_store", t_bash([t_cmd("doppler", ["secrets", "-c", "prd"], [])]))

test_doppler_run_allowed if not t_fired("tokens.secret_store", t_bash([t_cmd("doppler", ["run", "--", "npm", "test"], [])]))

test_access_verb_at_alone if {
	access_verb_at(["doppler", "secrets"], 1, {"verb": "secrets", "alone": true})
	not access_verb_at(["doppler", "secrets", "set", "A=b"], 1, {"verb": "secrets", "alone": true})
}

# "secret": a later word must name a secret.
test_access_verb_at_secret if {
	access_verb_at(["terraform", "output", "db_password"], 1, {"verb": "output", "secret": true})
	not access_verb_at(["terraform", "output", "vpc_id"], 1, {"verb": "output", "secret": true})
}

# "*": any call of the tool, with its flags.
test_sops_decrypt_flag_asked if t_asked("tokens.secret_store", t_bash([t_cmd("sops", ["-d", "s.enc.yaml"], [])]))

test_sops_encrypt_allowed if not t_fired("tokens.secret_store", t_bash([t_cmd("sops", ["-e", "-i", "s.yaml"], [])]))

test_audit_off_denied if t_denied("cloud.audit_off", t_bash([t_cmd("aws", ["cloudtrail", "stop-logging", "--name", "t"], [])]))

# Every row has a known act and a verb unless it is a "*" row.
test_access_rows_well_formed if {
	every _, verbs in access_verbs {
		every key, rows in verbs {
			every row in rows {
				access_act_known(row.act)
				access_row_verb_ok(key, row)
			}
		}
	}
}

access_act_known(act) if act in {"credential", "audit_off", "grant", "public", "reveal"}

access_act_known(act) if cloud_act_what[act]

access_row_verb_ok(key, row) if {
	key == "*"
	not row.verb
}

access_row_verb_ok(key, row) if split(row.verb, " ")[0] == key
