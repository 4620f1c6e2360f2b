package agentjail

# containers.rego: host mounts, privileges, host namespaces, the engine's
# socket, and a cluster's shells, node debuggers and secrets.

t_docker(args) := t_bash([t_cmd("docker", args, [])])

test_root_mount_denied if t_denied("containers.host_mount", t_docker(["run", "--rm", "-v", "/:/host", "alpine"]))

test_mount_option_root_denied if t_denied("containers.host_mount", t_docker(["run", "--mount", "type=bind,source=/,target=/h", "alpine"]))

test_volume_equals_form_denied if t_denied("containers.host_mount", t_docker(["run", "--volume=/etc:/x:ro", "alpine"]))

test_credential_folder_asked if t_asked("containers.secret_mount", t_docker(["run", "-v", "/home/dev/.aws:/x", "alpine"]))

test_credential_other_image_asked if t_asked("containers.secret_mount", t_docker(["run", "-v", "/home/dev/.aws:/root/.aws", "acme/tool"]))

test_credential_vendor_image_allowed if not t_fired("containers.secret_mount", t_docker(["run", "-v", "/home/dev/.aws:/root/.aws:ro", "amazon/aws-cli:2.15.0", "s3", "ls"]))

test_tilde_home_denied if t_denied("containers.host_mount", t_docker(["run", "-v", "~:/h", "alpine"]))

test_container_create_denied if t_denied("containers.host_mount", t_docker(["container", "create", "-v", "/root:/r", "alpine"]))

test_podman_asked if t_asked("containers.secret_mount", t_bash([t_cmd("podman", ["run", "-v", "/home/dev/.ssh:/k:Z", "fedora"], [])]))

test_project_mount_allowed if not t_fired("containers.host_mount", t_docker(["run", "-v", "/home/dev/project:/app", "node", "npm", "test"]))

test_named_volume_allowed if not t_fired("containers.host_mount", t_docker(["run", "-v", "pgdata:/var/lib/postgresql/data", "postgres"]))

test_single_etc_file_allowed if not t_fired("containers.host_mount", t_docker(["run", "-v", "/etc/localtime:/etc/localtime:ro", "app"]))

test_cache_folder_allowed if not t_fired("containers.host_mount", t_docker(["run", "-v", "/home/dev/.cache/pip:/root/.cache/pip", "python"]))

test_mount_named_in_image_args_not_read if not t_fired("containers.host_mount", t_docker(["ps", "-v", "/:/x"]))

test_socket_mount_asked if t_asked("containers.privileged", t_docker(["run", "-v", "/var/run/docker.sock:/var/run/docker.sock", "wagoodman/dive"]))

test_privileged_asked if t_asked("containers.privileged", t_docker(["run", "--privileged", "ubuntu"]))

test_cap_sys_admin_asked if t_asked("containers.privileged", t_docker(["run", "--cap-add", "SYS_ADMIN", "alpine"]))

test_block_device_asked if t_asked("containers.privileged", t_docker(["run", "--device=/dev/sda", "alpine"]))

test_host_pid_asked if t_asked("containers.privileged", t_docker(["run", "--pid=host", "alpine", "ps"]))

test_net_admin_allowed if not t_fired("containers.privileged", t_docker(["run", "--cap-add", "NET_ADMIN", "app"]))

test_kvm_device_allowed if not t_fired("containers.privileged", t_docker(["run", "--device", "/dev/kvm", "emu"]))

test_host_network_alone_allowed if not t_fired("containers.privileged", t_docker(["run", "--network", "host", "app"]))

test_privileged_host_pid_denied if t_denied("containers.host_root", t_docker(["run", "--privileged", "--pid=host", "alpine"]))

test_sys_admin_host_net_denied if t_denied("containers.host_root", t_docker(["run", "--net=host", "--cap-add=SYS_ADMIN", "alpine"]))

test_nsenter_init_denied if t_denied("containers.host_enter", t_bash([t_cmd("nsenter", ["-t", "1", "-m", "-u", "-i", "-n", "-p", "sh"], [])]))

test_nsenter_target_equals_denied if t_denied("containers.host_enter", t_bash([t_cmd("nsenter", ["--target=1", "--all"], [])]))

test_nsenter_other_pid_allowed if not t_fired("containers.host_enter", t_bash([t_cmd("nsenter", ["-t", "4242", "-n", "ip", "a"], [])]))

test_chroot_asked if t_asked("containers.host_enter", t_bash([t_cmd("chroot", ["/host", "sh"], [])]))

test_curl_docker_socket_asked if t_asked("containers.engine_socket", t_bash([t_cmd("curl", ["--unix-socket", "/var/run/docker.sock", "http://x/containers/json"], [])]))

test_socat_docker_socket_asked if t_asked("containers.engine_socket", t_bash([t_cmd("socat", ["-", "UNIX-CONNECT:/var/run/docker.sock"], [])]))

test_curl_app_socket_allowed if not t_fired("containers.engine_socket", t_bash([t_cmd("curl", ["--unix-socket", "/tmp/app.sock", "http://x/"], [])]))

t_kubectl(args) := t_bash([t_cmd("kubectl", args, [])])

test_exec_shell_asked if t_asked("k8s.shell", t_kubectl(["exec", "-it", "api-0", "--", "/bin/sh"]))

test_exec_secret_read_asked if t_asked("k8s.shell", t_kubectl(["-n", "prod", "exec", "api-0", "--", "sh", "-c", "cat /etc/secrets/*"]))

test_exec_command_allowed if not t_fired("k8s.shell", t_kubectl(["exec", "api-0", "--", "npm", "run", "migrate"]))

test_debug_node_asked if t_asked("k8s.shell", t_kubectl(["debug", "node/worker-1", "-it", "--image=ubuntu"]))

test_debug_pod_allowed if not t_fired("k8s.shell", t_kubectl(["debug", "-it", "api-0", "--image=busybox", "--target=api"]))

test_cp_secret_out_asked if t_asked("k8s.shell", t_kubectl(["cp", "prod/api-0:/etc/secrets", "./s"]))

test_cp_logs_out_allowed if not t_fired("k8s.shell", t_kubectl(["cp", "api-0:/app/logs", "./logs"]))

test_oc_rsh_asked if t_asked("k8s.shell", t_bash([t_cmd("oc", ["rsh", "api-0"], [])]))

test_privileged_run_asked if t_asked("k8s.privileged_pod", t_kubectl(["run", "x", "--image=ubuntu", "--privileged"]))

test_host_path_override_asked if t_asked("k8s.privileged_pod", t_kubectl(["run", "x", "--image=a", `--overrides={"spec":{"volumes":[{"hostPath":{"path":"/"}}]}}`]))

test_plain_run_allowed if not t_fired("k8s.privileged_pod", t_kubectl(["run", "tmp", "--image=busybox", "--rm", "-it"]))

test_create_token_asked if t_asked("k8s.token", t_kubectl(["create", "token", "default"]))

test_helm_values_asked if t_asked("k8s.secret_values", t_bash([t_cmd("helm", ["get", "values", "payments", "-n", "prod"], [])]))

test_helm_status_allowed if not t_fired("k8s.secret_values", t_bash([t_cmd("helm", ["status", "payments"], [])]))

test_oc_extract_secret_asked if t_asked("k8s.secret_values", t_bash([t_cmd("oc", ["extract", "secret/db", "--to=-"], [])]))

test_oc_extract_configmap_allowed if not t_fired("k8s.secret_values", t_bash([t_cmd("oc", ["extract", "configmap/app", "--to=-"], [])]))
