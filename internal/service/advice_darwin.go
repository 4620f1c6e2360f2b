package service

// systemStartAdvice says how the system daemon starts again.
const systemStartAdvice = "the system daemon is down; an administrator starts it with `sudo launchctl kickstart -k system/dev.agentjail.daemon` (or runs `sudo agentjail install --system` again)"
