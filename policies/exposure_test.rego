package agentjail

# exposure.rego (t_x2 is in exfil_test.rego).

# --- serving folders ---

t_x2_in(name, args, cwd) := t_bash([object.union(t_cmd(name, args, []), {"cwd": cwd})])

test_http_server_home_denied if t_denied("network.serve_secrets", t_x2("python3", ["-m", "http.server", "8000", "--directory", "/home/dev"], []))

test_http_server_root_denied if t_denied("network.serve_secrets", t_x2_in("python3", ["-m", "http.server"], "/"))

test_http_server_documents_asked if t_asked("network.serve_folder", t_x2("python3", ["-m", "http.server", "-d", "/home/dev/Documents"], []))

test_http_server_project_allowed if {
	not t_fired("network.serve_secrets", t_x2("python3", ["-m", "http.server", "8000"], []))
	not t_fired("network.serve_folder", t_x2("python3", ["-m", "http.server", "8000"], []))
}

test_http_server_home_on_loopback_allowed if not t_fired("network.serve_secrets", t_x2("python3", ["-m", "http.server", "--bind", "127.0.0.1", "-d", "/home/dev"], []))

test_php_docroot_home_denied if t_denied("network.serve_secrets", t_x2("php", ["-S", "0.0.0.0:8000", "-t", "/home/dev"], []))

test_npx_serve_home_denied if t_denied("network.serve_secrets", t_x2("npx", ["serve", "/home/dev"], []))

test_npx_serve_dist_allowed if not t_fired("network.serve_secrets", t_x2("npx", ["serve", "dist"], []))

test_operand_root_skips_option_values if operand_root(["-p", "8080", "./build"]) == {"./build"}

# --- shells, control sockets, data stores ---

test_ttyd_denied if t_denied("network.shell_server", t_x2("ttyd", ["-p", "7681", "bash"], []))

test_ttyd_version_allowed if not t_fired("network.shell_server", t_x2("ttyd", ["--version"], []))

test_code_server_no_auth_denied if t_denied("network.shell_server", t_x2("code-server", ["--auth", "none", "--bind-addr", "0.0.0.0:8080"], []))

test_code_server_loopback_allowed if not t_fired("network.shell_server", t_x2("code-server", ["--auth", "none", "--bind-addr", "127.0.0.1:8080"], []))

test_socat_docker_socket_denied if t_denied("network.shell_server", t_x2("socat", ["TCP-LISTEN:2375,fork", "UNIX-CONNECT:/var/run/docker.sock"], []))

test_dockerd_tcp_denied if t_denied("network.shell_server", t_x2("dockerd", ["-H", "tcp://0.0.0.0:2375"], []))

test_redis_unprotected_asked if t_asked("network.open_service", t_x2("redis-server", ["--protected-mode", "no"], []))

test_redis_loopback_allowed if not t_fired("network.open_service", t_x2("redis-server", ["--bind", "127.0.0.1"], []))

test_kubectl_proxy_all_interfaces_asked if t_asked("network.expose_port", t_bash([t_cmd("kubectl", ["proxy", "--address", "0.0.0.0"], [])]))

test_kubectl_port_forward_joined_asked if t_asked("network.expose_port", t_bash([t_cmd("kubectl", ["port-forward", "--address=0.0.0.0", "svc/db", "5432"], [])]))

test_kubectl_port_forward_local_allowed if not t_fired("network.expose_port", t_bash([t_cmd("kubectl", ["port-forward", "--address", "127.0.0.1", "svc/db", "5432"], [])]))
