// agentjail's guard for pi: before pi runs a tool, this extension asks
// agentjail's hook whether it may, and blocks the call when the hook says
// no. `agentjail install --for pi` writes this file, and `agentjail
// uninstall` removes it; edits made here are lost at the next install.
//
// The hook gets pi's tool_call event as pi hands it to extensions, plus
// the folder and session pi runs in, as one JSON object on stdin. It
// exits 0 to let the call run (anything on its stderr is a warning for
// the user; a shell call's command to run instead, in agentjail's jail,
// on its stdout) and 2 to block it, its stderr being the reason the model
// reads. The hook answers within its own deadline, applying agentjail's
// fail mode when the daemon cannot; past timeoutMs, or when the hook
// cannot run at all, this extension applies that fail mode itself.
//
// After a tool has run (pi's tool_result event), the extension runs
// post.command, the hook with --post, with the same fields, so that
// agentjail learns of every call that ran; it waits for it at most
// post.timeoutMs, and whatever it does changes nothing.
import { spawn } from "node:child_process";

const config = {"command":"agentjail-hook --agent pi","timeoutMs":5000,"failClosed":false,"post":{"command":"agentjail-hook --agent pi --post","timeoutMs":5000}};

// maxOutput bounds what is kept of the hook's stdout and stderr.
const maxOutput = 64 * 1024;

export default function (pi) {
	pi.on("tool_call", async (event, ctx) => {
		const call = {
			hook_event_name: "tool_call",
			toolName: event.toolName,
			toolCallId: event.toolCallId,
			input: event.input,
			cwd: ctx.cwd,
			session_id: sessionId(ctx),
		};
		const r = await runHook(config.command, config.timeoutMs, JSON.stringify(call));
		if (r.code === 0) {
			if (r.stderr.trim() !== "") tell(ctx, r.stderr.trim());
			confine(r.stdout, event.input);
			return undefined;
		}
		if (r.code === 2) {
			return { block: true, reason: r.stderr.trim() || "Blocked by agentjail's policies." };
		}
		const why = `agentjail's hook ${r.failure} (${config.command})`;
		if (config.failClosed) {
			return { block: true, reason: `agentjail: ${why}, so this call could not be checked and was blocked (fail_mode: closed). Ask the user to check that agentjail is installed and its daemon running (\`agentjail status\`).` };
		}
		tell(ctx, `agentjail: ${why}; this call was allowed unchecked`);
		return undefined;
	});
	if (config.post) {
		pi.on("tool_result", async (event, ctx) => {
			try {
				const call = {
					hook_event_name: "tool_result",
					toolName: event.toolName,
					toolCallId: event.toolCallId,
					input: event.input,
					cwd: ctx.cwd,
					session_id: sessionId(ctx),
				};
				await runHook(config.post.command, config.post.timeoutMs, JSON.stringify(call));
			} catch {
				// The call has run: nothing here may change its result.
			}
			return undefined;
		});
	}
}

// confine has the call run in agentjail's jail: an allow that carries a
// command replaces the shell call's command (pi runs the tool with
// event.input as the handlers leave it). Only the command is taken from
// the answer.
function confine(stdout, input) {
	let answer;
	try {
		answer = JSON.parse(stdout);
	} catch {
		return;
	}
	if (answer && typeof answer.command === "string" && input && typeof input.command === "string") {
		input.command = answer.command;
	}
}

function sessionId(ctx) {
	try {
		return ctx.sessionManager.getSessionId();
	} catch {
		return undefined;
	}
}

// tell shows a warning to the user: in pi's interface when it has one,
// else on stderr (print and JSON modes).
function tell(ctx, msg) {
	if (ctx.hasUI) {
		ctx.ui.notify(msg, "warning");
	} else {
		process.stderr.write(msg + "\n");
	}
}

// runHook runs command with the event on stdin and resolves to its exit
// code and output; code is null, with failure saying why, when it did
// not exit on its own within timeoutMs.
function runHook(command, timeoutMs, input) {
	return new Promise((resolve) => {
		let stdout = "";
		let stderr = "";
		let done = false;
		let timer;
		const finish = (code, failure) => {
			if (done) return;
			done = true;
			clearTimeout(timer);
			resolve({ code, failure, stdout, stderr });
		};
		let child;
		try {
			// Its own process group, so a timeout kills the shell and the hook.
			child = spawn(command, { shell: true, detached: true, stdio: ["pipe", "pipe", "pipe"] });
		} catch (err) {
			finish(null, `could not start: ${err.message}`);
			return;
		}
		timer = setTimeout(() => {
			try {
				process.kill(-child.pid, "SIGKILL");
			} catch {
				child.kill("SIGKILL");
			}
			finish(null, `did not answer within ${timeoutMs} ms`);
		}, timeoutMs);
		child.stdout.on("data", (b) => {
			if (stdout.length < maxOutput) stdout += b.toString();
		});
		child.stderr.on("data", (b) => {
			if (stderr.length < maxOutput) stderr += b.toString();
		});
		child.on("error", (err) => finish(null, `could not start: ${err.message}`));
		child.on("close", (code, signal) => {
			if (code === 0 || code === 2) finish(code, "");
			else if (signal) finish(null, `was killed by ${signal}`);
			else finish(null, `exited ${code}${stderr.trim() ? ": " + stderr.trim() : ""}`);
		});
		child.stdin.on("error", () => {});
		child.stdin.end(input);
	});
}
