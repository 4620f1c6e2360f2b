package agentjail

# Databases: statements and commands that destroy data (deny), and the
# frameworks' resets that drop and recreate a database (ask: developers
# do reset their own development database, but it must be theirs).

database_clients := {
	"psql", "mysql", "mariadb", "sqlite3", "sqlite", "duckdb", "redis-cli", "valkey-cli", "keydb-cli", "mongosh", "mongo",
	"cqlsh", "clickhouse-client", "clickhouse", "cockroach", "sqlcmd", "usql", "pgcli", "mycli", "litecli",
}

# Statements that destroy a table, a database or every row, as
# case-insensitive regular expressions over the text a client runs.
destructive_sql_patterns := [
	`(?i)\bdrop\s+(table|database|schema|keyspace|tablespace|collection|owned|materialized\s+view)\b`,
	`(?i)\btruncate\s+(table\s+)?[a-z_"\x60\[]`,
	`(?i)^\s*(flushall|flushdb)\b`,
	`(?i)\b(flushall|flushdb)\s*(async|sync)?\s*$`,
	`(?i)\.(dropDatabase|drop)\s*\(\s*\)`,
	`(?i)\.(deleteMany|remove)\s*\(\s*(\{\s*\})?\s*\)`,
	`(?i)\bdropAllUsers\b`,
	`(?i)\balter\s+table\s+\S+\s+drop\s+(column|partition)\b`,
]

# sql_texts(cmd) are the texts a database client runs: its arguments, a
# here-document or here-string, and the echo/printf text piped into it.
sql_texts(cmd) := {t | some t in cmd.args} | {r.target | some r in cmd.redirects; r.op in {"<<", "<<-", "<<<"}}

piped_sql(cmd) := {t |
	some src in cmd.pipe_from
	src in {"echo", "printf", "cat"}
	some other in commands
	other.name == src
	some t in other.args
	not t in {"-n", "-e"}
}

# destructive_sql(text): the text drops, truncates or empties data. A
# DELETE or UPDATE with no WHERE touches every row.
destructive_sql(text) if {
	some pat in destructive_sql_patterns
	regex.match(pat, text)
}

destructive_sql(text) if {
	some stmt in split(text, ";")
	regex.match(`(?i)\bdelete\s+from\b`, stmt)
	not regex.match(`(?i)\bwhere\b`, stmt)
}

deny contains {"id": "database.destructive_sql", "msg": msg} if {
	"database" in input.agentjail.kinds
	some cmd in commands
	cmd.name in database_clients
	some text in sql_texts(cmd) | piped_sql(cmd)
	destructive_sql(text)
	msg := sprintf("Blocked: `%s` runs a statement that destroys data (DROP, TRUNCATE, FLUSH, or DELETE without WHERE). Show the statement to the user and let them run it.", [cmd.name])
}

ask contains {"id": "database.update_all", "msg": msg} if {
	"database" in input.agentjail.kinds
	some cmd in commands
	cmd.name in database_clients
	some text in sql_texts(cmd) | piped_sql(cmd)
	some stmt in split(text, ";")
	regex.match(`(?i)\bupdate\s+\S+\s+set\b`, stmt)
	not regex.match(`(?i)\bwhere\b`, stmt)
	msg := sprintf("`%s` runs an UPDATE with no WHERE, which changes every row; the user has to approve it.", [cmd.name])
}

# Database commands that delete a database or keys by themselves.
deny contains {"id": "database.destructive_command", "msg": msg} if {
	"database" in input.agentjail.kinds
	some cmd in commands
	destructive_db_command(cmd)
	msg := sprintf("Blocked: `%s` deletes a database or all of its keys. Ask the user to run it themselves.", [full_text(cmd)])
}

destructive_db_command(cmd) if cmd.name == "dropdb"

destructive_db_command(cmd) if {
	cmd.name == "mysqladmin"
	some w in positional(cmd)
	lower(w) == "drop"
}

destructive_db_command(cmd) if {
	cmd.name == "etcdctl"
	positional(cmd)[0] in {"del", "delete"}
	has_flag(cmd, {"prefix", "from-key"})
}

destructive_db_command(cmd) if {
	cmd.name in {"redis-cli", "valkey-cli", "keydb-cli"}
	some w in positional(cmd)
	upper(w) in {"FLUSHALL", "FLUSHDB"}
}

ask contains {"id": "database.delete_data", "msg": msg} if {
	"database" in input.agentjail.kinds
	some cmd in commands
	deletes_db_data(cmd)
	msg := sprintf("`%s` deletes stored data; the user has to approve it.", [full_text(cmd)])
}

