package agentjail

# environment.rego's narrow group and the word tests in front of the
# positional words.

test_remote_env_programs_are_grouped if {
	every name in remote_env_programs {
		"remote_env" in program_groups[name]
	}
}

test_kubectl_exec_env_asked if t_asked("env.dump", t_bash([t_cmd("kubectl", ["-n", "prod", "exec", "api", "--", "env"], [])]))

test_docker_exec_sh_c_env_asked if t_asked("env.dump", t_bash([t_cmd("docker", ["exec", "api", "sh", "-c", "env | sort"], [])]))

test_docker_inspect_env_asked if t_asked("env.dump", t_bash([t_cmd("docker", ["inspect", "--format", "{{.Config.Env}}", "api"], [])]))

test_heroku_config_asked if t_asked("env.dump", t_bash([t_cmd("heroku", ["config", "-a", "app"], [])]))

test_kubectl_set_env_list_asked if t_asked("env.dump", t_bash([t_cmd("kubectl", ["set", "env", "deploy/api", "--list"], [])]))

test_kubectl_get_pods_allowed if not t_fired("env.dump", t_bash([t_cmd("kubectl", ["-n", "prod", "get", "pods"], [])]))

test_kubectl_exec_named_variable_allowed if not t_fired("env.dump", t_bash([t_cmd("kubectl", ["exec", "pod", "--", "printenv", "NODE_ENV"], [])]))
