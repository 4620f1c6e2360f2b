package config

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"time"

	"github.com/agentjail/agentjail/internal/privatefile"
)

// A typo in config.yaml must not take its protections away at the next
// start: the daemon keeps a copy of the last config.yaml that loaded
// cleanly, and when config.yaml does not load, that copy is in force.

// LastGoodName is the copy's name in $AGENTJAIL_HOME.
const LastGoodName = "config.last-good.yaml"

// maxConfig bounds what is read of the copy: a config.yaml is a few
// hundred bytes; an OPA section with keys a few kilobytes.
const maxConfig = 1 << 20

// LastGoodPath is the copy of the last good config.yaml in home.
func LastGoodPath(home string) string { return filepath.Join(home, LastGoodName) }

// SaveLastGood keeps text, a config.yaml that just loaded cleanly (nil:
// there was none, so the defaults were good), as the last good
// configuration: written atomically, mode 0600. Its time of change is
// when config.yaml last loaded cleanly. A home that does not exist yet
// is not made for it.
func SaveLastGood(home string, text []byte) error {
	if text == nil {
		text = []byte{}
	}
	return privatefile.Write(LastGoodPath(home), text)
}

// InForce is the configuration in force and where it came from.
type InForce struct {
	Config Config
	// Err is why config.yaml did not load; nil when it did, and then
	// Config is config.yaml's.
	Err error
	// LastGood, set only with Err, is when config.yaml last loaded
	// cleanly: Config is that configuration. Zero: none ever did (or
	// its copy cannot be trusted), and Config is the defaults.
	LastGood time.Time
	// LastGoodErr says why the copy was not used, when it exists but
	// is not agentjail's own regular file or does not load.
	LastGoodErr error
}

// ReadLastGood reads the copy SaveLastGood keeps in home, trusting it
// only when it is agentjail's own regular file (see privatefile.Read). A
// missing copy is fs.ErrNotExist.
func ReadLastGood(home string) (Config, time.Time, error) {
	path := LastGoodPath(home)
	text, fi, err := privatefile.Read(path, maxConfig)
	if err != nil {
		return Default(), time.Time{}, err
	}
	c, err := Parse(path, text)
	if err != nil {
		return Default(), time.Time{}, err
	}
	return c, fi.ModTime(), nil
}

// Fallback is what is in force when config.yaml did not load (err): the
// last good configuration kept in home, or else the defaults.
func Fallback(home string, err error) InForce {
	in := InForce{Config: Default(), Err: err}
	c, at, lerr := ReadLastGood(home)
	switch {
	case lerr == nil:
		in.Config, in.LastGood = c, at
	case !errors.Is(lerr, fs.ErrNotExist):
		in.LastGoodErr = lerr
	}
	return in
}

// Describe says in one sentence what is in force while config.yaml has
// an error; "" when it has none. at formats the time of the last good
// configuration.
func (in InForce) Describe(at func(time.Time) string) string {
	if in.Err == nil {
		return ""
	}
	unused := ""
	if in.LastGoodErr != nil {
		unused = in.LastGoodErr.Error()
	}
	return DescribeFallback(in.Err.Error(), in.LastGood, unused, at)
}

// DescribeFallback is Describe for a config error, the time of the last
// good configuration (zero: none in force) and why its copy was not used
// ("": there was none).
func DescribeFallback(configErr string, lastGood time.Time, unused string, at func(time.Time) string) string {
	// The error names the file by its path; the sentence names it already.
	if i := strings.Index(configErr, "config.yaml: "); i >= 0 && !strings.ContainsAny(configErr[:i], " \n") {
		configErr = configErr[i+len("config.yaml: "):]
	}
	if lastGood.IsZero() && unused != "" {
		return fmt.Sprintf("config.yaml has an error (%s); the last good configuration was not used (%s): in force: the defaults", configErr, unused)
	}
	if lastGood.IsZero() {
		return fmt.Sprintf("config.yaml has an error (%s); no good configuration was ever loaded: in force: the defaults", configErr)
	}
	return fmt.Sprintf("config.yaml has an error (%s); in force: the last good configuration from %s", configErr, at(lastGood))
}
