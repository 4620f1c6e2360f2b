package agentjail

test_aws_terminate_asked if t_asked("cloud.destroy", t_bash([t_cmd("aws", ["ec2", "terminate-instances", "--instance-ids", "i-1"], [])]))

test_aws_s3_rb_asked if t_asked("cloud.destroy", t_bash([t_cmd("aws", ["s3", "rb", "--force", "s3://b"], [])]))

test_aws_s3_ls_allowed if not t_fired("cloud.destroy", t_bash([t_cmd("aws", ["s3", "ls"], [])]))

test_terraform_destroy_asked if t_asked("cloud.destroy", t_bash([t_cmd("terraform", ["destroy"], [])]))

test_terraform_plan_allowed if not t_fired("cloud.destroy", t_bash([t_cmd("terraform", ["plan"], [])]))

test_kubectl_delete_namespace_asked if t_asked("cloud.destroy", t_bash([t_cmd("kubectl", ["delete", "namespace", "prod"], [])]))

test_kubectl_delete_pod_allowed if not t_fired("cloud.destroy", t_bash([t_cmd("kubectl", ["delete", "pod", "web-1"], [])]))
