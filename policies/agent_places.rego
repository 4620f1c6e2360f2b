package agentjail

# The agents' facts (agents/NAME/NAME.go), which the daemon puts at
# data.agentjail.agents when it loads the pack (internal/engine's
# agents_document.go says what each list holds). Places are relative to
# the home directory, project places to a project's folder. `agentjail policy export` writes the
# document beside the pack, for plain opa test.

# agent_folders: each agent's own folder.
agent_folders := {p | some p in data.agentjail.agents.folders}

# agent_hook_files: the files the user's install writes the hook into.
agent_hook_files := {p | some p in data.agentjail.agents.hook_files}

# agent_user_places: the folders and files of the agents' user-level hooks
# and of the switches that turn them off.
agent_user_places := {p | some p in data.agentjail.agents.user_places}

# agent_project_places: the same in a project.
agent_project_places := {p | some p in data.agentjail.agents.project_places}

# agent_machine_places: the machine-wide places of the agents' settings and
# hooks (Linux, macOS).
agent_machine_places := {p | some p in data.agentjail.agents.machine_places}

# agent_program_names: the programs that start an agent.
agent_program_names := {p | some p in data.agentjail.agents.programs}

# agent_hook_folders: folders, in a home or a project, every file of which
# is a hook an agent runs.
agent_hook_folders := {p | some p in data.agentjail.agents.hook_folders}

# agent_place_pattern: any of the agents' folders and places above, as one
# regular expression.
agent_place_pattern := data.agentjail.agents.place_pattern

# agent_credentials: the files that hold an agent's login.
agent_credentials := {p | some p in data.agentjail.agents.credentials}

# agent_record_folders: the folders of the agents' own records of their
# tool calls (the accounting reads them).
agent_record_folders := {p | some p in data.agentjail.agents.record_folders}

# agent_working_files: the files an agent keeps for its own work (memory,
# plans, to-do lists), as globs (** for any folders).
agent_working_files := {p | some p in data.agentjail.agents.working_files}
