package config

import (
	"os"
)

// Resolved is a configuration ready to use: the effective config, the
// command's own switches and where the environment is read from. This
// package only resolves settings; turning them into a running genui (the
// LLM generator's settings, the upstream's, the log, the engine) is
// engine/app's job (app.Setup).
type Resolved struct {
	*Effective
	// NoCache and Debug are --no-cache and --debug.
	NoCache, Debug bool
	// LookupEnv reads the environment (the LLM providers' keys and base
	// URLs): os.LookupEnv unless Input.LookupEnv was set (tests).
	LookupEnv func(string) (string, bool)
}

// Resolve is what every engine-running command calls: flags (those the
// user set) > GENUI_* environment > the config file > defaults, validated;
// args and dash are the command's positional arguments and cobra's
// ArgsLenAtDash (only an upstream command after "--" is allowed).
func Resolve(f *Flags, args []string, dash int) (*Resolved, error) {
	command, err := SplitCommand(args, dash)
	if err != nil {
		return nil, err
	}
	return ResolveInput(f, Input{File: f.configFile(), Flags: f.flagSet(), Command: command})
}

// ResolveInput is Resolve for a prepared Input (tests set LookupEnv).
func ResolveInput(f *Flags, in Input) (*Resolved, error) {
	eff, err := Load(in)
	if err != nil {
		return nil, err
	}
	r := &Resolved{Effective: eff, LookupEnv: in.LookupEnv}
	if r.LookupEnv == nil {
		r.LookupEnv = os.LookupEnv
	}
	if f != nil {
		r.NoCache, r.Debug = f.NoCache, f.Debug
	}
	return r, nil
}

// LoadFlags is Load for commands that need only the effective config
// (install, config show): flags, environment and file, no command line.
func LoadFlags(f *Flags) (*Effective, error) {
	return Load(Input{File: f.configFile(), Flags: f.flagSet()})
}

func (f *Flags) configFile() string {
	if f == nil {
		return ""
	}
	return f.ConfigFile
}

// LogPath is where the logs go.
func (r *Resolved) LogPath() string { return LogFile(r.Config) }

// UpstreamGiven reports whether the command line names an upstream (after
// -- or with --upstream-url): then a running genui is not reused.
func (r *Resolved) UpstreamGiven() bool {
	return r.Sources["upstream.command"].Layer == LayerFlag || r.Sources["upstream.url"].Layer == LayerFlag
}
