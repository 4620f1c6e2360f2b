package agentjail

# Supply chain (ATT&CK T1195.001/.002): a package whose name is one
# letter away from a well-known one (typosquatting), and package-manager
# settings that turn install scripts back on.

# well_known_packages: per registry, names developers install every day;
# a name one edit away from one of them that is not itself in the table
# is the shape a typosquat takes. Names that are each other's neighbours
# (react, preact; scipy, scapy; mysql, mysql2) are both listed. Users add
# names in data.agentjail.well_known_packages_extra (by registry).
well_known_packages_pack := {
	"pypi": {
		"requests", "urllib3", "numpy", "pandas", "scipy", "scapy", "matplotlib", "django", "flask", "fastapi",
		"uvicorn", "pydantic", "sqlalchemy", "boto3", "botocore", "pytest", "setuptools", "wheel", "pyyaml",
		"jinja2", "jinja", "cryptography", "pillow", "beautifulsoup4", "selenium", "tensorflow", "torch",
		"torchvision", "torchaudio", "transformers", "scikit-learn", "keras", "colorama", "python-dateutil",
		"certifi", "charset-normalizer", "click", "rich", "httpx", "aiohttp", "openai", "anthropic",
		"psycopg2", "psycopg2-binary", "psycopg", "pymongo", "redis", "celery", "black", "flake8", "pylint",
		"isort", "poetry", "virtualenv", "docker", "paramiko", "pyjwt", "jupyter", "notebook", "ipython",
		"seaborn", "plotly", "networkx", "sympy", "opencv-python", "gunicorn", "werkzeug", "markupsafe",
		"packaging", "attrs", "typing-extensions", "protobuf", "grpcio", "pyarrow", "polars", "langchain",
		"huggingface-hub", "tokenizers", "datasets", "dataset", "accelerate", "python-dotenv", "coverage", "tox", "nose", "nose2",
		"pytest-cov", "pytest-mock", "requests-oauthlib", "oauthlib", "simplejson", "ujson", "orjson",
		"pyopenssl", "pycryptodome", "bcrypt", "passlib", "tornado", "twisted", "scrapy", "nltk", "spacy",
		"xgboost", "lightgbm", "mysqlclient", "pymysql", "asyncpg", "alembic", "marshmallow", "arrow",
		"pendulum", "loguru", "tenacity", "pexpect", "psutil", "pyserial", "pygments", "sphinx", "mkdocs",
		"jellyfish", "tqdm", "six", "lxml", "toml", "tomli", "tomlkit", "rapidfuzz", "fuzzywuzzy",
		"python-levenshtein", "levenshtein", "tabulate", "termcolor", "pyparsing", "decorator", "wrapt", "idna",
		"chardet", "filelock", "platformdirs", "distlib", "pyasn1", "rsa", "google-auth",
		"google-api-python-client", "azure-identity", "azure-storage-blob", "msal", "kubernetes", "ansible",
		"fabric", "invoke", "pytz", "tzdata", "regex", "joblib", "threadpoolctl", "statsmodels", "openpyxl",
		"xlrd", "xlsxwriter", "reportlab", "pypdf", "pymupdf", "python-multipart", "starlette", "jsonschema",
		"mypy", "ruff", "pre-commit", "hypothesis", "faker", "freezegun", "responses", "httpcore", "anyio",
		"sniffio", "websockets", "websocket-client", "boto", "s3fs", "fsspec", "dask", "numba", "shapely",
		"geopandas", "pyproj", "folium", "streamlit", "gradio", "dash", "bokeh", "altair", "sentencepiece",
		"safetensors", "onnx", "onnxruntime", "langchain-core", "llama-index", "tiktoken", "pyinstaller",
		"cython", "pybind11", "cffi", "pycparser", "greenlet", "gevent", "eventlet", "uwsgi", "supervisor",
		"pyzmq", "msgpack", "cachetools", "diskcache", "boltons", "more-itertools", "toolz", "sortedcontainers",
		"bidict", "pydantic-settings", "typer", "docopt", "fire", "prompt-toolkit", "questionary", "tldextract",
		"validators", "email-validator", "phonenumbers", "babel", "markdown", "mistune", "docutils",
		"ruamel-yaml", "colorlog", "structlog", "sentry-sdk", "prometheus-client", "opentelemetry-api",
		"discord-py", "python-telegram-bot", "tweepy", "slack-sdk", "pygame", "kivy", "pyqt5", "pyside6",
		"wxpython", "pyautogui", "pynput", "keyboard", "pywin32", "pycurl", "beautifulsoup", "bs4", "html5lib",
		"webdriver-manager", "playwright", "mechanize",
	},
	"npm": {
		"react", "preact", "react-dom", "express", "lodash", "lodash-es", "axios", "chalk", "commander",
		"debug", "dotenv", "dotenvx", "cross-env", "typescript", "webpack", "rollup", "esbuild", "eslint",
		"tslint", "prettier", "jest", "mocha", "chai", "vitest", "nodemon", "moment", "dayjs", "uuid",
		"yargs", "inquirer", "mongoose", "mysql", "mysql2", "redis", "ioredis", "socket.io", "jsonwebtoken",
		"bcrypt", "bcryptjs", "body-parser", "cors", "helmet", "morgan", "winston", "pino", "sharp", "next",
		"nuxt", "vue", "vuex", "svelte", "angular", "rxjs", "redux", "react-redux", "react-router",
		"react-router-dom", "styled-components", "tailwindcss", "postcss", "autoprefixer", "sass", "less",
		"babel-loader", "ts-node", "tsx", "zod", "yup", "joi", "ajv", "underscore", "async", "bluebird",
		"request", "node-fetch", "got", "cheerio", "puppeteer", "playwright", "electron", "graphql",
		"apollo-server", "prisma", "sequelize", "knex", "typeorm", "pg", "sqlite3", "better-sqlite3",
		"classnames", "clsx", "semver", "minimist", "glob", "rimraf", "mkdirp", "fs-extra", "chokidar",
		"concurrently", "husky", "lint-staged", "nanoid", "date-fns", "immer", "zustand", "swr", "ws",
		"colors", "color", "ora", "execa", "coffee-script", "event-stream", "ua-parser-js", "node-ipc",
		"vite", "nx", "lerna", "turbo", "pnpm", "yarn", "npm", "esm", "tslib", "core-js", "regenerator-runtime",
		"babel-core", "webpack-cli", "webpack-dev-server", "ts-loader", "css-loader", "style-loader",
		"html-webpack-plugin", "dotenv-expand", "jquery", "bootstrap", "d3", "three", "chart.js", "leaflet",
		"socket.io-client", "form-data", "qs", "mime", "mime-types", "cookie", "cookies", "cookie-parser",
		"express-session", "passport", "multer", "nodemailer", "bull", "bullmq", "kafkajs", "amqplib",
		"aws-sdk", "firebase", "stripe", "twilio", "openai", "discord.js", "telegraf", "electron-builder",
		"pm2", "forever", "serve", "http-server", "live-server", "ts-jest", "supertest", "sinon", "nock",
		"cypress", "storybook", "react-scripts", "gatsby", "remix", "astro", "solid-js", "lit", "alpinejs",
		"marked", "markdown-it", "highlight.js", "prismjs", "handlebars", "ejs", "pug", "mustache",
	},
	"crates": {
		"serde", "serde_json", "tokio", "rand", "clap", "anyhow", "thiserror", "reqwest", "regex", "chrono",
		"log", "env_logger", "tracing", "futures", "hyper", "axum", "actix-web", "rayon", "itertools",
		"once_cell", "lazy_static", "bytes", "uuid", "syn", "quote", "proc-macro2", "libc", "sqlx", "diesel",
		"rust_decimal", "serde_yaml", "serde_derive", "toml", "hex", "base64", "sha2", "sha1", "md5", "hmac",
		"aes", "ring", "rustls", "openssl", "native-tls", "tokio-util", "tower", "tower-http", "tonic", "prost",
		"warp", "rocket", "tracing-subscriber", "crossbeam", "parking_lot", "dashmap", "indexmap", "hashbrown",
		"smallvec", "arrayvec", "bitflags", "num-traits", "num_cpus", "walkdir", "tempfile", "dirs", "glob",
		"url", "http", "mime", "time", "humantime", "semver", "nom", "pest", "bincode", "postcard", "ron",
		"csv", "zip", "flate2", "tar", "image", "criterion", "proptest", "mockall", "assert_cmd", "predicates",
		"structopt", "colored", "indicatif", "console", "dialoguer", "crossterm", "ratatui", "wasm-bindgen",
		"js-sys", "web-sys", "cc", "bindgen", "pyo3", "napi", "redis", "mongodb", "rusqlite", "sea-orm",
		"async-trait", "pin-project", "futures-util",
	},
	"rubygems": {
		"rails", "rake", "bundler", "rspec", "nokogiri", "devise", "puma", "sidekiq", "rubocop", "pry",
		"activesupport", "json", "rack", "sinatra", "faraday", "httparty", "capistrano",
	},
}

