package agentjail

# Containers and clusters: a container given the host (its root folder,
# the user's home or credential folders, the engine's socket, its
# namespaces, all capabilities), entering the host's namespaces from a
# container, the engine's API spoken to directly, and a cluster's
# shells, node debuggers and service-account tokens. Running, building,
# listing and logging containers and pods stays allowed, and so does a
# container given the project folder.

# The programs the family judges; their group gates every rule below, so
# a call that runs none of them never enters the family.
container_programs := {
	"docker", "podman", "nerdctl", "finch", "buildah", "kubectl", "oc", "helm", "nsenter", "chroot", "curl", "socat",
	"nc", "ncat", "netcat", "wget", "http", "https", "xh",
}

program_group contains [prog, "containers"] if some prog in container_programs

# container_engines run containers with docker's options (-v, --mount,
# --privileged, --cap-add, --pid, --device, --security-opt).
container_engines := {"docker", "podman", "nerdctl", "finch", "buildah"}

# The words (after the engine's global options) that start a container
# or run a command in one: `run`, `container create`, `compose run`.
container_start_verbs := {["run"], ["create"], ["container", "run"], ["container", "create"], ["compose", "run"], ["exec"], ["container", "exec"]}

# host_folders_whole are folders of the host that, mounted whole, hand
# the container the machine: its configuration, root's home, its
# programs, the engine's and the kubelet's state. A file under them
# (/etc/localtime, /etc/ssl/certs) is an ordinary mount.
host_folders_whole := {
	"/", "/etc", "/root", "/boot", "/usr", "/bin", "/sbin", "/lib", "/lib64", "/var", "/var/lib", "/opt", "/srv",
	"/etc/kubernetes", "/var/lib/kubelet", "/var/lib/docker", "/var/lib/containerd", "/var/lib/containers",
	"/private", "/private/etc", "/private/var", "/System", "/Library",
}

# An engine's control socket: whoever reaches it runs containers as root.
engine_socket_pattern := `(^|/)(docker|podman|containerd|crio|cri-dockerd|buildkitd|dockershim)\.sock$|^(/var)?/run/containerd/`

# Capabilities that amount to root on the host when given to a container.
root_capability_pattern := `(?i)^(cap_)?(all|sys_admin|sys_module|sys_ptrace|sys_rawio|dac_read_search|dac_override|bpf|perfmon|setfcap|sys_boot|mknod)$`

# Block and memory devices: the host's disks and memory.
host_device_pattern := `^/dev/(sd|nvme|vd|xvd|hd|mmcblk|dm-|md|loop|mapper/|disk|mem$|kmem$|port$)`

# starts_container(cmd): cmd runs a container, or a command in one.
starts_container(cmd) if {
	cmd.name in container_engines
	pos := positional(cmd)
	some verb in container_start_verbs
	array.slice(pos, 0, count(verb)) == verb
}

# mounts(cmd): every bind mount of cmd as [host side, container side],
# the host side with `~`, `$HOME` and a trailing slash written out.
mounts(cmd) := {[host_side(parts[0]), second(parts)] |
	some v in option_values(cmd, {"-v", "--volume"})
	parts := split(v, ":")
} | {[host_side(fields.src), object.get(fields, "dst", "")] |
	some v in option_values(cmd, {"--mount"})
	fields := {mount_field_name(kv[0]): kv[1] |
		some field in split(v, ",")
		kv := split(field, "=")
		count(kv) == 2
		mount_field_name(kv[0])
	}
	fields.src
}

second(parts) := parts[1] if count(parts) > 1

else := ""

mount_field_name(k) := "src" if k in {"source", "src"}

mount_field_name(k) := "dst" if k in {"target", "dst", "destination"}

mount_sources(cmd) := {m[0] | some m in mounts(cmd)}

host_side(s) := home if s in {"~", "$HOME", "${HOME}"}

host_side(s) := concat("", [home, substring(s, 1, -1)]) if startswith(s, "~/")

host_side(s) := trim_suffix(s, "/") if {
	not s in {"~", "$HOME", "${HOME}", "/"}
	not startswith(s, "~/")
}

host_side("/") := "/"

# gives_host(p): a bind mount of p hands the container the machine: its
# root, a whole system folder, or the user's home folder.
gives_host(p) if p in host_folders_whole

gives_host(p) if under(home, p) # the home folder, /home, /Users

deny contains {"id": "containers.host_mount", "msg": msg} if {
	"containers" in input.agentjail.kinds
	some cmd in commands
	starts_container(cmd)
	some p in mount_sources(cmd)
	gives_host(p)
	msg := sprintf("Blocked: `%s` mounts %s into a container, which hands the code in the image this machine's files. Mount only the project folder (-v \"$PWD\":/app) or a named volume.", [full_text(cmd), shown(p)])
}

