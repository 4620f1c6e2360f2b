package agentjail

# Cloud and SaaS accounts reached through the credentials already on the
# machine: commands that mint a credential (an access key, a service
# account key, a temporary session), widen who can do what (policies,
# role bindings, users, deploy keys, collaborators), make data public, or
# read a value out of a secret manager. Listing names, describing, and
# running a program with the secrets injected stay allowed.

# access_verbs: per tool, per word, the verbs that do one of those acts,
# found wherever they stand after the tool's options (gcloud alpha
# secrets versions access, gcloud storage buckets add-iam-policy-binding).
# Keyed by tool and word like token_printer_index, so a call looks up its
# own words and most aws or gh calls match nothing. A row:
#   verb    the words, starting with the key ("*": any call of the tool)
#   act     credential, audit_off (deny); grant, public, reveal (ask);
#           and what cloud_acts (cloud.rego) asks about: remote_run,
#           scale_zero, spend, share, org_policy, pull, overwrite,
#           change_rows. A
#           command run remotely that the call shows (aws ssm
#           send-command, gcloud compute ssh --command, az vm
#           run-command invoke) is judged as it is (nested.rego); what
#           runs at a machine's start, or from a file, is asked about
#   alone   no positional word may follow the verb (doppler secrets)
#   secret  a positional word after the verb must name a secret, as
#           environment.rego's secret_var_pattern judges variable names
#           (terraform output db_password, not terraform output vpc_id)
#   flags   one of these options must be given (--with-decryption)
#   unless  none of these options may be given (--only-names)
#   match   regular expressions the arguments, joined by spaces, must
#           all match (--acl public-read, --cidr 0.0.0.0/0)
#   not_match  a regular expression they must not match (a private
#           network's address)
# A user's policy adds a tool by adding a key to this object.
# An endpoint on this machine (DynamoDB Local, LocalStack).
_local_endpoint := `--endpoint-url[ =]https?://(localhost|127\.[0-9.]+|\[::1\])[:/ ]`

# Identity providers' admin APIs written directly with an HTTP client
# (curl -X POST https://corp.okta.com/api/v1/users ...): the same acts
# as their CLIs, with none of their command lines.
_http_write := `(?i)(^|\s)(-X|--request)[ =]?(post|put|patch|delete)(\s|$)|(^|\s)(-d|--data|--data-raw|--data-binary|--data-urlencode|--json|-F|--form)(\s|=|$)|(^|\s)(post|put|patch|delete)(\s|$)`

_idp_grant_api := `(?i)(\.okta(preview|-emea)?\.com/api/v1/(users|groups|apps|idps|roles|iam|api-tokens|eventHooks|inlineHooks|mappings)|admin\.googleapis\.com/admin/directory/v1/(users|groups|roles|roleassignments)|graph\.microsoft\.com/\S*(users|groups|servicePrincipals|applications|appRoleAssignments|oauth2PermissionGrants|invitations)|\.auth0\.com/api/v2/(users|roles|clients|client-grants|grants))`

_idp_policy_api := `(?i)(\.okta(preview|-emea)?\.com/api/v1/(policies|zones|authorizationServers|trustedOrigins|org)|graph\.microsoft\.com/\S*(policies|conditionalAccess|federationConfiguration|roleManagement|directoryRoles)|admin\.googleapis\.com/admin/directory/v1/customer)`

_http_admin_rows := {"*": [
	{"verb": "*", "act": "org_policy", "match": [_idp_policy_api, _http_write]},
	{"verb": "*", "act": "grant", "match": [_idp_grant_api, _http_write], "not_match": _idp_policy_api},
]}

# A sync tool's source that is a shared drive or site, or one whose
# remote or path names production or the company's records (one's own
# backup restored passes).
_rclone_data_source := `(?i)^(copy|sync|copyto|move|moveto|bisync)\s+(-\S+\s+)*[A-Za-z0-9_-]*(prod|production|finance|hr|payroll|customers?|pii|legal|confidential|sharepoint|onedrive|teams|shared)[A-Za-z0-9_-]*:|^(copy|sync|copyto|move|moveto)\s+(-\S+\s+)*[A-Za-z0-9_-]+:\S*(prod|finance|hr|payroll|customers?|pii|legal|confidential|Shared)|--drive-shared-with-me`

