// Package plural writes counts the way people read them: "1 policy
// problem", "2 policy problems", "0 decisions". Every count a user reads
// (status, health, try, install, the tray) goes through it, so none says
// "1 policy problems" or hedges with "error(s)".
package plural

import "strconv"

// Of is n followed by the noun: one when n is 1, else the plural, which
// is one plus "s" unless given (Of(n, "entry", "entries")).
func Of(n int, one string, many ...string) string {
	return strconv.Itoa(n) + " " + Noun(n, one, many...)
}

// Noun is the noun alone, for a count written elsewhere in the sentence.
func Noun(n int, one string, many ...string) string {
	if n == 1 {
		return one
	}
	if len(many) > 0 {
		return many[0]
	}
	return one + "s"
}
