package agentjail

# Databases: statements and commands that destroy data, and the
# frameworks' resets that drop and recreate a database, judged by whose
# data they reach (db_target): a test database or this machine's own is
# the developer's scratch space and passes; one whose name or host says
# production is refused; any other is asked about, since its owner may
# well approve.

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
	db_target(cmd) == "prod"
	msg := sprintf("Blocked: `%s` runs a statement that destroys data (DROP, TRUNCATE, FLUSH, or DELETE without WHERE) in what its name or host says is production. Show the statement to the user and let them run it.", [cmd.name])
}

ask contains {"id": "database.destroy_data", "msg": msg} if {
	"database" in input.agentjail.kinds
	some cmd in commands
	cmd.name in database_clients
	some text in sql_texts(cmd) | piped_sql(cmd)
	destructive_sql(text)
	db_target(cmd) == "unknown"
	msg := sprintf("`%s` runs a statement that destroys data (DROP, TRUNCATE, FLUSH, or DELETE without WHERE) in a database agentjail cannot tell is a test or local one; the user has to approve it. Name the test database (-d app_test) or the local host to make it plain.", [cmd.name])
}

ask contains {"id": "database.update_all", "msg": msg} if {
	"database" in input.agentjail.kinds
	some cmd in commands
	cmd.name in database_clients
	some text in sql_texts(cmd) | piped_sql(cmd)
	some stmt in split(text, ";")
	regex.match(`(?i)\bupdate\s+\S+\s+set\b`, stmt)
	not regex.match(`(?i)\bwhere\b`, stmt)
	not db_target(cmd) in scratch_targets
	msg := sprintf("`%s` runs an UPDATE with no WHERE, which changes every row; the user has to approve it.", [cmd.name])
}

# A Mongo update with an empty filter changes every document, as an
# UPDATE with no WHERE does every row.
ask contains {"id": "database.update_all", "msg": msg} if {
	"database" in input.agentjail.kinds
	some cmd in commands
	cmd.name in database_clients
	some text in sql_texts(cmd) | piped_sql(cmd)
	regex.match(`(?i)\.update(Many)?\s*\(\s*\{\s*\}`, text)
	not db_target(cmd) in scratch_targets
	msg := sprintf("`%s` runs an update with an empty filter, which changes every document; the user has to approve it.", [cmd.name])
}

# Any write to what its name or host says is production, WHERE or not:
# rows changed there change what the service's users see.
ask contains {"id": "database.prod_write", "msg": msg} if {
	"database" in input.agentjail.kinds
	some cmd in commands
	cmd.name in database_clients
	some text in sql_texts(cmd) | piped_sql(cmd)
	writes_data(text)
	db_target(cmd) == "prod"
	msg := sprintf("`%s` changes data in what its name or host says is production; the user has to approve it. Read (SELECT, find) freely, or run the change against a test database first.", [cmd.name])
}

# A change to rows that already exist (UPDATE, DELETE, a Mongo update,
# a Redis SET) in a database that is plainly somewhere else: a host with
# a dot or an address, a URL read from the environment, or a database
# file outside the project and the temp folders (a service's data under
# /var/lib, an app's own store). Where it is cannot be read off the
# call, and rows rewritten there (an IBAN, a role) are what others see.
# A compose service's bare name (-h db) and no host at all stay free.
ask contains {"id": "database.remote_change", "msg": msg} if {
	"database" in input.agentjail.kinds
	some cmd in commands
	cmd.name in database_clients
	db_target(cmd) == "unknown"
	db_elsewhere(cmd)
	some text in sql_texts(cmd) | piped_sql(cmd)
	changes_rows(text)
	msg := sprintf("`%s` changes existing data in a database on another machine or outside the project, which agentjail cannot tell is a test one; the user has to approve it. Name a test database (-d app_test) or a local host to make it plain.", [cmd.name])
}

# changes_rows(text): a statement or call that rewrites or deletes what
# is stored, as against adding to it (INSERT, CREATE), which seeding and
# fixtures do all day.
changes_rows(text) if {
	some stmt in split(text, ";")
	regex.match(`(?i)^\s*(with\s.*\)\s*)?(update|delete|upsert|merge|replace|alter|drop|truncate|grant|revoke|rename)\b`, stmt)
}

changes_rows(text) if regex.match(`(?i)\.(update(One|Many)?|delete(One|Many)|remove|replaceOne|findOneAnd(Update|Replace|Delete)|findAndModify|bulkWrite|drop|renameCollection)\s*\(`, text)

changes_rows(text) if regex.match(`(?i)^(set|setex|mset|del|unlink|hset|hdel|hmset|expire|persist|lrem|srem|zrem|incr|decr|incrby|rename|getdel|json\.set|json\.del)$`, text)

db_elsewhere(cmd) if {
	some h in db_hosts(cmd)
	not local_db_host(h)
	regex.match(`[.:]`, h)
}

db_elsewhere(cmd) if {
	not cmd.name in file_db_clients
	some a in cmd.args
	regex.match(`^\$\{?[A-Za-z_]*(DATABASE|DB|MONGO|REDIS|PG|MYSQL)[A-Za-z_]*(URL|URI|DSN)\}?$`, a)
}