access_verbs := {
	"rclone": {
		"copy": [{"verb": "copy", "act": "pull", "match": [_rclone_data_source]}],
		"sync": [{"verb": "sync", "act": "pull", "match": [_rclone_data_source]}],
		"copyto": [{"verb": "copyto", "act": "pull", "match": [_rclone_data_source]}],
		"move": [{"verb": "move", "act": "pull", "match": [_rclone_data_source]}],
	},
	"curl": _http_admin_rows,
	"http": _http_admin_rows,
	"https": _http_admin_rows,
	"xh": _http_admin_rows,
	"aws": {
		"iam": [
			{"verb": "iam create-access-key", "act": "credential"},
			{"verb": "iam create-login-profile", "act": "credential"},
			{"verb": "iam update-login-profile", "act": "credential"},
			{"verb": "iam create-service-specific-credential", "act": "credential"},
			{"verb": "iam reset-service-specific-credential", "act": "credential"},
			{"verb": "iam create-user", "act": "grant"},
			{"verb": "iam create-role", "act": "grant"},
			{"verb": "iam attach-user-policy", "act": "grant"},
			{"verb": "iam attach-role-policy", "act": "grant"},
			{"verb": "iam attach-group-policy", "act": "grant"},
			{"verb": "iam put-user-policy", "act": "grant"},
			{"verb": "iam put-role-policy", "act": "grant"},
			{"verb": "iam put-group-policy", "act": "grant"},
			{"verb": "iam update-assume-role-policy", "act": "grant"},
			{"verb": "iam add-user-to-group", "act": "grant"},
			{"verb": "iam create-policy-version", "act": "grant"},
			{"verb": "iam set-default-policy-version", "act": "grant"},
			{"verb": "iam add-role-to-instance-profile", "act": "grant"},
			{"verb": "iam upload-ssh-public-key", "act": "grant"},
			{"verb": "iam create-saml-provider", "act": "grant"},
			{"verb": "iam create-open-id-connect-provider", "act": "grant"},
			# A second factor removed is a login with the password alone.
			{"verb": "iam deactivate-mfa-device", "act": "grant"},
			{"verb": "iam delete-virtual-mfa-device", "act": "grant"},
		],
		"sts": [
			{"verb": "sts get-session-token", "act": "credential"},
			{"verb": "sts get-federation-token", "act": "credential"},
			{"verb": "sts assume-role", "act": "credential"},
			{"verb": "sts assume-role-with-web-identity", "act": "credential"},
			{"verb": "sts assume-role-with-saml", "act": "credential"},
		],
		"sso": [{"verb": "sso get-role-credentials", "act": "credential"}],
		"s3api": [
			{"verb": "s3api put-bucket-acl", "act": "public", "match": [`(?i)public-read|authenticated-read|/global/(AllUsers|AuthenticatedUsers)`]},
			{"verb": "s3api put-object-acl", "act": "public", "match": [`(?i)public-read|authenticated-read|/global/(AllUsers|AuthenticatedUsers)`]},
			{"verb": "s3api put-bucket-policy", "act": "grant"},
			{"verb": "s3api put-public-access-block", "act": "public", "match": [`(?i)(=|":\s*)false`]},
			{"verb": "s3api delete-public-access-block", "act": "public"},
			{"verb": "s3api get-object", "act": "pull", "match": [_bucket_option_of_data]},
			{"verb": "s3api put-bucket-versioning", "act": "backup_off", "match": [`(?i)Status=Suspended|"Status"\s*:\s*"Suspended"`]},
			{"verb": "s3api put-bucket-lifecycle-configuration", "act": "backup_off", "match": [`(?i)Expiration|NoncurrentVersionExpiration`]},
			{"verb": "s3api put-object-retention", "act": "backup_off", "match": [`(?i)bypass-governance-retention`]},
		],
		"s3control": [
			{"verb": "s3control put-public-access-block", "act": "public", "match": [`(?i)(=|":\s*)false`]},
			{"verb": "s3control delete-public-access-block", "act": "public"},
		],
		"ec2": [
			{"verb": "ec2 modify-snapshot-attribute", "act": "share", "match": [`(?i)--user-ids|UserId|--group-names|--operation-type[ =]add`]},
			{"verb": "ec2 modify-image-attribute", "act": "share", "match": [`(?i)--user-ids|UserId|--organization-arns|--operation-type[ =]add`]},
			{"verb": "ec2 modify-instance-attribute", "act": "remote_run", "match": [`(?i)user-?data`]},
			{"verb": "ec2 run-instances", "act": "spend", "match": [_aws_big_instances]},
			{"verb": "ec2 request-spot-fleet", "act": "spend"},
			{"verb": "ec2 create-fleet", "act": "spend"},
			{"verb": "ec2 request-spot-instances", "act": "spend", "match": [_aws_big_instances]},
			{"verb": "ec2 stop-instances", "act": "scale_zero"},
			{"verb": "ec2 modify-snapshot-attribute", "act": "public", "match": [`(?i)(^|[\s=:"])all($|[\s}\]"',])`]},
			{"verb": "ec2 modify-image-attribute", "act": "public", "match": [`(?i)(^|[\s=:"])all($|[\s}\]"',])`]},
			{"verb": "ec2 authorize-security-group-ingress", "act": "public", "match": [`0\.0\.0\.0/0|::/0`]},
			# Remote login and database ports opened to a named outside host.
			{"verb": "ec2 authorize-security-group-ingress", "act": "public", "match": [`(?i)(FromPort=|--port[ =])(22|3389|5432|3306|1433|6379|27017|9200)\b`, `(?i)CidrIp=|--cidr[ =]`], "not_match": `(?i)(CidrIp=|--cidr[ =])(10\.|127\.|192\.168\.|172\.(1[6-9]|2[0-9]|3[01])\.)|--source-group`},
			{"verb": "ec2 run-instances", "act": "remote_run", "match": [`(?i)--user-data`]},
			# A machine given a role hands the role to whoever logs in to it.
			{"verb": "ec2 run-instances", "act": "grant", "match": [`(?i)--iam-instance-profile`]},
			{"verb": "ec2 associate-iam-instance-profile", "act": "grant"},
			{"verb": "ec2 replace-iam-instance-profile-association", "act": "grant"},
			{"verb": "ec2 create-image", "act": "copy_out"},
			{"verb": "ec2 create-traffic-mirror-session", "act": "copy_out"},
			{"verb": "ec2 create-traffic-mirror-target", "act": "copy_out"},
		],
		"rds": [
			{"verb": "rds modify-db-snapshot-attribute", "act": "share", "match": [`--values-to-add`]},
			{"verb": "rds modify-db-cluster-snapshot-attribute", "act": "share", "match": [`--values-to-add`]},
			{"verb": "rds stop-db-instance", "act": "scale_zero"},
			{"verb": "rds stop-db-cluster", "act": "scale_zero"},
			{"verb": "rds modify-db-instance", "act": "backup_off", "match": [`--backup-retention-period[ =]0(\s|$)|--no-deletion-protection`]},
			{"verb": "rds modify-db-cluster", "act": "backup_off", "match": [`--backup-retention-period[ =]0(\s|$)|--no-deletion-protection`]},
			{"verb": "rds modify-db-snapshot-attribute", "act": "public", "match": [`(?i)(^|[\s=:"])all($|[\s}\]"',])`]},
			{"verb": "rds modify-db-cluster-snapshot-attribute", "act": "public", "match": [`(?i)(^|[\s=:"])all($|[\s}\]"',])`]},
		],
		"lambda": [
			{"verb": "lambda update-function-code", "act": "replace_code", "match": [_prod_name]},
			{"verb": "lambda update-function-code", "act": "replace_code", "match": [`(?i)fileb?://(/tmp/|/var/tmp/|/dev/shm/|\S*/\.)`]},
			{"verb": "lambda update-function-configuration", "act": "replace_code", "match": [_prod_name, `(?i)--(layers|handler|runtime)`]},
			# The whole configuration, or its environment, holds the
			# function's secrets (as heroku config does an app's).
			{"verb": "lambda get-function-configuration", "act": "reveal", "unless": {"query"}},
			{"verb": "lambda get-function-configuration", "act": "reveal", "match": [`(?i)--query[ =]\S*environment`]},
			{"verb": "lambda add-permission", "act": "public", "match": [`--principal[ =]\*`]},
			{"verb": "lambda create-function-url-config", "act": "public", "match": [`(?i)--auth-type[ =]NONE`]},
		],
		"ec2-instance-connect": [
			{"verb": "ec2-instance-connect send-ssh-public-key", "act": "grant"},
			{"verb": "ec2-instance-connect send-serial-console-ssh-public-key", "act": "grant"},
		],
		"ecs": [
			{"verb": "ecs update-service", "act": "scale_zero", "match": [`--desired-count[ =]0(\s|$)`]},
		],
		"autoscaling": [
			{"verb": "autoscaling update-auto-scaling-group", "act": "scale_zero", "match": [`--(desired-capacity|max-size)[ =]0(\s|$)`]},
			{"verb": "autoscaling set-desired-capacity", "act": "scale_zero", "match": [`--desired-capacity[ =]0(\s|$)`]},
			{"verb": "autoscaling set-desired-capacity", "act": "spend", "match": [_hundreds]},
			{"verb": "autoscaling update-auto-scaling-group", "act": "spend", "match": [_hundreds]},
		],
		"eks": [
			{"verb": "eks update-nodegroup-config", "act": "scale_zero", "match": [`(?i)(maxSize|desiredSize)=0(\D|$)`]},
			{"verb": "eks associate-access-policy", "act": "grant"},
			{"verb": "eks create-access-entry", "act": "grant"},
		],
		"organizations": [
			{"verb": "organizations attach-policy", "act": "org_policy"},
			{"verb": "organizations detach-policy", "act": "org_policy"},
			{"verb": "organizations update-policy", "act": "org_policy"},
			{"verb": "organizations delete-policy", "act": "org_policy"},
			{"verb": "organizations disable-policy-type", "act": "org_policy"},
			{"verb": "organizations leave-organization", "act": "org_policy"},
			{"verb": "organizations remove-account-from-organization", "act": "org_policy"},
			{"verb": "organizations invite-account-to-organization", "act": "org_policy"},
		],
		"s3": [
			# Infrastructure state holds the passwords and keys the code
			# created; a production, customer or backup bucket the
			# company's data.
			{"verb": "s3 cp", "act": "reveal", "match": [`(?i)s3://\S*\.tfstate`]},
			{"verb": "s3 cp", "act": "pull", "match": [_bucket_of_data_read]},
			{"verb": "s3 sync", "act": "pull", "match": [_bucket_of_data_read]},
			{"verb": "s3 presign", "act": "share", "match": [_bucket_of_data_read]},
			# A search for secrets across a bucket, whatever its name.
			{"verb": "s3 cp", "act": "pull", "match": [_secret_include]},
			{"verb": "s3 sync", "act": "pull", "match": [_secret_include]},
			{"verb": "s3 cp", "act": "public", "match": [`(?i)--acl[ =](public-read|public-read-write|authenticated-read)`]},
			{"verb": "s3 sync", "act": "public", "match": [`(?i)--acl[ =](public-read|public-read-write|authenticated-read)`]},
			{"verb": "s3 cp", "act": "overwrite"},
			{"verb": "s3 sync", "act": "overwrite"},
			{"verb": "s3 mv", "act": "overwrite"},
		],
		# A certificate's private key, out of the account.
		"acm": [{"verb": "acm export-certificate", "act": "credential"}],
		# Items of a managed table changed in place: what the service's
		# users are shown (an order's amount, a user's role). DynamoDB
		# Local, on this machine, is the developer's own.
		"dynamodb": [
			{"verb": "dynamodb update-continuous-backups", "act": "backup_off", "match": [`(?i)PointInTimeRecoveryEnabled=false`]},
			{"verb": "dynamodb update-item", "act": "change_rows", "not_match": _local_endpoint},
			{"verb": "dynamodb delete-item", "act": "change_rows", "not_match": _local_endpoint},
			{"verb": "dynamodb put-item", "act": "change_rows", "not_match": _local_endpoint},
			{"verb": "dynamodb batch-write-item", "act": "change_rows", "not_match": _local_endpoint},
			{"verb": "dynamodb transact-write-items", "act": "change_rows", "not_match": _local_endpoint},
			{"verb": "dynamodb execute-statement", "act": "change_rows", "match": [`(?i)\b(update|delete)\b`], "not_match": _local_endpoint},
		],
		"rds-data": [{"verb": "rds-data execute-statement", "act": "change_rows", "match": [`(?i)\b(update|delete|truncate|drop)\b`]}],
		"backup": [
			{"verb": "backup delete-backup-vault", "act": "backup_off"},
			{"verb": "backup delete-recovery-point", "act": "backup_off"},
			{"verb": "backup delete-backup-plan", "act": "backup_off"},
		],
		"cloudtrail": [
			{"verb": "cloudtrail stop-logging", "act": "audit_off"},
			{"verb": "cloudtrail delete-trail", "act": "audit_off"},
			# Selectors that record nothing of what is managed.
			{"verb": "cloudtrail put-event-selectors", "act": "audit_off", "match": [`(?i)IncludeManagementEvents"?\s*[:=]\s*false|ReadWriteType"?\s*[:=]\s*"?None`]},
		],
		"configservice": [
			{"verb": "configservice stop-configuration-recorder", "act": "audit_off"},
			{"verb": "configservice delete-configuration-recorder", "act": "audit_off"},
		],
		"guardduty": [
			{"verb": "guardduty delete-detector", "act": "audit_off"},
			{"verb": "guardduty update-detector", "act": "audit_off", "flags": {"no-enable"}},
		],
		"secretsmanager": [
			{"verb": "secretsmanager delete-secret", "act": "backup_off", "match": [`--force-delete-without-recovery`]},
			{"verb": "secretsmanager get-secret-value", "act": "reveal"},
			{"verb": "secretsmanager batch-get-secret-value", "act": "reveal"},
		],
		"ssm": [
			# PowerShell is not judged here as shell commands are.
			{"verb": "ssm send-command", "act": "remote_run", "match": [`(?i)PowerShell`]},
			# Every machine that carries a tag at once: a fleet's change,
			# not the one command it shows.
			{"verb": "ssm send-command", "act": "remote_run", "match": [`--targets`]},
			{"verb": "ssm start-session", "act": "remote_run"},
			{"verb": "ssm create-association", "act": "remote_run"},
			{"verb": "ssm get-parameter", "act": "reveal", "flags": {"with-decryption"}},
			{"verb": "ssm get-parameters", "act": "reveal", "flags": {"with-decryption"}},
			{"verb": "ssm get-parameters-by-path", "act": "reveal", "flags": {"with-decryption"}},
			{"verb": "ssm get-parameter-history", "act": "reveal", "flags": {"with-decryption"}},
		],
	},
	"aws-vault": {"export": [{"verb": "export", "act": "credential"}]},
	"gcloud": {
		"iam": [
			{"verb": "iam service-accounts keys create", "act": "credential"},
			{"verb": "iam service-accounts create", "act": "grant"},
			{"verb": "iam service-accounts add-iam-policy-binding", "act": "grant"},
			{"verb": "iam workload-identity-pools providers create-oidc", "act": "grant"},
			{"verb": "iam workload-identity-pools providers create-aws", "act": "grant"},
			{"verb": "iam workload-identity-pools providers create-saml", "act": "grant"},
			{"verb": "iam service-accounts add-iam-policy-binding", "act": "grant"},
		],
		"compute": [
			{"verb": "compute instances add-metadata", "act": "remote_run", "match": [_startup_script]},
			{"verb": "compute instances create", "act": "remote_run", "match": [_startup_script]},
			{"verb": "compute project-info add-metadata", "act": "remote_run", "match": [_startup_script]},
			{"verb": "compute connect-to-serial-port", "act": "remote_run"},
			{"verb": "compute instances add-metadata", "act": "grant", "match": [`(?i)serial-port-enable`]},
			{"verb": "compute project-info add-metadata", "act": "grant", "match": [`(?i)serial-port-enable`]},
			{"verb": "compute instances add-metadata", "act": "grant", "match": [`(?i)ssh-keys`]},
			{"verb": "compute project-info add-metadata", "act": "grant", "match": [`(?i)ssh-keys`]},
			{"verb": "compute instances create", "act": "spend", "match": [_gcp_big_machines]},
			{"verb": "compute instance-templates create", "act": "spend", "match": [_gcp_big_machines]},
			{"verb": "compute firewall-rules create", "act": "public", "match": [`0\.0\.0\.0/0|::/0|--allow[ =]all(\s|$)`]},
			{"verb": "compute firewall-rules update", "act": "public", "match": [`0\.0\.0\.0/0|::/0`]},
			{"verb": "compute instances stop", "act": "scale_zero"},
			{"verb": "compute instance-groups managed resize", "act": "scale_zero", "match": [`--size[ =]0(\s|$)`]},
			{"verb": "compute disks snapshot", "act": "copy_out"},
			{"verb": "compute snapshots create", "act": "copy_out"},
			{"verb": "compute images create", "act": "copy_out"},
			{"verb": "compute machine-images create", "act": "copy_out"},
			{"verb": "compute packet-mirrorings create", "act": "copy_out"},
			{"verb": "compute instances create", "act": "grant", "match": [`(?i)--scopes[ =]\S*cloud-platform`]},
		],
		"run": [{"verb": "run services update", "act": "scale_zero", "match": [`--max-instances[ =]0(\s|$)`]}],
		"container": [{"verb": "container clusters resize", "act": "scale_zero", "match": [`--num-nodes[ =]0(\s|$)`]}],
		"spanner": [{"verb": "spanner databases execute-sql", "act": "change_rows", "match": [`(?i)--sql[ =]\S*\s*(update|delete)\b`]}],
		"firestore": [{"verb": "firestore bulk-delete", "act": "change_rows"}],
		"sql": [
			{"verb": "sql instances patch", "act": "public", "match": [`--authorized-networks[ =]\S*0\.0\.0\.0/0`]},
			{"verb": "sql instances patch", "act": "scale_zero", "match": [`(?i)--activation-policy[ =]NEVER`]},
			{"verb": "sql instances patch", "act": "backup_off", "match": [`--no-backup|--no-deletion-protection|--retained-backups-count[ =]0(\s|$)`]},
		],
		"resource-manager": [
			{"verb": "resource-manager org-policies disable-enforce", "act": "org_policy"},
			{"verb": "resource-manager org-policies set-policy", "act": "org_policy"},
			{"verb": "resource-manager org-policies delete", "act": "org_policy"},
			{"verb": "resource-manager org-policies allow", "act": "org_policy"},
		],
		"org-policies": [
			{"verb": "org-policies set-policy", "act": "org_policy"},
			{"verb": "org-policies reset", "act": "org_policy"},
			{"verb": "org-policies delete", "act": "org_policy"},
		],
		"storage": [
			{"verb": "storage cp", "act": "reveal", "match": [`(?i)gs://\S*\.tfstate`]},
			{"verb": "storage cp", "act": "pull", "match": [_bucket_of_data_read]},
			{"verb": "storage rsync", "act": "pull", "match": [_bucket_of_data_read]},
			{"verb": "storage cp", "act": "overwrite"},
			{"verb": "storage rsync", "act": "overwrite"},
		],
		"add-iam-policy-binding": [
			{"verb": "add-iam-policy-binding", "act": "grant"},
			{"verb": "add-iam-policy-binding", "act": "public", "match": [`(?i)allUsers|allAuthenticatedUsers`]},
		],
		"set-iam-policy": [{"verb": "set-iam-policy", "act": "grant"}],
		"secrets": [{"verb": "secrets versions access", "act": "reveal"}],
		"logging": [
			{"verb": "logging sinks delete", "act": "audit_off"},
			{"verb": "logging sinks update", "act": "audit_off", "flags": {"disabled"}},
		],
	},
	"gsutil": {
		"cp": [
			{"verb": "cp", "act": "reveal", "match": [`(?i)gs://\S*\.tfstate`]},
			{"verb": "cp", "act": "pull", "match": [_bucket_of_data_read]},
			{"verb": "cp", "act": "overwrite"},
		],
		"rsync": [{"verb": "rsync", "act": "pull", "match": [_bucket_of_data_read]}, {"verb": "rsync", "act": "overwrite"}],
		"iam": [
			{"verb": "iam ch", "act": "public", "match": [`(?i)allUsers|allAuthenticatedUsers`]},
			{"verb": "iam set", "act": "grant"},
		],
		"acl": [{"verb": "acl ch", "act": "public", "match": [`(?i)allUsers|allAuthenticatedUsers`]}],
	},
	"az": {
		"vm": [
			{"verb": "vm run-command create", "act": "remote_run"},
			{"verb": "vm extension set", "act": "remote_run", "match": [`(?i)CustomScript|RunCommand`]},
			{"verb": "vm create", "act": "remote_run", "match": [`(?i)--custom-data|--user-data`]},
			{"verb": "vm create", "act": "spend", "match": [_az_big_sizes]},
			# A new machine that a key from a temp folder or written on the
			# line logs in to, or with a password on the line.
			{"verb": "vm create", "act": "grant", "match": [`(?i)--ssh-key-values?[ =]['"]?(@?/tmp/|@?/var/tmp/|@?/dev/shm/|ssh-(ed25519|rsa|ecdsa|dss))|--admin-password`]},
			{"verb": "vm user update", "act": "grant"},
			{"verb": "vm stop", "act": "scale_zero"},
			{"verb": "vm deallocate", "act": "scale_zero"},
		],
		"vmss": [
			{"verb": "vmss extension set", "act": "remote_run", "match": [`(?i)CustomScript|RunCommand`]},
			{"verb": "vmss create", "act": "spend", "match": [_az_big_sizes]},
			{"verb": "vmss scale", "act": "scale_zero", "match": [`--new-capacity[ =]0(\s|$)`]},
			# On every machine of a scale set at once: judged as a fleet's
			# change, not as the one command it is.
			{"verb": "vmss run-command invoke", "act": "remote_run"},
		],
		"aks": [
			{"verb": "aks command invoke", "act": "remote_run"},
			{"verb": "aks scale", "act": "scale_zero", "match": [`--node-count[ =]0(\s|$)`]},
			{"verb": "aks nodepool scale", "act": "scale_zero", "match": [`--node-count[ =]0(\s|$)`]},
			{"verb": "aks nodepool update", "act": "scale_zero", "match": [`--max-count[ =]0(\s|$)`]},
			{"verb": "aks stop", "act": "scale_zero"},
		],
		"containerapp": [
			{"verb": "containerapp exec", "act": "remote_run"},
			{"verb": "containerapp update", "act": "scale_zero", "match": [`--max-replicas[ =]0(\s|$)`]},
		],
		"webapp": [
			{"verb": "webapp stop", "act": "scale_zero"},
			{"verb": "webapp config appsettings list", "act": "reveal"},
			{"verb": "webapp deployment list-publishing-credentials", "act": "credential"},
		],
		"functionapp": [
			{"verb": "functionapp stop", "act": "scale_zero"},
			{"verb": "functionapp config appsettings list", "act": "reveal"},
			{"verb": "functionapp keys list", "act": "credential"},
		],
		"network": [
			{"verb": "network nsg rule create", "act": "public", "match": [_az_anywhere]},
			{"verb": "network nsg rule update", "act": "public", "match": [_az_anywhere]},
		],
		"sql": [{"verb": "sql server firewall-rule create", "act": "public", "match": [`--end-ip-address[ =]255\.255\.255\.255`]}],
		"snapshot": [{"verb": "snapshot grant-access", "act": "share"}, {"verb": "snapshot create", "act": "copy_out"}],
		"image": [{"verb": "image create", "act": "copy_out"}],
		"disk": [{"verb": "disk grant-access", "act": "share"}],
		"policy": [
			{"verb": "policy assignment delete", "act": "org_policy"},
			{"verb": "policy exemption create", "act": "org_policy"},
			{"verb": "policy definition delete", "act": "org_policy"},
		],
		"identity": [{"verb": "identity federated-credential create", "act": "grant"}],
		"ad": [
			{"verb": "ad app federated-credential create", "act": "grant"},
			{"verb": "ad sp create-for-rbac", "act": "credential"},
			{"verb": "ad sp credential reset", "act": "credential"},
			{"verb": "ad app credential reset", "act": "credential"},
			{"verb": "ad user create", "act": "grant"},
			{"verb": "ad user update", "act": "credential", "match": [`--password`]},
			{"verb": "ad group member add", "act": "grant"},
			{"verb": "ad app permission grant", "act": "grant"},
			{"verb": "ad app permission admin-consent", "act": "grant"},
		],
		"role": [{"verb": "role assignment create", "act": "grant"}],
		# Microsoft Graph written directly: the tenant's policies, its
		# conditional access, federation and roles.
		"rest": [{"verb": "rest", "act": "org_policy", "match": [
			`(?i)graph\.microsoft\.com/\S*(policies|conditionalAccess|federationConfiguration|roleManagement|directoryRoles)`,
			`(?i)(--method|-m)[ =]?(patch|post|put|delete)(\s|$)`,
		]}],
		"keyvault": [
			{"verb": "keyvault set-policy", "act": "grant"},
			{"verb": "keyvault secret show", "act": "reveal"},
			{"verb": "keyvault secret download", "act": "reveal"},
		],
		"storage": [
			{"verb": "storage blob download", "act": "reveal", "match": [`(?i)\.tfstate`]},
			{"verb": "storage blob download-batch", "act": "pull", "match": [_az_container_of_data]},
			{"verb": "storage blob download", "act": "pull", "match": [_az_container_of_data]},
			{"verb": "storage blob upload", "act": "overwrite_live", "match": [_az_live_container]},
			{"verb": "storage blob upload-batch", "act": "overwrite_live", "match": [_az_live_container]},
			{"verb": "storage blob sync", "act": "overwrite_live", "match": [_az_live_container]},
			{"verb": "storage container generate-sas", "act": "share"},
			{"verb": "storage blob generate-sas", "act": "share"},
			{"verb": "storage account generate-sas", "act": "share"},
			{"verb": "storage account keys list", "act": "credential"},
			{"verb": "storage container set-permission", "act": "public", "match": [`(?i)--public-access[ =](blob|container)`]},
			{"verb": "storage account update", "act": "public", "match": [`(?i)--allow-blob-public-access[ =]true`]},
		],
		"acr": [{"verb": "acr credential show", "act": "credential"}],
		"monitor": [{"verb": "monitor diagnostic-settings delete", "act": "audit_off"}],
	},
	"gh": {
		"repo": [{"verb": "repo deploy-key add", "act": "grant"}],
		"ssh-key": [{"verb": "ssh-key add", "act": "grant"}],
		# gh api sends a POST as soon as it is given fields.
		"api": [{"verb": "api", "act": "grant", "match": [
			`(^|\s)/?(repos/[^/\s]+/[^/\s]+/(collaborators/|keys)|orgs/[^/\s]+/(memberships/|invitations|outside_collaborators/|teams/[^/\s]+/memberships/)|user/(keys|ssh_signing_keys))`,
			`(?i)(^|\s)(-X|--method)[ =]?(PUT|POST|PATCH)(\s|$)|(^|\s)(-f|-F|--field|--raw-field|--input)(\s|=|$)`,
		]}],
	},
	"glab": {
		"token": [{"verb": "token create", "act": "credential"}],
		"deploy-key": [{"verb": "deploy-key add", "act": "grant"}],
		"ssh-key": [{"verb": "ssh-key add", "act": "grant"}],
		# glab api, like gh api, sends a POST as soon as it is given fields.
		"api": [{"verb": "api", "act": "grant", "match": [
			`(^|\s)/?(projects|groups)/\S+/(members|invitations|deploy_keys|access_tokens)`,
			`(?i)(^|\s)(-X|--method)[ =]?(PUT|POST|PATCH)(\s|$)|(^|\s)(-f|-F|--field|--raw-field|--input)(\s|=|$)`,
		]}],
	},
	# kubectl create token (a short-lived service-account token) is
	# containers.rego's k8s.token, an ask.
	"kubectl": {
		"create": [
			{"verb": "create clusterrolebinding", "act": "grant"},
			{"verb": "create rolebinding", "act": "grant"},
		],
		"patch": [{"verb": "patch clusterrolebinding", "act": "grant"}, {"verb": "patch rolebinding", "act": "grant"}, {"verb": "patch clusterrole", "act": "grant"}],
		"edit": [{"verb": "edit clusterrolebinding", "act": "grant"}, {"verb": "edit clusterrole", "act": "grant"}],
	},
	"vault": vault_verbs,
	"bao": vault_verbs, # OpenBao, vault's fork, keeps its commands
	"conjur": {"variable": [{"verb": "variable get", "act": "reveal"}]},
	"akeyless": {"get-secret-value": [{"verb": "get-secret-value", "act": "reveal"}]},
	# Infrastructure state and outputs hold the passwords and keys the
	# code created: all outputs at once, or one whose name says so.
	"terraform": {
		"output": [{"verb": "output", "act": "reveal", "alone": true, "flags": {"json"}}, {"verb": "output", "act": "reveal", "secret": true}],
		"state": [{"verb": "state pull", "act": "reveal"}],
	},
	"tofu": {
		"output": [{"verb": "output", "act": "reveal", "alone": true, "flags": {"json"}}, {"verb": "output", "act": "reveal", "secret": true}],
		"state": [{"verb": "state pull", "act": "reveal"}],
	},
	"pulumi": {
		"stack": [
			{"verb": "stack output", "act": "reveal", "flags": {"show-secrets"}},
			{"verb": "stack export", "act": "reveal", "flags": {"show-secrets"}},
		],
		"config": [{"verb": "config", "act": "reveal", "flags": {"show-secrets"}}, {"verb": "config get", "act": "reveal", "secret": true}],
	},
	"doppler": {"secrets": [
		{"verb": "secrets", "act": "reveal", "alone": true, "unless": {"only-names"}},
		{"verb": "secrets get", "act": "reveal"},
		{"verb": "secrets download", "act": "reveal"},
	]},
	"infisical": {
		"export": [{"verb": "export", "act": "reveal"}],
		"secrets": [{"verb": "secrets", "act": "reveal", "alone": true}, {"verb": "secrets get", "act": "reveal"}],
	},
	"railway": {"variables": [
		{"verb": "variables", "act": "reveal", "alone": true, "unless": {"set"}},
		{"verb": "variables get", "act": "reveal"},
	]},
	"heroku": {"config:get": [{"verb": "config:get", "act": "reveal"}]},
	"vercel": {"env": [{"verb": "env pull", "act": "reveal"}]},
	"netlify": {
		"env:get": [{"verb": "env:get", "act": "reveal"}],
		"env:list": [{"verb": "env:list", "act": "reveal", "flags": {"plain", "json"}}],
	},
	"firebase": {"functions:config:get": [{"verb": "functions:config:get", "act": "reveal"}]},
	"sops": {
		"*": [{"act": "reveal", "flags": {"d", "decrypt"}}],
		"decrypt": [{"verb": "decrypt", "act": "reveal"}],
	},
	"chamber": {
		"read": [{"verb": "read", "act": "reveal"}],
		"export": [{"verb": "export", "act": "reveal"}],
		"env": [{"verb": "env", "act": "reveal"}],
	},
	"bws": {"secret": [{"verb": "secret get", "act": "reveal"}, {"verb": "secret list", "act": "reveal"}]},
	"oci": {"secrets": [{"verb": "secrets secret-bundle get", "act": "reveal"}]},
	"kubeseal": {"*": [{"act": "reveal", "flags": {"recovery-unseal"}}]},
}