deletes_db_data(cmd) if {
	cmd.name == "etcdctl"
	positional(cmd)[0] in {"del", "delete"}
	not has_flag(cmd, {"prefix", "from-key"})
}

deletes_db_data(cmd) if {
	cmd.name == "influx"
	"delete" in positional(cmd)
}

deletes_db_data(cmd) if cmd.name == "dropuser"

# HTTP DELETE to a search or document store (Elasticsearch, OpenSearch,
# Solr, CouchDB, InfluxDB) deletes indexes.
search_store_url := `(?i)^(https?://)?[^/\s]*(:(9200|9201|9243|9300|5984|6984|8983|8086)\b|elastic|opensearch|solr|couch)`

ask contains {"id": "database.http_delete", "msg": msg} if {
	"database" in input.agentjail.kinds
	some cmd in commands
	http_delete(cmd)
	some u in positional(cmd)
	regex.match(search_store_url, u)
	msg := sprintf("`%s` deletes an index or database of a search or document store; the user has to approve it.", [full_text(cmd)])
}

http_delete(cmd) if {
	cmd.name == "curl"
	upper(option_value(cmd, {"-X", "--request"})) == "DELETE"
}

http_delete(cmd) if {
	cmd.name in {"http", "xh"}
	upper(positional(cmd)[0]) == "DELETE"
}

# Framework commands that drop, reset or wipe the application's
# database, by tool: the verbs (words that follow the tool, in order) and
# the flags that make an otherwise harmless verb a reset.
database_resets := [
	{"tool": "rails", "verbs": ["db:drop", "db:reset", "db:schema:load", "db:structure:load", "db:migrate:reset", "db:purge", "db:truncate_all", "db:drop:all", "db:purge:all"]},
	{"tool": "rake", "verbs": ["db:drop", "db:reset", "db:schema:load", "db:structure:load", "db:migrate:reset", "db:purge", "db:truncate_all", "db:drop:all", "db:purge:all"]},
	{"tool": "prisma", "verbs": ["migrate reset"]},
	{"tool": "prisma", "verbs": ["db push"], "flags": ["force-reset", "accept-data-loss"]},
	{"tool": "manage.py", "verbs": ["flush", "sqlflush", "reset_db", "reset"]},
	{"tool": "django-admin", "verbs": ["flush", "sqlflush", "reset_db"]},
	{"tool": "artisan", "verbs": ["migrate:fresh", "migrate:reset", "migrate:refresh", "db:wipe"]},
	{"tool": "console", "verbs": ["doctrine:database:drop", "doctrine:schema:drop"]},
	{"tool": "sequelize", "verbs": ["db:drop", "db:migrate:undo:all", "db:seed:undo:all"]},
	{"tool": "sequelize-cli", "verbs": ["db:drop", "db:migrate:undo:all", "db:seed:undo:all"]},
	{"tool": "knex", "verbs": ["migrate:rollback"], "flags": ["all"]},
	{"tool": "typeorm", "verbs": ["schema:drop"]},
	{"tool": "typeorm-ts-node-commonjs", "verbs": ["schema:drop"]},
	{"tool": "mix", "verbs": ["ecto.drop", "ecto.reset"]},
	{"tool": "ef", "verbs": ["database drop"]},
	{"tool": "dotnet-ef", "verbs": ["database drop"]},
	{"tool": "alembic", "verbs": ["downgrade base"]},
	{"tool": "flask", "verbs": ["db downgrade base"]},
	{"tool": "supabase", "verbs": ["db reset"]},
	{"tool": "drizzle-kit", "verbs": ["drop"]},
	{"tool": "flyway", "verbs": ["clean"]},
	{"tool": "liquibase", "verbs": ["drop-all", "dropAll"]},
	{"tool": "diesel", "verbs": ["database reset", "database drop"]},
]

ask contains {"id": "database.reset", "msg": msg} if {
	"database" in input.agentjail.kinds
	some cmd in commands
	some words in invocations(cmd)
	some row in database_resets
	words[0] == row.tool
	some verb in row.verbs
	has_words(words, verb)
	reset_flags_present(cmd, row)
	msg := sprintf("`%s` drops or wipes the application's database; the user has to approve it, and confirm it is not a shared or production database.", [full_text(cmd)])
}

reset_flags_present(_, row) if not row.flags

reset_flags_present(cmd, row) if has_flag(cmd, {f | some f in row.flags})