db_elsewhere(cmd) if {
	cmd.name in file_db_clients
	p := cmd.paths[0]
	not local_data_file(p)
	not p in {":memory:"}
}

# A file of statements (psql -f, mysql < file) run against production:
# what it does is not on the line.
ask contains {"id": "database.prod_write", "msg": msg} if {
	"database" in input.agentjail.kinds
	some cmd in commands
	cmd.name in database_clients
	runs_statement_file(cmd)
	db_target(cmd) == "prod"
	msg := sprintf("`%s` runs a file of statements against what its name or host says is production; the user has to approve it.", [cmd.name])
}

runs_statement_file(cmd) if {
	cmd.name in {"psql", "mysql", "mariadb", "mongosh", "mongo", "sqlcmd", "cockroach", "clickhouse-client"}
	has_option(cmd, {"f", "file", "i", "input-file", "execute-file"})
}

runs_statement_file(cmd) if {
	some r in cmd.redirects
	r.op == "<"
}

# writes_data(text): a statement or call that changes data or schema
# (SQL, Mongo's shell, a Redis command given as words).
writes_data(text) if {
	some stmt in split(text, ";")
	regex.match(`(?i)^\s*(with\s.*\)\s*)?(update|insert|delete|upsert|merge|replace|alter|create|drop|truncate|grant|revoke|rename|copy\s+\S+\s+from)\b`, stmt)
}

writes_data(text) if regex.match(`(?i)\.(update(One|Many)?|insert(One|Many)?|delete(One|Many)|remove|replaceOne|findOneAnd(Update|Replace|Delete)|findAndModify|bulkWrite|drop|dropIndex|renameCollection)\s*\(`, text)

writes_data(text) if regex.match(`(?i)^(set|setex|mset|del|unlink|hset|hdel|hmset|expire|persist|lpush|rpush|lpop|rpop|lrem|sadd|srem|zadd|zrem|incr|decr|incrby|rename|getdel|json\.set|json\.del)$`, text)

# Database commands that delete a database or keys by themselves.
deny contains {"id": "database.destructive_command", "msg": msg} if {
	"database" in input.agentjail.kinds
	some cmd in commands
	destructive_db_command(cmd)
	db_target(cmd) == "prod"
	msg := sprintf("Blocked: `%s` deletes a database or all of its keys, in what its name or host says is production. Ask the user to run it themselves.", [full_text(cmd)])
}

deny contains {"id": "database.destructive_command", "msg": msg} if {
	"database" in input.agentjail.kinds
	some cmd in commands
	cmd.name == "etcdctl"
	destructive_db_command(cmd)
	msg := sprintf("Blocked: `%s` deletes every key under a prefix of a cluster's store. Ask the user to run it themselves.", [full_text(cmd)])
}

ask contains {"id": "database.drop", "msg": msg} if {
	"database" in input.agentjail.kinds
	some cmd in commands
	cmd.name != "etcdctl"
	destructive_db_command(cmd)
	drop_asked(cmd)
	msg := sprintf("`%s` deletes a database or all of its keys%s; the user has to approve it.", [full_text(cmd), drop_where(cmd)])
}

drop_asked(cmd) if db_target(cmd) == "unknown"

# FLUSHALL empties every database of the server, other projects' too.
drop_asked(cmd) if {
	db_target(cmd) == "local"
	some w in positional(cmd)
	upper(w) == "FLUSHALL"
}

drop_where(cmd) := " on this machine's server, every database of it" if db_target(cmd) == "local"
else := ", and agentjail cannot tell it is a test or local one"

# --- whose data a command reaches -----------------------------------------

# db_target(cmd) is where a database command's data lives:
#   prod     a database name, host or environment word says production
#            (prod, production, live, prd)
#   test     one says test (test, tests, testing, spec, ci, e2e)
#   local    this machine: a loopback host or a socket named, a file in
#            the project or a temp folder (sqlite3 dev.db), redis-cli with
#            no host (its default is 127.0.0.1)
#   unknown  anything else: psql with no host reads PGHOST, which may be
#            anywhere
scratch_targets := {"test", "local"}

db_target(cmd) := "prod" if {
	some w in db_target_words(cmd)
	w in {"prod", "production", "live", "prd"}
} else := "test" if {
	some w in db_target_words(cmd)
	w in {"test", "tests", "testing", "spec", "ci", "e2e"}
} else := "local" if {
	db_local(cmd)
} else := "unknown"

# db_target_words(cmd): the words of the names a command reaches its data
# by (hosts, database names, URLs, environments, settings modules).
db_target_words(cmd) := {w |
	some t in db_hosts(cmd) | db_names(cmd) | db_environments(cmd)
	some w in regex.split(`[^a-z0-9]+`, lower(t))
	w != ""
}