# _startup_script: metadata that runs a program when a machine starts.
_startup_script := `(?i)(startup|shutdown)-script|windows-startup-script|sysprep-specialize-script`

# The instances that cost the most an hour (GPU and accelerator
# families, the largest memory ones), or ten at once and more.
_aws_big_instances := `(?i)--instance-type[ =](p[2-6]|g[3-6]|trn[12]|inf[12]|dl[12]|x2|u-|u7)|--count[ =]([1-9][0-9]+)`

_gcp_big_machines := `(?i)--accelerator|--machine-type[ =](a2|a3|a4|g2|ct[0-9]|m[1-3]-)`

_az_big_sizes := `(?i)--size[ =]Standard_N|--instance-count[ =][1-9][0-9]+|--count[ =][1-9][0-9]+`

# A rule that lets in the whole internet.
_az_anywhere := `(?i)--source-address-prefix(es)?[ =]['"]?(\*|0\.0\.0\.0/0|Internet|Any)(['"\s]|$)`

# A copy out of a bucket whose name says it holds production, customer
# or backup data: the data leaves the account's controls.
_bucket_of_data_read := `(?i)(s3|gs)://([^/\s]*[-_.])?(prod|production|customers?|backups?|pii|billing|payroll|finance|users|internal|confidential|private|secrets?|vault|hr|legal)([-_.][^/\s]*)?(/|\s|$)`

