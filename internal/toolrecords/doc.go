// Package toolrecords reads the agents' own records of the tool calls
// they made, so that a call an agent ran can be matched with the
// decision agentjail made on it; a call recorded with no decision went
// unchecked. It owns the record formats and following the files as they
// grow; it knows nothing of the daemon or the decision log.
//
// A Follower reads each record file from the offset it had reached, a
// line at a time, and decodes only the lines that can hold a tool call
// (a byte check comes first). Memory is bounded by MaxLine, not by the
// size of a transcript.
//
// Where each agent keeps its record, as seen with the pinned CLIs run
// headless against a fake model API:
//
//	agent        record                                                      format                                   read
//	claude-code  $CLAUDE_CONFIG_DIR or ~/.claude/projects/<cwd-slug>/         JSONL; call = assistant entry's          yes
//	             <session>.jsonl; a subagent's in <session>/subagents/        message.content[] {"type":"tool_use",
//	             agent-<id>.jsonl (isSidechain true, the parent's sessionId)  "id","name","input"}; sessionId, cwd,
//	                                                                          timestamp, isSidechain on each entry
//	codex        $CODEX_HOME or ~/.codex/sessions/YYYY/MM/DD/                 JSONL {"timestamp","type","payload"};    yes
//	             rollout-<time>-<session>.jsonl                               session_meta {id,cwd,source}; call =
//	                                                                          response_item function_call {call_id,
//	                                                                          name,arguments (a JSON string)},
//	                                                                          custom_tool_call, local_shell_call
//	gemini       $GEMINI_CLI_HOME or ~/.gemini/tmp/<project>/chats/           JSONL; header {sessionId,projectHash};   yes
//	             session-<time>-<id>.jsonl; cwd in <project>/.project_root    call = "gemini" message's toolCalls[]
//	                                                                          {id,name,args}; a message is written
//	                                                                          again when its calls are added
//	qwen         $QWEN_RUNTIME_DIR, $QWEN_HOME or ~/.qwen/projects/           JSONL; call = assistant entry's          yes
//	             <cwd-slug>/chats/<session>.jsonl                             message.parts[].functionCall {id,name,
//	                                                                          args}; sessionId, cwd, timestamp
//	copilot      $COPILOT_HOME or ~/.copilot/session-state/<session>/         JSONL events {"type","data","timestamp", yes
//	             events.jsonl (--config-dir moves it too)                     "agentId"}; session.start {sessionId,
//	                                                                          context.cwd}; call = tool.execution_start
//	                                                                          {toolCallId,toolName,arguments}
//	droid        $FACTORY_HOME_OVERRIDE or ~/.factory/sessions/<cwd-slug>/    JSONL; session_start {id,cwd,            yes
//	             <session>.jsonl (the hook's transcript_path)                 callingSessionId}; call = assistant
//	                                                                          message's content[] {"type":"tool_use",
//	                                                                          "id","name","input"}
//	cline        ~/.cline/data/sessions/<session>/<session>.messages.json     one JSON object {"messages":[…]},        no
//	             ($CLINE_DIR/data); sessions.db (SQLite) beside them          pretty-printed, rewritten whole each
//	                                                                          turn: not a record that grows by lines
//	pi           $PI_CODING_AGENT_DIR or ~/.pi/agent/sessions/<cwd-slug>/     JSONL, written at the first answer,      yes
//	             <time>_<session>.jsonl (none with --no-session)              then appended; header {"type":"session",
//	                                                                          id,cwd}; call = assistant message's
//	                                                                          content[] {"type":"toolCall","id",
//	                                                                          "name","arguments"}
//	opencode     not yet checked                                              -                                        no
//	kilo         not yet checked (an opencode fork)                           -                                        no
//
// Codex's custom_tool_call (free-form input) and local_shell_call are read
// from the shapes its protocol defines; the pinned CLI, offered only
// function tools by the fake API, wrote function_call entries.
package toolrecords
