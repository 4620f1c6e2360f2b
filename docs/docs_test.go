// Package docs holds agentjail's manual; its test keeps the README a
// front door and every link between the pages whole.
package docs

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// readmeMax is the README's budget: what a newcomer reads before
// installing; everything else belongs on a page of docs/.
const readmeMax = 15500

func TestReadmeSize(t *testing.T) {
	b, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	if n := len([]rune(string(b))); n > readmeMax {
		t.Errorf("README.md has %d characters, over its %d: move the detail to a page of docs/ and link it", n, readmeMax)
	}
}

// pages are the README and every page of docs/.
func pages(t *testing.T) []string {
	t.Helper()
	docs, err := filepath.Glob("*.md")
	if err != nil {
		t.Fatal(err)
	}
	if len(docs) < 5 {
		t.Fatalf("found %d pages in docs/", len(docs))
	}
	return append([]string{"../README.md"}, docs...)
}

var (
	mdLink  = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	fence   = regexp.MustCompile("(?ms)^```.*?^```")
	heading = regexp.MustCompile(`(?m)^#{1,6} +(.+?) *#*$`)
	// notInSlug are the characters GitHub drops from a heading's anchor.
	notInSlug = regexp.MustCompile(`[^\p{L}\p{N} _-]`)
)

// anchors are the ids GitHub gives the headings of a markdown text
// (lower case, punctuation dropped, spaces as hyphens, repeats numbered).
func anchors(text string) map[string]bool {
	out := map[string]bool{}
	for _, m := range heading.FindAllStringSubmatch(fence.ReplaceAllString(text, ""), -1) {
		slug := strings.ReplaceAll(notInSlug.ReplaceAllString(strings.ToLower(m[1]), ""), " ", "-")
		id := slug
		for n := 1; out[id]; n++ {
			id = slug + "-" + strconv.Itoa(n)
		}
		out[id] = true
	}
	return out
}

// Every relative link of the README and of docs/*.md leads to a file
// that exists, and a link with #anchor to a heading of that page.
func TestDocsLinks(t *testing.T) {
	checked := 0
	for _, page := range pages(t) {
		b, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		text := fence.ReplaceAllString(string(b), "")
		for _, m := range mdLink.FindAllStringSubmatch(text, -1) {
			link := m[1]
			if strings.Contains(link, "://") || strings.HasPrefix(link, "mailto:") {
				continue
			}
			file, anchor, _ := strings.Cut(link, "#")
			target := page
			if file != "" {
				target = filepath.Join(filepath.Dir(page), file)
			}
			checked++
			st, err := os.Stat(target)
			if err != nil {
				t.Errorf("%s: the link %q leads to no file (%v)", page, link, err)
				continue
			}
			if anchor == "" || st.IsDir() || !strings.HasSuffix(target, ".md") {
				continue
			}
			tb, err := os.ReadFile(target)
			if err != nil {
				t.Fatal(err)
			}
			if !anchors(string(tb))[anchor] {
				t.Errorf("%s: the link %q names no heading of %s", page, link, target)
			}
		}
	}
	if checked < 20 {
		t.Fatalf("checked %d links; the pages link far more", checked)
	}
}

// The README links every page of docs/, so a reader finds each from the
// front door.
func TestReadmeLinksEveryPage(t *testing.T) {
	b, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, page := range pages(t)[1:] {
		if !strings.Contains(string(b), "](docs/"+page+")") && !strings.Contains(string(b), "](docs/"+page+"#") {
			t.Errorf("README.md does not link docs/%s", page)
		}
	}
}

// The anchor rule above, on the headings this manual uses.
func TestDocsAnchors(t *testing.T) {
	got := anchors("# Using agentjail\n## The tray, notifications and the decision log\n## Is each agent guarded?\n```\n# not a heading\n```\n## What `make test` downloads, and the caches\n## Modes\n## Modes\n")
	for _, want := range []string{"using-agentjail", "the-tray-notifications-and-the-decision-log", "is-each-agent-guarded", "what-make-test-downloads-and-the-caches", "modes", "modes-1"} {
		if !got[want] {
			t.Errorf("no anchor %q in %v", want, got)
		}
	}
	if got["not-a-heading"] {
		t.Error("a line in a code block was taken for a heading")
	}
}