# credential_tool_images: for a credential folder of the home, the images
# its own vendor publishes for the tool that reads it. Mounted where that
# image's tool reads it (-v ~/.aws:/root/.aws amazon/aws-cli), the
# credentials are used by their tool, as `aws --profile` uses them on
# the host; any other image, or another place, is handed them.
credential_tool_images := {
	".aws": `^(docker\.io/)?amazon/aws-cli([:@]|$)|^public\.ecr\.aws/aws-cli/aws-cli([:@]|$)`,
	".config/gcloud": `^(docker\.io/)?google/cloud-sdk([:@]|$)|^gcr\.io/google\.com/cloudsdktool/(google-)?cloud-(sdk|cli)([:@]|$)`,
	".azure": `^mcr\.microsoft\.com/azure-cli([:@]|$)`,
	".kube": `^(docker\.io/)?bitnami/kubectl([:@]|$)|^registry\.k8s\.io/kubectl([:@]|$)`,
}

ask contains {"id": "containers.secret_mount", "msg": msg} if {
	"containers" in input.agentjail.kinds
	some cmd in commands
	starts_container(cmd)
	some [p, target] in mounts(cmd)
	not gives_host(p)
	secret(p)
	not not_secret(p)
	not vendor_tool_mount(cmd, p, target)
	msg := sprintf("`%s` mounts %s into a container, which hands the code in the image the user's credentials; the user has to approve it. Run the tool on the host, or use the vendor's own image with the folder where its tool reads it.", [full_text(cmd), shown(p)])
}

vendor_tool_mount(cmd, p, target) if {
	rel := home_rel(p)
	endswith(trim_suffix(target, "/"), concat("", ["/", rel]))
	some folder, image in credential_tool_images
	under(rel, folder)
	some a in cmd.args
	regex.match(image, a)
}

# The engine's socket mounted in a container: root on the host, and what
# tools like dive or a CI runner need; the user decides.
ask contains {"id": "containers.privileged", "msg": msg} if {
	"containers" in input.agentjail.kinds
	some cmd in commands
	starts_container(cmd)
	some p in mount_sources(cmd)
	regex.match(engine_socket_pattern, p)
	msg := sprintf("`%s` gives a container the container engine's socket, with which it can start anything as root on this machine; the user has to approve it.", [full_text(cmd)])
}

ask contains {"id": "containers.privileged", "msg": msg} if {
	"containers" in input.agentjail.kinds
	some cmd in commands
	starts_container(cmd)
	lifts_isolation(cmd)
	not host_root_container(cmd)
	msg := sprintf("`%s` runs a container without its isolation (privileged, extra capabilities, the host's devices or namespaces, no security profile); the user has to approve it.", [full_text(cmd)])
}

# Privileged (or with CAP_SYS_ADMIN) in the host's namespaces: a root
# shell on the host is one nsenter away.
deny contains {"id": "containers.host_root", "msg": msg} if {
	"containers" in input.agentjail.kinds
	some cmd in commands
	starts_container(cmd)
	host_root_container(cmd)
	msg := sprintf("Blocked: `%s` runs a privileged container in the host's namespaces, which is root on this machine. Run the container without --privileged and host namespaces.", [full_text(cmd)])
}

lifts_isolation(cmd) if has_option(cmd, {"privileged"})

lifts_isolation(cmd) if {
	some v in option_values(cmd, {"--cap-add"})
	some c in split(v, ",")
	regex.match(root_capability_pattern, c)
}

lifts_isolation(cmd) if {
	some v in option_values(cmd, {"--device"})
	regex.match(host_device_pattern, split(v, ":")[0])
}

lifts_isolation(cmd) if {
	some v in option_values(cmd, {"--pid", "--ipc", "--uts", "--userns", "--cgroupns"})
	v == "host"
}

lifts_isolation(cmd) if {
	some v in option_values(cmd, {"--security-opt"})
	regex.match(`unconfined|label[:=]disable|no-new-privileges[:=]false`, v)
}

host_root_container(cmd) if {
	all_powers(cmd)
	some v in option_values(cmd, {"--pid", "--net", "--network", "--ipc", "--uts", "--userns"})
	v == "host"
}

all_powers(cmd) if has_option(cmd, {"privileged"})

all_powers(cmd) if {
	some v in option_values(cmd, {"--cap-add"})
	some c in split(v, ",")
	regex.match(`(?i)^(cap_)?(all|sys_admin)$`, c)
}

# nsenter into PID 1's namespaces is a shell on the host from inside a
# container; entering a container's own process (nsenter -t PID -n ip a)
# is debugging and stays allowed.
deny contains {"id": "containers.host_enter", "msg": msg} if {
	"containers" in input.agentjail.kinds
	some cmd in commands
	cmd.name == "nsenter"
	enters_init(cmd)
	msg := sprintf("Blocked: `%s` enters the namespaces of the host's first process, which is a root shell on the host. Run the command inside the container, or ask the user.", [full_text(cmd)])
}

