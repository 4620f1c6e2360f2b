package plural

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func TestOf(t *testing.T) {
	tests := []struct {
		name string
		got  string
		want string
	}{
		{"one", Of(1, "policy problem"), "1 policy problem"},
		{"two", Of(2, "policy problem"), "2 policy problems"},
		{"none", Of(0, "decision"), "0 decisions"},
		{"irregular one", Of(1, "entry", "entries"), "1 entry"},
		{"irregular many", Of(3, "entry", "entries"), "3 entries"},
		{"negative", Of(-1, "call"), "-1 calls"},
		{"noun alone", Noun(1, "call") + "/" + Noun(5, "call"), "call/calls"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.got != tt.want {
				t.Errorf("%q, want %q", tt.got, tt.want)
			}
		})
	}
}

// No count a user reads is written past this package: a format that puts
// a plural noun after a count ("%d policy problems") says "1 policy
// problems" for one, and "(s)" hedges. Bounds ("more than %d words")
// are constants above one and stay as they are; a verb after a number
// ("pid %d is not yours") is no count.
func TestNoCountedNounsOutsidePlural(t *testing.T) {
	literal := regexp.MustCompile(`"(?:[^"\\\n]|\\.)*"`)
	counted := regexp.MustCompile(`%d( [a-z]+)?( [a-z]+)? ([a-z]+s)\b|[a-z]\(s\)`)
	bound := regexp.MustCompile(`(than|over|under) %d`)
	verbs := map[string]bool{"is": true, "was": true, "does": true, "runs": true, "has": true}
	for _, dir := range []string{"cli", "daemon", "installer", "app"} {
		files, err := filepath.Glob(filepath.Join("..", "..", dir, "*.go"))
		if err != nil || len(files) == 0 {
			t.Fatalf("%s: no Go files (%v)", dir, err)
		}
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			for i, line := range strings.Split(string(b), "\n") {
				for _, lit := range literal.FindAllString(line, -1) {
					if bound.MatchString(lit) {
						continue
					}
					for _, m := range counted.FindAllStringSubmatch(lit, -1) {
						if !verbs[m[3]] && !verbs[strings.TrimSpace(m[1])] {
							t.Errorf("%s:%d: %q counts a noun by hand; use plural.Of", f, i+1, m[0])
						}
					}
				}
			}
		}
	}
}