well_known_packages := {reg: names |
	some reg, base in well_known_packages_pack
	names := {canonical_package(reg, n) | some n in base | {n | some n in data.agentjail.well_known_packages_extra[reg]}}
}

# canonical_package is a name as its registry compares names: PyPI
# lower-cases and takes runs of -_. as one dash; crates.io takes - and _
# as the same letter (cargo add rust-decimal adds rust_decimal).
canonical_package("pypi", n) := regex.replace(lower(n), `[-_.]+`, "-")

canonical_package("crates", n) := replace(lower(n), "-", "_")

canonical_package(reg, n) := n if not reg in {"pypi", "crates"}

# package_registries: the registry an installer's names come from.
package_registries := {
	"pip": "pypi", "pip3": "pypi", "uv": "pypi", "pipx": "pypi", "poetry": "pypi", "pdm": "pypi", "pipenv": "pypi",
	"npm": "npm", "pnpm": "npm", "yarn": "npm", "bun": "npm",
	"cargo": "crates", "gem": "rubygems",
}

program_group contains [prog, "package_install"] if some prog, _ in package_registries

ask contains {"id": "supplychain.typosquat", "msg": msg} if {
	"package_install" in input.agentjail.kinds
	some cmd in commands
	some words in invocations(cmd)
	reg := package_registries[words[0]]
	some i, verb in words
	verb in {"install", "i", "add"}
	some spec in array.slice(words, i + 1, count(words))
	name := registry_name(reg, spec)
	count(name) >= 5
	known := well_known_packages[reg]
	not name in known
	some near in known
	one_edit(name, near)
	msg := sprintf("`%s` installs %s, one letter away from the well-known package %s and not itself one: a misspelt name is how typosquatted packages are installed. Check the name (%s, if that was meant); the user has to approve it.", [full_text(cmd), name, near, near])
}

