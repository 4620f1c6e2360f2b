package engine

import (
	"context"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"
)

// Every ```rego block of the README loads as pasted: alone, as the only
// file beside the default pack, exactly as a user would save it.
func TestReadmeRegoBlocksLoad(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?s)```rego\n(.*?)```").FindAllStringSubmatchIndex(string(readme), -1)
	if len(blocks) < 2 {
		t.Fatalf("found %d rego blocks in the README, want its examples", len(blocks))
	}
	pack := defaultPack(t, false)
	for _, b := range blocks {
		line := strings.Count(string(readme[:b[0]]), "\n") + 1
		text := readme[b[2]:b[3]]
		t.Run(fmt.Sprintf("README.md:%d", line), func(t *testing.T) {
			src := Source{Name: "readme.rego", Text: text}
			if _, version, err := Parse(src.Name, src.Text); err != nil {
				t.Fatalf("does not parse: %v\n%s", err, text)
			} else {
				t.Logf("Rego %s", version)
			}
			if _, errs := Compile(context.Background(), append(append([]Source(nil), pack...), src), nil, nil); len(errs) > 0 {
				t.Errorf("does not load beside the pack: %v\n%s", errs, text)
			}
		})
	}
}
