package config

import (
	"os"
	"reflect"
	"strings"
	"testing"
)

// Every key of config.yaml has its row in docs/configuration.md, and the
// page has no row for a key that does not exist.
func TestKeysDocumented(t *testing.T) {
	b, err := os.ReadFile("../../docs/configuration.md")
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]bool{}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "| `"); ok {
			key, _, _ := strings.Cut(rest, "`")
			rows[key] = true
		}
	}
	keys := map[string]bool{}
	ty := reflect.TypeOf(Config{})
	for i := 0; i < ty.NumField(); i++ {
		if k := ty.Field(i).Tag.Get("mapstructure"); k != "" && k != "-" {
			keys[k] = true
		}
	}
	if len(keys) < 10 {
		t.Fatalf("found %d keys in Config; the mapstructure tags changed", len(keys))
	}
	for k := range keys {
		if !rows[k] {
			t.Errorf("config key %q has no row in docs/configuration.md", k)
		}
	}
	for k := range rows {
		if !keys[k] {
			t.Errorf("docs/configuration.md has a row for %q, which is no config key", k)
		}
	}
}