enters_init(cmd) if "1" in option_values(cmd, {"-t", "--target"})

enters_init(cmd) if {
	some a in cmd.args
	contains(a, "/proc/1/ns/")
}

# chroot into another root: the second step of a host mount's escape
# (chroot /host), and system repair otherwise; the user decides.
ask contains {"id": "containers.host_enter", "msg": msg} if {
	"containers" in input.agentjail.kinds
	some cmd in commands
	cmd.name == "chroot"
	count(cmd.operands) > 0
	msg := sprintf("`%s` runs a program with another folder as the root of the file system; the user has to approve it.", [full_text(cmd)])
}

# The engine's API spoken to directly (curl --unix-socket
# /var/run/docker.sock, socat UNIX-CONNECT:...): everything docker can
# do, as root, with none of its command line for anyone to judge.
ask contains {"id": "containers.engine_socket", "msg": msg} if {
	"containers" in input.agentjail.kinds
	some cmd in commands
	cmd.name in {"curl", "socat", "nc", "ncat", "netcat"}
	some a in cmd.args
	regex.match(engine_socket_pattern, regex.replace(a, `^(?i)(unix-(connect|client)|unix):`, ""))
	msg := sprintf("`%s` talks to the container engine's socket directly, which can start containers as root with the host mounted; the user has to approve it. Use the docker or podman command for what you need.", [full_text(cmd)])
}

# A container engine's or a kubelet's API reached over the network
# (Docker's 2375/2376, the kubelet's 10250/10255, etcd's 2379): the same
# power as the socket, on another machine, with no cluster or engine
# client's command line to judge.
engine_api_url := `(?i)^([a-z]+://)?(\[[^\]]+\]|[^/:\s]+):(2375|2376|4243|10250|10255|2379)(/|$)`

ask contains {"id": "containers.engine_socket", "msg": msg} if {
	"containers" in input.agentjail.kinds
	some cmd in commands
	cmd.name in {"curl", "wget", "http", "https", "xh", "nc", "ncat", "netcat"}
	some a in cmd.args
	regex.match(engine_api_url, a)
	msg := sprintf("`%s` talks to a container engine's, kubelet's or etcd's API directly (%s), which can run commands in containers and read their secrets; the user has to approve it. Use docker, kubectl or etcdctl for what you need.", [full_text(cmd), a])
}

# A workload put into a cluster's own namespaces (kube-system, ...): it
# sits among the cluster's components, often with their service
# accounts, where nobody looks for it.
cluster_system_namespace := `^(kube-system|kube-public|kube-node-lease|openshift-[a-z0-9-]+|istio-system|gatekeeper-system|cert-manager|calico-system|tigera-operator)$`

cluster_workload_verbs := {"run", "create", "apply", "replace", "expose", "install", "upgrade", "debug", "set", "patch"}

ask contains {"id": "k8s.system_namespace", "msg": msg} if {
	"containers" in input.agentjail.kinds
	some cmd in commands
	cmd.name in {"kubectl", "oc", "helm"}
	positional(cmd)[0] in cluster_workload_verbs
	some ns in option_values(cmd, {"-n", "--namespace"})
	regex.match(cluster_system_namespace, ns)
	msg := sprintf("`%s` puts a workload into the cluster's own namespace %s, among its system components and their service accounts; the user has to approve it.", [full_text(cmd), ns])
}

# Clusters: a shell in a pod, a debugger on a node, and files copied out
# of a pod's secret places.

# pod_secret_pattern: places in a pod that hold its credentials (mounted
# secrets, the service-account token, cloud and ssh folders).
pod_secret_pattern := `(?i)(^|[/:])(secrets?|credentials?|\.ssh|\.aws|\.kube|\.docker|\.gnupg|serviceaccount|\.vault-token)(/|$)|(^|/)(vault)/|(^|/)[^/ ]*(token|secret|passw(or)?d|credentials?|private[-_.]?key)[^/ ]*$`

kube_clients := {"kubectl", "oc"}

ask contains {"id": "k8s.shell", "msg": msg} if {
	"containers" in input.agentjail.kinds
	some cmd in commands
	cmd.name in kube_clients
	pos := positional(cmd)
	pos[0] == "exec"
	exec_words := pod_command(cmd, pos)
	pod_shell_or_secret(exec_words)
	msg := sprintf("`%s` opens a shell in a pod or reads its secrets; the user has to approve it. Run the one command you need (kubectl exec POD -- CMD) or read the pod's logs.", [full_text(cmd)])
}

ask contains {"id": "k8s.shell", "msg": msg} if {
	"containers" in input.agentjail.kinds
	some cmd in commands
	cmd.name == "oc"
	positional(cmd)[0] == "rsh"
	msg := sprintf("`%s` opens a shell in a pod; the user has to approve it. Run the one command you need with oc exec.", [full_text(cmd)])
}