# registry_name is a package spec's bare name as its registry compares
# names: without a version, extras or a scope's version suffix; PyPI
# names lower-cased with runs of -_. as one dash. Paths, URLs and files
# give none.
registry_name(reg, spec) := name if {
	reg == "pypi"
	regex.match(`^[A-Za-z0-9][A-Za-z0-9._-]*([\[=<>!~;@ ].*)?$`, spec)
	bare := regex.replace(spec, `[\[=<>!~;@ ].*$`, "")
	not regex.match(`\.(txt|whl|zip|gz|tgz|cfg|toml|in)$`, bare)
	name := canonical_package(reg, bare)
}

registry_name(reg, spec) := name if {
	reg != "pypi"
	regex.match(`^@?[a-z0-9][a-z0-9._/-]*(@[^/]*)?$`, spec)
	not contains(trim_prefix(spec, "@"), "/")
	name := canonical_package(reg, regex.replace(spec, `^(@?[^@]+)@.*$`, "$1"))
}

# one_edit(a, b): a becomes b by one substitution, one insertion or
# deletion, or by swapping two neighbouring letters (a != b).
one_edit(a, b) if {
	count(a) == count(b)
	diffs := [i | some i in numbers.range(0, count(a) - 1); substring(a, i, 1) != substring(b, i, 1)]
	count(diffs) == 1
}

one_edit(a, b) if {
	count(a) == count(b)
	diffs := [i | some i in numbers.range(0, count(a) - 1); substring(a, i, 1) != substring(b, i, 1)]
	count(diffs) == 2
	diffs[1] == diffs[0] + 1
	substring(a, diffs[0], 1) == substring(b, diffs[1], 1)
	substring(a, diffs[1], 1) == substring(b, diffs[0], 1)
}

one_edit(a, b) if dropped_one(a, b)

one_edit(a, b) if dropped_one(b, a)

# dropped_one(long, short): short is long with one letter left out.
dropped_one(long, short) if {
	count(long) == count(short) + 1
	startswith(long, substring(short, 0, 1))
	some i in numbers.range(0, count(short))
	concat("", [substring(long, 0, i), substring(long, i + 1, -1)]) == short
}

dropped_one(long, short) if {
	count(long) == count(short) + 1
	substring(long, 1, -1) == short
}