# The same names given as s3api's --bucket.
_bucket_option_of_data := `(?i)--bucket[ =]([^/\s]*[-_.])?(prod|production|customers?|backups?|pii|billing|payroll|finance|users|internal|confidential|private|secrets?|vault|hr|legal)([-_.][^/\s]*)?(\s|$)`

# --include patterns that pick secrets out of a bucket.
_secret_include := `(?i)--include[ =]['"]?\S*(passw|secret|cred|token|\.pem|\.key|id_rsa|\.env)`

_az_container_of_data := `(?i)(-s|--source|-c|--container-name)[ =]([^\s]*[-_.])?(prod|production|customers?|backups?|pii|billing|payroll|finance|users)([-_.]\S*)?(\s|$)|--account-name[ =]\S*(prod|customer|backup|billing|payroll|finance)`

# An Azure site's container ($web), or a production account's.
_az_live_container := `(?i)(-c|--container-name|-d|--destination)[ =]'?\$web|--account-name[ =]\S*(prod|live)`

# A resource named for production.
_prod_name := `(?i)--(function-name|name|service|cluster)[ =]([^\s]*[-_.])?(prod|production|live|prd)([-_.\s]|$)`

# A hundred machines and more at once.
_hundreds := `--(desired-capacity|max-size|count)[ =][1-9][0-9]{2,}(\s|$)`

