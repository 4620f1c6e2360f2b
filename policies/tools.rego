package agentjail

# Every tool, not only Bash: the daemon reads paths out of every field
# (file:// URLs in uri/url fields, a Glob pattern or a Grep glob matched
# against well-known secret files) into input.agentjail.paths, so the
# secrets rules judge them like a shell command's; URLs are listed in
# input.agentjail.urls for the network rules.

# Any agent's content search over all of HOME or a configuration folder
# for token-shaped text (ghp_, sk-live-, AKIA ...) reads every token there.
deny contains {"id": "secrets.search_home", "msg": msg} if {
	input.agentjail.tool == "search"
	s := input.agentjail.search
	s.content # even names only: they say where live tokens are
	p := input.agentjail.file_path
	broad_search_root(p)
	v := s.pattern
	v != ""
	regex.match(token_prefix_pattern, v)
	msg := sprintf("Blocked: this search of %s looks for tokens and would return every one it finds. Search the project instead.", [pretty(p)])
}

token_prefix_pattern := `(ghp_|gho_|ghs_|ghu_|github_pat_|glpat-|sk-|sk_live|rk_live|AKIA|ASIA|xox[abprs]-|npm_|pypi-|AIza|ya29\.|-----BEGIN)`