# A download source swapped for a bare public address in place (sed -i
# 's|https://github.com/acme/app/releases|http://198.51.100.3/dl|'): every
# later install or update of the project then fetches from a host with
# no name to check (T1195.002). The s command's delimiter is any
# character; the pattern names a host, the replacement an address.
ask contains {"id": "supplychain.source_redirect", "msg": msg} if {
	"interpreter" in input.agentjail.kinds
	some cmd in commands
	cmd.name in {"sed", "gsed", "perl"}
	some a in cmd.args
	regex.match(`^s[^a-zA-Z0-9\s\\]`, a)
	delim := substring(a, 1, 1)
	# An escaped delimiter (s/https:\/\/host/…/) is a letter of its part.
	parts := [replace(part, "\u0000", delim) | some part in split(replace(a, concat("", ["\\", delim]), "\u0000"), delim)]
	count(parts) >= 3
	regex.match(`(?i)[a-z0-9-]+\.[a-z]{2,}`, parts[1])
	not regex.match(`(?:[0-9]{1,3}\.){3}[0-9]{1,3}`, parts[1])
	regex.match(`(?i)^(https?|ftp)://`, parts[2])
	public_ip_in(parts[2])
	msg := sprintf("`%s` points a download at a bare address (%s) in place of a named host: what the project installs or updates would then come from there; the user has to approve it.", [cmd.name, parts[2]])
}

# npm's ignore-scripts switched back off: the install scripts of every
# dependency run again, which is what the setting was there to stop.
ask contains {"id": "supplychain.install_scripts_on", "msg": msg} if {
	"package_install" in input.agentjail.kinds
	some cmd in commands
	cmd.name in {"npm", "pnpm", "yarn"}
	some i, a in cmd.args
	a == "config"
	cmd.args[i + 1] == "set"
	kv := concat("=", array.slice(cmd.args, i + 2, count(cmd.args)))
	regex.match(`^(--[a-z-]+=?\S*=)?(ignore-scripts|enableScripts|ignoreScripts)[= ]+(false|0|no)$|^(enable-scripts|enableScripts)=(true|1)`, kv)
	msg := sprintf("`%s` lets every dependency's install scripts run again; the user has to approve it.", [full_text(cmd)])
}

# known_prepare_scripts: the `prepare` scripts projects add every day to
# set up their git hooks or generated files (husky's documented setup is
# exactly "prepare": "husky"); a package.json that gains one of them,
# word for word, runs nothing new to judge. Other install scripts
# (preinstall, postinstall ...) run in every installer's tree and stay
# asked whatever they hold. Users add theirs in
# data.agentjail.known_prepare_scripts_extra.
known_prepare_scripts := {
	"husky", "lefthook install", "simple-git-hooks", "svelte-kit sync", "nuxt prepare", "astro sync",
	"panda codegen", "ts-patch install",
} | {s | some s in data.agentjail.known_prepare_scripts_extra}

known_install_script(kind, a) if {
	kind == "npm_manifest"
	a.key == "scripts/prepare"
	trim_space(a.value) in known_prepare_scripts
}

# A remote pointed at another repository (ATT&CK T1199, T1567.001): every
# later push, and what the user pushes without looking, goes there. The
# daemon reads the repository's current remotes (git_remotes), so a
# switch between https and ssh of the same repository stays allowed;
# where they cannot be read, the change cannot be told from a redirect.
ask contains {"id": "repo.remote_redirect", "msg": msg} if {
	"git" in input.agentjail.names
	some cmd in commands
	cmd.name == "git"
	pos := positional(cmd)
	pos[0] == "remote"
	pos[1] == "set-url"
	name := pos[2]
	url := pos[3]
	was := object.get(input.agentjail, ["git_remotes", name], "")
	repo_slug(url) != repo_slug(was)
	msg := sprintf("`%s` points the remote %s at %s%s: later pushes would go there. The user has to approve it.", [full_text(cmd), name, url, remote_was(was)])
}

remote_was("") := " (its current URL could not be read)"

remote_was(was) := sprintf(" instead of %s", [was]) if was != ""

# repo_slug is a remote URL's host and path, whatever the scheme, user or
# .git suffix: git@github.com:dev/app.git and https://github.com/dev/app
# name the same repository.
repo_slug(u) := trim_suffix(trim_right(lower(host_path), "/"), ".git") if {
	bare := regex.replace(regex.replace(u, `^[a-z+]+://`, ""), `^[^@/]+@`, "")
	host_path := regex.replace(regex.replace(bare, `^([^/:]+):[0-9]*/?`, "$1/"), `/+$`, "")
}
