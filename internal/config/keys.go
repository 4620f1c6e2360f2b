package config

import (
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/spf13/viper"
	"go.yaml.in/yaml/v3"
)

// The checks below run before viper decodes the file, so every mistake
// is reported in the file's own terms (a key, its value, what to write
// instead) rather than in the decoder's (type names, strconv errors).

// keyKinds maps every key of config.yaml to the Go kind of its field,
// read from Config's mapstructure tags so a new field is known here the
// moment it exists.
func keyKinds() map[string]reflect.Type {
	kinds := map[string]reflect.Type{}
	t := reflect.TypeOf(Config{})
	for i := range t.NumField() {
		if tag := t.Field(i).Tag.Get("mapstructure"); tag != "" && tag != "-" {
			kinds[strings.Split(tag, ",")[0]] = t.Field(i).Type
		}
	}
	return kinds
}

// checkKeys refuses a key config.yaml does not have, suggesting the
// nearest one when the key looks like a typo of it. The file's keys are
// read from its YAML: viper lists only keys that lead to a value, so an
// unknown key holding an empty map would pass unseen.
func checkKeys(text []byte) error {
	kinds := keyKinds()
	var top map[string]any
	if yaml.Unmarshal(text, &top) != nil {
		return nil // viper read it; its own error would have been reported
	}
	var unknown []string
	for k := range top {
		if _, ok := kinds[strings.ToLower(k)]; !ok {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) == 0 {
		return checkSectionKeys(top, kinds)
	}
	sort.Strings(unknown)
	known := make([]string, 0, len(kinds))
	for k := range kinds {
		known = append(known, k)
	}
	sort.Strings(known)
	var msgs []string
	for _, k := range unknown {
		msg := fmt.Sprintf("unknown key %q", k)
		if near := nearest(k, known); near != "" {
			msg += fmt.Sprintf(" (did you mean %s?)", near)
		}
		msgs = append(msgs, msg)
	}
	return fmt.Errorf("%s; the keys are %s", strings.Join(msgs, "; "), strings.Join(known, ", "))
}

// checkSectionKeys refuses a key a section (system:) does not have.
func checkSectionKeys(top map[string]any, kinds map[string]reflect.Type) error {
	for k, v := range top {
		t := kinds[strings.ToLower(k)]
		sub, ok := v.(map[string]any)
		if t == nil || t.Kind() != reflect.Struct || !ok {
			continue
		}
		var known []string
		for i := range t.NumField() {
			known = append(known, strings.Split(t.Field(i).Tag.Get("mapstructure"), ",")[0])
		}
		sort.Strings(known)
		for sk := range sub {
			if !slices.Contains(known, strings.ToLower(sk)) {
				msg := fmt.Sprintf("%s: unknown key %q", k, sk)
				if near := nearest(sk, known); near != "" {
					msg += fmt.Sprintf(" (did you mean %s?)", near)
				}
				return fmt.Errorf("%s; the keys of %s are %s", msg, k, strings.Join(known, ", "))
			}
		}
	}
	return nil
}

// checkTypes refuses a value of the wrong shape for its key: a bool that
// is not true or false, a list written as a single value, a string
// written as a list. Durations are checked by checkDurations.
func checkTypes(v *viper.Viper) error {
	kinds := keyKinds()
	keys := make([]string, 0, len(kinds))
	for k := range kinds {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, key := range keys {
		if !v.InConfig(key) {
			continue
		}
		val := v.Get(key)
		if val == nil {
			continue // an empty value keeps the default
		}
		switch typ := kinds[key]; {
		case typ == reflect.TypeOf(time.Duration(0)):
			// checkDurations
		case typ.Kind() == reflect.Bool:
			if _, ok := val.(bool); !ok {
				return fmt.Errorf("%s must be true or false, not %s", key, show(val))
			}
		case typ.Kind() == reflect.String:
			if _, ok := val.(string); !ok {
				if isScalar(val) {
					continue // fail_mode: 3 is read as "3", and refused by validate by name
				}
				return fmt.Errorf("%s must be a single value, not %s", key, show(val))
			}
		case typ.Kind() == reflect.Map, typ.Kind() == reflect.Struct:
			if _, ok := val.(map[string]any); !ok {
				return fmt.Errorf("%s must be a mapping (keys indented under it), not %s", key, show(val))
			}
		case typ.Kind() == reflect.Slice:
			list, ok := val.([]any)
			if !ok {
				return fmt.Errorf("%s must be a list, such as %s: [%s], not %s", key, key, show(val), show(val))
			}
			for _, item := range list {
				if _, ok := item.(string); !ok {
					return fmt.Errorf("%s: every item must be a single value, not %s", key, show(item))
				}
			}
		}
	}
	return nil
}

func isScalar(v any) bool {
	switch v.(type) {
	case []any, map[string]any, map[any]any:
		return false
	}
	return true
}

// show writes a YAML value back roughly as the user wrote it.
func show(v any) string {
	switch x := v.(type) {
	case string:
		return fmt.Sprintf("%q", x)
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = show(e)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case map[string]any:
		return "a map"
	}
	return fmt.Sprint(v)
}

// nearest is the candidate within a small edit distance of s, or "".
func nearest(s string, candidates []string) string {
	best, bestD := "", 3 // more than 2 edits away is not a typo
	for _, c := range candidates {
		if d := editDistance(s, c); d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance, with a swap of two adjacent
// letters counting as one edit (the commonest typo).
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	d := make([][]int, len(ra)+1)
	for i := range d {
		d[i] = make([]int, len(rb)+1)
		d[i][0] = i
	}
	for j := range rb {
		d[0][j+1] = j + 1
	}
	for i := 1; i <= len(ra); i++ {
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(ra)][len(rb)]
}

// Nearest is the candidate a mistyped name was most likely meant to be,
// or "" when none is close: for "did you mean" in messages.
func Nearest(s string, candidates []string) string { return nearest(s, candidates) }