db_host_options := {
	"psql": {"-h", "--host"}, "pgcli": {"-h", "--host"}, "mysql": {"-h", "--host"}, "mariadb": {"-h", "--host"},
	"mycli": {"-h", "--host"}, "redis-cli": {"-h", "-u"}, "valkey-cli": {"-h", "-u"}, "keydb-cli": {"-h", "-u"},
	"mongosh": {"--host"}, "mongo": {"--host"}, "clickhouse-client": {"-h", "--host"}, "clickhouse": {"-h", "--host"},
	"dropdb": {"-h", "--host"}, "createdb": {"-h", "--host"}, "mysqladmin": {"-h", "--host"}, "sqlcmd": {"-S"},
	"cockroach": {"--host", "--url"}, "usql": set(), "cqlsh": set(), "influx": {"--host"},
}

# Options whose value is the statement a client runs, never a name.
sql_text_options := {"-c", "--command", "-e", "--execute", "--query", "-q"}

db_name_options := {"-d", "--dbname", "-D", "--database", "--db", "-n"}

db_hosts(cmd) := option_values(cmd, object.get(db_host_options, cmd.name, set())) | {url_host(u) |
	some u in db_urls(cmd)
}

db_urls(cmd) := {a |
	some a in cmd.args
	regex.match(`^[a-z][a-z0-9+.-]*://`, a)
}

db_names(cmd) := option_values(cmd, db_name_options) | {n |
	cmd.name in {"dropdb", "createdb", "psql", "mysql", "mariadb", "pgcli", "mycli", "cqlsh"}
	n := positional(cmd)[0]
	not n in option_values(cmd, sql_text_options) # the statement is no name: -c 'DROP ...; -- test'
} | {n |
	some u in db_urls(cmd)
	m := regex.find_all_string_submatch_n(`^[a-z][a-z0-9+.-]*://[^/]*/([^?#]+)`, u, 1)
	n := m[0][1]
} | {p |
	cmd.name in file_db_clients
	p := cmd.paths[0]
}

# The environment a framework or client runs against, as the command
# sets it: RAILS_ENV=test, --settings=config.settings.test, -e test.
db_env_vars := {"RAILS_ENV", "RACK_ENV", "NODE_ENV", "APP_ENV", "MIX_ENV", "FLASK_ENV", "DJANGO_SETTINGS_MODULE", "ENVIRONMENT", "ENV", "STAGE", "DATABASE_URL", "PGDATABASE", "PGHOST"}

db_environments(cmd) := {v |
	some k, v in cmd.assigns
	k in db_env_vars
} | option_values(cmd, {"--settings", "--env", "--environment", "--stage"}) | {v |
	# -e is a framework's environment (mix -e test), a client's statement
	not cmd.name in database_clients
	some v in option_values(cmd, {"-e"})
} | {v |
	# rake and rails take them as arguments too: rails db:drop RAILS_ENV=test
	some a in cmd.args
	[k, v] := split(a, "=")
	k in db_env_vars
}

file_db_clients := {"sqlite3", "sqlite", "duckdb", "litecli"}

db_local(cmd) if {
	cmd.name in file_db_clients
	p := cmd.paths[0]
	local_data_file(p)
}

db_local(cmd) if {
	not cmd.name in file_db_clients
	hosts := db_hosts(cmd)
	count(hosts) > 0
	every h in hosts {
		local_db_host(h)
	}
}

db_local(cmd) if {
	cmd.name in {"redis-cli", "valkey-cli", "keydb-cli"}
	count(db_hosts(cmd)) == 0
}

local_db_host(h) if regex.match(loopback_host, h)

local_db_host(h) if startswith(h, "/") # a socket's folder

local_data_file(p) if in_project(p)

local_data_file(p) if in_temp(p)

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
	not scratch_index(u)
	msg := sprintf("`%s` deletes an index or database of a search or document store; the user has to approve it.", [full_text(cmd)])
}

# scratch_index(u): a search store on this machine, or a test index.
scratch_index(u) if {
	regex.match(loopback_host, url_host(u))
	not regex.match(`(?i)(^|[^a-z0-9])(prod|production|live)([^a-z0-9]|$)`, u)
}

scratch_index(u) if {
	regex.match(`(?i)/[^/?#]*(^|[^a-z0-9])(test|tests|testing|spec|e2e)([^a-z0-9]|$)`, u)
	not regex.match(`(?i)(^|[^a-z0-9])(prod|production|live)([^a-z0-9]|$)`, url_host(u))
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
	not reset_of_scratch(cmd)
	msg := sprintf("`%s` drops or wipes the application's database; the user has to approve it, and confirm it is not a shared or production database.", [full_text(cmd)])
}

# A reset run against the test environment, or a file database in the
# project (DATABASE_URL=file:./dev.db), wipes the developer's own data.
reset_of_scratch(cmd) if db_target(cmd) == "test"

reset_of_scratch(cmd) if {
	some k, v in cmd.assigns
	k == "DATABASE_URL"
	regex.match(`^(file:|sqlite:)`, v)
	not db_target(cmd) == "prod"
}

reset_flags_present(_, row) if not row.flags

reset_flags_present(cmd, row) if has_flag(cmd, {f | some f in row.flags})
