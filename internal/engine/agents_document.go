package engine

import (
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/agentjail/agentjail/agents"
)

// agentsDocument is the agents' facts (agents.All) as the policies read
// them: the engine puts it at data.agentjail.agents whenever it compiles
// the default pack, so a fact changed in an agent's folder reaches the
// rules at the next start, with nothing to regenerate. It is built here,
// not in package agents, which the hook links: the hook links no regexp. Each list is sorted and without
// repeats; places are relative to the home directory (project_places to
// a project's folder), as the agents' facts give them.
//
//	folders         each agent's own folder
//	hook_files      the files the user's install writes the hook into
//	user_places     the folders and files of the agents' user-level hooks
//	                and of the switches that turn them off
//	project_places  the same in a project
//	machine_places  the machine-wide places of their settings and hooks
//	programs        the programs that start an agent
//	hook_folders    folders, in a home or a project, every file of which
//	                is a hook an agent runs
//	place_pattern   any of the places above, as one regular expression
//	credentials     the files that hold an agent's login
//	record_folders  the folders of the agents' own records of their tool
//	                calls (the accounting reads them)
//	working_files   the files an agent keeps for its own work (memory,
//	                plans, to-do lists), as globs (** for any folders)
var agentsDocument = sync.OnceValue(newAgentsDocument)

func newAgentsDocument() map[string]any {
	list := func(each func(i int) []string) []any {
		var vals []string
		for i := range agents.All {
			for _, v := range each(i) {
				if v != "" && !slices.Contains(vals, v) {
					vals = append(vals, v)
				}
			}
		}
		slices.Sort(vals)
		out := make([]any, len(vals))
		for i, v := range vals {
			out[i] = v
		}
		return out
	}
	return map[string]any{
		"folders":        list(func(i int) []string { return []string{agents.All[i].Folder} }),
		"hook_files":     list(func(i int) []string { return []string{agents.All[i].HookFile} }),
		"user_places":    list(func(i int) []string { return agents.All[i].UserPlaces }),
		"project_places": list(func(i int) []string { return agents.All[i].ProjectPlaces }),
		"machine_places": list(func(i int) []string { return agents.All[i].Machine }),
		"programs":       list(func(i int) []string { return agents.All[i].Programs }),
		"hook_folders":   list(func(i int) []string { return agents.All[i].HookFolders }),
		"place_pattern":  placePattern(),
		"credentials":    list(func(i int) []string { return agents.All[i].Credentials }),
		"record_folders": list(func(i int) []string {
			var subs []string
			for _, r := range agents.All[i].Records {
				subs = append(subs, r.HomeSub)
			}
			return subs
		}),
		"working_files": list(func(i int) []string { return agents.All[i].WorkingFiles }),
	}
}

// placePattern is one pattern for every folder and place of the agents,
// for the pack's cheap test of whether a call could name one
// (names_guard_place): a regular expression is compiled once, where a
// loop over the lists would run on every call. A place that holds
// another (.claude in .claude/settings.json) is enough.
func placePattern() string {
	var places []string
	for _, a := range agents.All {
		places = append(places, slices.Concat([]string{a.Folder, a.HookFile}, a.UserPlaces, a.ProjectPlaces, a.Machine, a.HookFolders)...)
	}
	var marks []string
	for _, p := range places {
		held := p == "" || slices.ContainsFunc(places, func(q string) bool { return q != "" && q != p && strings.Contains(p, q) })
		if !held && !slices.Contains(marks, regexp.QuoteMeta(p)) {
			marks = append(marks, regexp.QuoteMeta(p))
		}
	}
	slices.Sort(marks)
	return strings.Join(marks, "|")
}