vault_verbs := {
	"kv": [{"verb": "kv get", "act": "reveal"}],
	"read": [{"verb": "read", "act": "reveal"}],
	"token": [{"verb": "token create", "act": "credential"}],
}

program_group contains [prog, "access"] if some prog, _ in access_verbs

# access_hits are the [command, row] pairs of the call: each command
# read as a tool and its verbs (invocations: npx vercel env pull too).
# Worked out once per call for the four rules below.
access_hits contains [cmd, row] if {
	"access" in input.agentjail.kinds
	some cmd in commands
	some words in invocations(cmd)
	verbs := access_verbs[words[0]]
	some row in access_rows(verbs, words)
	access_options(cmd, row)
}

access_rows(verbs, words) := {row |
	some i, w in words
	i > 0
	some row in verbs[w]
	access_verb_at(words, i, row)
} | {row | some row in object.get(verbs, "*", [])}

# access_verb_at(words, i, row): row's verb starts at words[i] (and,
# for an "alone" row, ends the words).
access_verb_at(words, i, row) if {
	want := split(row.verb, " ")
	array.slice(words, i, i + count(want)) == want
	not row.alone
	not row.secret
}

access_verb_at(words, i, row) if {
	want := split(row.verb, " ")
	array.slice(words, i, i + count(want)) == want
	row.secret
	some w in array.slice(words, i + count(want), count(words))
	regex.match(secret_var_pattern, w)
}

