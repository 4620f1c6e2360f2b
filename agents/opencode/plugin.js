// agentjail's guard for opencode and Kilo CLI. `agentjail install` writes
// this file into the agent's plugin folder and `agentjail uninstall`
// removes it; edits here are lost at the next install.
//
// Before each tool call it runs agentjail-hook with the call on stdin and
// waits a bounded time: exit 0 lets the call go on to the agent's own
// permission rules (a shell call with its command rewritten to run in
// agentjail's jail, when the hook's answer carries one), exit 2 stops
// it (the agent hands the thrown message to the model), and a hook that
// cannot start, crashes or does not answer in time stops it too, unless
// the hook was installed with --fail-closed=false. After each call that
// ran it runs the hook again with --post, which tells agentjail the call
// ran and answers nothing: that run is bounded too, and can neither fail
// nor change the call. It imports nothing but Node's own modules.
import { spawn } from "node:child_process";

// Filled in by the installer: the agent's name, the hook's argv, how long
// to wait for it (a little longer than its own deadline), whether a
// hook that gives no answer blocks the call, and the argv and wait of
// the hook's run after a call (none: the plugin sends no such event).
const SETTINGS = null; // agentjail:settings

// What is kept of the hook's output: a reason, not a flood.
const MAX_OUTPUT = 64 * 1024;

// After the hook exits, how long to wait for the rest of its output
// (a process it started may hold the pipes open).
const DRAIN_MS = 250;

// runHook runs argv with event on stdin, waiting at most timeoutMs.
function runHook(argv, timeoutMs, event) {
  return new Promise((resolve) => {
    let done = false;
    let out = "";
    let err = "";
    let timer;
    const finish = (r) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve({ out, err, ...r });
    };
    let child;
    try {
      child = spawn(argv[0], argv.slice(1), { stdio: ["pipe", "pipe", "pipe"] });
    } catch (e) {
      finish({ failed: `cannot start ${argv[0]}: ${e.message}` });
      return;
    }
    timer = setTimeout(() => {
      child.kill("SIGKILL");
      finish({ failed: `${argv[0]} gave no answer within ${timeoutMs} ms` });
    }, timeoutMs);
    child.on("error", (e) => finish({ failed: `cannot run ${argv[0]}: ${e.message}` }));
    child.stdout.on("data", (b) => {
      if (out.length < MAX_OUTPUT) out += b;
    });
    child.stderr.on("data", (b) => {
      if (err.length < MAX_OUTPUT) err += b;
    });
    child.on("exit", (code, signal) => {
      setTimeout(() => finish({ code, signal }), DRAIN_MS);
    });
    child.on("close", (code, signal) => finish({ code, signal }));
    child.stdin.on("error", () => {});
    child.stdin.end(JSON.stringify(event));
  });
}

// reasonOf is the reason of a deny: the JSON on stdout, else stderr.
function reasonOf(r) {
  try {
    const answer = JSON.parse(r.out);
    if (answer && typeof answer.reason === "string" && answer.reason.trim()) return answer.reason;
  } catch {}
  return r.err.trim() || "Blocked by agentjail's policies.";
}

// confine has the call run in agentjail's jail: an allow that carries a
// command replaces the shell call's command (the agent runs the tool
// with the arguments as they are when this hook returns). Only the
// command is taken from the answer.
function confine(r, args) {
  let answer;
  try {
    answer = JSON.parse(r.out);
  } catch {
    return;
  }
  if (answer && typeof answer.command === "string" && args && typeof args.command === "string") {
    args.command = answer.command;
  }
}

export const AgentjailGuard = async ({ client, directory, worktree }) => ({
  "tool.execute.before": async (input, output) => {
    if (!SETTINGS) {
      throw new Error("agentjail: this plugin has no settings; run `agentjail install` again, or remove it");
    }
    const r = await runHook(SETTINGS.hook, SETTINGS.timeoutMs, {
      hook_event_name: "tool.execute.before",
      client: SETTINGS.agent,
      tool: input.tool,
      args: output.args,
      sessionID: input.sessionID,
      callID: input.callID,
      cwd: directory || process.cwd(),
      worktree,
    });
    if (r.code === 0) {
      confine(r, output.args);
      return;
    }
    if (r.code === 2) throw new Error(reasonOf(r));
    const why = r.failed || `${SETTINGS.hook[0]} ended with ${r.code ?? r.signal}: ${r.err.trim().slice(0, 500)}`;
    if (SETTINGS.failClosed) {
      throw new Error(`agentjail: ${why}; the call is blocked because agentjail fails closed. Ask the user to check \`agentjail status\`.`);
    }
    try {
      client?.app?.log?.({ body: { service: "agentjail", level: "warn", message: `${why}; the call was allowed unchecked` } })?.catch?.(() => {});
    } catch {}
  },
  // The call ran: the hook reports it with --post (the same fields, so
  // that it is matched with the call it judged by session and callID;
  // a confined call's command is the launcher's, whose end is the
  // model's). The output is the agent's, left as it is; nothing here
  // throws.
  ...(Array.isArray(SETTINGS?.post) && {
    "tool.execute.after": async (input) => {
      try {
        await runHook(SETTINGS.post, SETTINGS.postTimeoutMs || 5000, {
          hook_event_name: "tool.execute.after",
          client: SETTINGS.agent,
          tool: input?.tool,
          args: input?.args,
          sessionID: input?.sessionID,
          callID: input?.callID,
          cwd: directory || process.cwd(),
          worktree,
        });
      } catch {}
    },
  }),
});
