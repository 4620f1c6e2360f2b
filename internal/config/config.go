// Package config reads $AGENTJAIL_HOME/config.yaml into a plain Config.
// It is the only package that imports viper; everything else sees the
// struct. Every key is documented in the README.
package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"time"

	"github.com/spf13/viper"
)

// Config is agentjail's configuration. The zero value is not valid; use
// Default or Load.
type Config struct {
	// FailMode is what the hook does when it cannot check a call: "open"
	// (allow with a warning) or "closed" (deny). Written into the hook
	// command as --fail-closed.
	FailMode string `mapstructure:"fail_mode"`
	// HookTimeout bounds one hook run, from reading stdin to the answer.
	HookTimeout time.Duration `mapstructure:"hook_timeout"`
	// ReadTimeout bounds how long the daemon waits for a request on a
	// connection before answering with a timeout error.
	ReadTimeout time.Duration `mapstructure:"read_timeout"`
	// EvalTimeout bounds one policy evaluation; past it the call is denied.
	EvalTimeout time.Duration `mapstructure:"eval_timeout"`
	// PolicyDirs are more folders of *.rego loaded beside the default
	// pack and $AGENTJAIL_HOME/policies.
	PolicyDirs []string `mapstructure:"policy_dirs"`
	// LogLevel is the daemon's log level: debug, info, warn or error.
	LogLevel string `mapstructure:"log_level"`
}

// Default is the configuration used when config.yaml is absent.
func Default() Config {
	return Config{
		FailMode:    "open",
		HookTimeout: 2 * time.Second,
		ReadTimeout: 2 * time.Second,
		EvalTimeout: 500 * time.Millisecond,
		LogLevel:    "info",
	}
}

// Load reads the YAML file at path over the defaults. A missing file is
// not an error. Unknown keys and bad values are, so a typo is reported
// rather than silently ignored.
func Load(path string) (Config, error) {
	def := Default()
	v := viper.New()
	v.SetConfigFile(path)
	v.SetConfigType("yaml")
	v.SetDefault("fail_mode", def.FailMode)
	v.SetDefault("hook_timeout", def.HookTimeout)
	v.SetDefault("read_timeout", def.ReadTimeout)
	v.SetDefault("eval_timeout", def.EvalTimeout)
	v.SetDefault("policy_dirs", def.PolicyDirs)
	v.SetDefault("log_level", def.LogLevel)
	if err := v.ReadInConfig(); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return def, nil
		}
		var perr *fs.PathError
		if errors.As(err, &perr) {
			return def, fmt.Errorf("%s: %w", path, err)
		}
		return def, fmt.Errorf("%s: not valid YAML: %w", path, err)
	}
	var c Config
	if err := v.UnmarshalExact(&c); err != nil {
		return def, fmt.Errorf("%s: %w", path, err)
	}
	if err := c.validate(); err != nil {
		return def, fmt.Errorf("%s: %w", path, err)
	}
	for i, d := range c.PolicyDirs {
		c.PolicyDirs[i] = expandHome(d)
	}
	return c, nil
}

func (c Config) validate() error {
	switch c.FailMode {
	case "open", "closed":
	default:
		return fmt.Errorf("fail_mode must be \"open\" or \"closed\", not %q", c.FailMode)
	}
	for name, d := range map[string]time.Duration{"hook_timeout": c.HookTimeout, "read_timeout": c.ReadTimeout, "eval_timeout": c.EvalTimeout} {
		if d <= 0 {
			return fmt.Errorf("%s must be a positive duration such as 2s, not %v", name, d)
		}
	}
	switch c.LogLevel {
	case "debug", "info", "warn", "error":
	default:
		return fmt.Errorf("log_level must be debug, info, warn or error, not %q", c.LogLevel)
	}
	return nil
}

func expandHome(p string) string {
	if p == "~" || strings.HasPrefix(p, "~/") {
		if h, err := os.UserHomeDir(); err == nil {
			return h + p[1:]
		}
	}
	return p
}