access_verb_at(words, i, row) if {
	want := split(row.verb, " ")
	array.slice(words, i, i + count(want)) == want
	row.alone
	count(words) == i + count(want)
}

access_options(cmd, row) if {
	access_flags(cmd, row)
	not access_unless(cmd, row)
	line := concat(" ", cmd.args)
	every re in object.get(row, "match", []) {
		regex.match(re, line)
	}
	not regex.match(object.get(row, "not_match", "$^"), line)
}

access_flags(_, row) if not row.flags

access_flags(cmd, row) if has_option(cmd, row.flags)

access_unless(cmd, row) if has_option(cmd, row.unless)

deny contains {"id": "cloud.credential_create", "msg": msg} if {
	"access" in input.agentjail.kinds # answered by the rule index
	some [cmd, row] in access_hits
	row.act == "credential"
	msg := sprintf("Blocked: `%s` creates or prints a new credential for a cloud or SaaS account (an access key, a service account key, a token, a password); it would land in the transcript and outlive the task. Use the credentials already configured (--profile, the tool's login), or ask the user to create the credential and store it where the tool reads it.", [full_text(cmd)])
}

# T1562.008: the account's audit trail switched off or deleted; what
# happens next, the agent's acts included, leaves no record.
deny contains {"id": "cloud.audit_off", "msg": msg} if {
	"access" in input.agentjail.kinds # answered by the rule index
	some [cmd, row] in access_hits
	row.act == "audit_off"
	msg := sprintf("Blocked: `%s` switches off or deletes a cloud account's audit logging or threat detection, and what happens meanwhile is never recorded. Tell the user the change you need.", [full_text(cmd)])
}

ask contains {"id": "cloud.access_grant", "msg": msg} if {
	"access" in input.agentjail.kinds # answered by the rule index
	some [cmd, row] in access_hits
	row.act == "grant"
	msg := sprintf("`%s` widens who can do what in a cloud or SaaS account (a user, role, policy, key or collaborator); the user has to approve it. Reading policies (get-*, list-*) needs no approval.", [full_text(cmd)])
}

ask contains {"id": "cloud.public_access", "msg": msg} if {
	"access" in input.agentjail.kinds # answered by the rule index
	some [cmd, row] in access_hits
	row.act == "public"
	msg := sprintf("`%s` makes cloud data or a service reachable by anyone on the internet; the user has to approve it.", [full_text(cmd)])
}

ask contains {"id": "tokens.secret_store", "msg": msg} if {
	"access" in input.agentjail.kinds # answered by the rule index
	some [cmd, row] in access_hits
	row.act == "reveal"
	msg := sprintf("`%s` reads secret values out of a secret manager into the transcript; the user has to approve it. Listing the names needs no approval, and a program that needs the values can be started through the manager (doppler run -- CMD).", [full_text(cmd)])
}
