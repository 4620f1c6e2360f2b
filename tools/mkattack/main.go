// Command mkattack writes docs/attack/enterprise.tsv, the ATT&CK
// enterprise techniques that docs/threat-model.md accounts for, from
// MITRE's STIX data. Give it the STIX files: a whole bundle
// (enterprise-attack.json of mitre-attack/attack-stix-data) or the
// per-object files of mitre/cti (enterprise-attack/attack-pattern/), and
// the ATT&CK version when the input carries no x-mitre-collection:
//
//	git -C cti archive HEAD enterprise-attack/attack-pattern | tar -x -C /tmp/cti
//	go run ./tools/mkattack -version 18.1 /tmp/cti/enterprise-attack/attack-pattern > docs/attack/enterprise.tsv
//
// One line per technique and sub-technique that is neither deprecated nor
// revoked: id, name, platforms and tactics (comma-separated), sorted by id.
// The first line names the version. TestThreatModel reads the file.
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

type object struct {
	Type       string   `json:"type"`
	Name       string   `json:"name"`
	Revoked    bool     `json:"revoked"`
	Deprecated bool     `json:"x_mitre_deprecated"`
	Version    string   `json:"x_mitre_version"`
	Platforms  []string `json:"x_mitre_platforms"`
	Phases     []struct {
		Chain string `json:"kill_chain_name"`
		Phase string `json:"phase_name"`
	} `json:"kill_chain_phases"`
	Refs []struct {
		Source string `json:"source_name"`
		ID     string `json:"external_id"`
	} `json:"external_references"`
}

type technique struct{ id, name, platforms, tactics string }

func main() {
	version := flag.String("version", "", "ATT&CK version, when the input has no x-mitre-collection")
	flag.Parse()
	if err := run(os.Stdout, *version, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "mkattack:", err)
		os.Exit(1)
	}
}

func run(w io.Writer, version string, args []string) error {
	if len(args) == 0 {
		return errors.New("give the STIX bundle or the folder of attack-pattern files")
	}
	var files []string
	for _, a := range args {
		fi, err := os.Stat(a)
		if err != nil {
			return err
		}
		if !fi.IsDir() {
			files = append(files, a)
			continue
		}
		m, err := filepath.Glob(filepath.Join(a, "*.json"))
		if err != nil {
			return err
		}
		files = append(files, m...)
	}
	var out []technique
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		var bundle struct {
			Objects []object `json:"objects"`
		}
		if err := json.Unmarshal(b, &bundle); err != nil {
			return fmt.Errorf("%s: %w", f, err)
		}
		for _, o := range bundle.Objects {
			if o.Type == "x-mitre-collection" && version == "" {
				version = o.Version
			}
			if t, ok := techniqueOf(o); ok {
				out = append(out, t)
			}
		}
	}
	if version == "" {
		return errors.New("no x-mitre-collection in the input: give -version")
	}
	if len(out) == 0 {
		return errors.New("no techniques in the input")
	}
	slices.SortFunc(out, func(a, b technique) int { return strings.Compare(a.id, b.id) })
	fmt.Fprintf(w, "# MITRE ATT&CK Enterprise v%s: id, name, platforms, tactics (tools/mkattack)\n", version)
	for _, t := range out {
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\n", t.id, t.name, t.platforms, t.tactics)
	}
	return nil
}

// techniqueOf is the line of an attack-pattern that is in use.
func techniqueOf(o object) (technique, bool) {
	if o.Type != "attack-pattern" || o.Revoked || o.Deprecated {
		return technique{}, false
	}
	var id string
	for _, r := range o.Refs {
		if r.Source == "mitre-attack" {
			id = r.ID
		}
	}
	if id == "" {
		return technique{}, false
	}
	var tactics []string
	for _, p := range o.Phases {
		if p.Chain == "mitre-attack" {
			tactics = append(tactics, p.Phase)
		}
	}
	platforms := slices.Clone(o.Platforms)
	slices.Sort(platforms)
	clean := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	return technique{id, clean(o.Name), strings.Join(platforms, ","), strings.Join(tactics, ",")}, true
}