# kubectl debug node/NAME runs a pod with the node's root folder at /host
# and its namespaces; --profile=sysadmin makes any debug container
# privileged.
ask contains {"id": "k8s.shell", "msg": msg} if {
	"containers" in input.agentjail.kinds
	some cmd in commands
	cmd.name in kube_clients
	pos := positional(cmd)
	pos[0] == "debug"
	node_debug(cmd, pos)
	msg := sprintf("`%s` runs a privileged debugging pod on a cluster node, with the node's files and processes; the user has to approve it.", [full_text(cmd)])
}

ask contains {"id": "k8s.shell", "msg": msg} if {
	"containers" in input.agentjail.kinds
	some cmd in commands
	cmd.name in kube_clients
	pos := positional(cmd)
	pos[0] == "cp"
	some src in array.slice(pos, 1, 2)
	contains(src, ":")
	regex.match(pod_secret_pattern, substring(src, indexof(src, ":") + 1, -1))
	msg := sprintf("`%s` copies a pod's secrets (mounted credentials, tokens) out of the cluster; the user has to approve it.", [full_text(cmd)])
}

# pod_command(cmd, pos): the command an exec runs, after `--`, or (the
# old form) the positionals after the pod.
pod_command(cmd, _) := array.slice(cmd.args, i + 1, count(cmd.args)) if {
	some i, a in cmd.args
	a == "--"
}

pod_command(cmd, pos) := array.slice(pos, 2, count(pos)) if not "--" in cmd.args

pod_shell_or_secret(words) if {
	count(words) == 1
	base_name(words[0]) in shells
}

pod_shell_or_secret(words) if {
	count(words) == 2
	base_name(words[0]) in shells
	words[1] in {"-l", "-i", "--login", "-il", "-li"}
}

pod_shell_or_secret(words) if {
	some w in array.slice(words, 1, count(words))
	some part in split(w, " ")
	regex.match(pod_secret_pattern, trim(part, `'"*`))
}

node_debug(_, pos) if regex.match(`^(nodes?|no)/`, pos[1])

node_debug(cmd, _) if {
	some v in option_values(cmd, {"--profile"})
	v == "sysadmin"
}

# A pod created from the command line with the host's powers: kubectl run
# --privileged, or --overrides with privileged, hostPath or a host
# namespace.
ask contains {"id": "k8s.privileged_pod", "msg": msg} if {
	"containers" in input.agentjail.kinds
	some cmd in commands
	cmd.name in kube_clients
	positional(cmd)[0] == "run"
	privileged_pod(cmd)
	msg := sprintf("`%s` starts a pod with the node's powers (privileged, a host folder, or the node's namespaces), which is root on a cluster node; the user has to approve it.", [full_text(cmd)])
}

privileged_pod(cmd) if has_option(cmd, {"privileged"})

privileged_pod(cmd) if {
	some v in option_values(cmd, {"--overrides"})
	regex.match(`"privileged"\s*:\s*true|"hostPath"|"host(PID|Network|IPC|Users)"\s*:\s*true|"allowPrivilegeEscalation"\s*:\s*true`, v)
}

# kubectl create token SA: a new bearer token for a service account, in
# the transcript.
ask contains {"id": "k8s.token", "msg": msg} if {
	"containers" in input.agentjail.kinds
	some cmd in commands
	cmd.name in kube_clients
	pos := positional(cmd)
	array.slice(pos, 0, 2) == ["create", "token"]
	not has_option(cmd, {"help", "h"})
	msg := sprintf("`%s` mints a bearer token for a cluster's service account and prints it; the user has to approve it. Use kubectl with your own context instead.", [full_text(cmd)])
}

# A release's values and a secret extracted to the screen: charts take
# their passwords and keys as values (--set db.password=...), and `oc
# extract secret/NAME --to=-` prints the secret's data decoded. `kubectl
# get secret -o yaml` is tokens.secret_store's.
ask contains {"id": "k8s.secret_values", "msg": msg} if {
	"containers" in input.agentjail.kinds
	some cmd in commands
	cmd.name in {"helm", "oc"}
	prints_cluster_secret(cmd, positional(cmd))
	msg := sprintf("`%s` prints values a cluster keeps secret (a release's values, a secret's data); the user has to approve it. Read the chart's values.yaml or list the names instead.", [full_text(cmd)])
}

prints_cluster_secret(cmd, pos) if {
	cmd.name == "helm"
	pos[0] == "get"
	pos[1] in {"values", "all"}
}

prints_cluster_secret(cmd, pos) if {
	cmd.name == "oc"
	pos[0] == "extract"
	regex.match(`^secrets?/|^secrets?$`, pos[1])
}
