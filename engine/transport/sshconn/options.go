package sshconn

import "time"

// Options apply to every connection of a Pool.
type Options struct {
	// SSHConfigFile is the ssh_config to read: "" means ~/.ssh/config if it
	// exists, "none" means no file.
	SSHConfigFile string
	// SSHConfigLenient turns an unknown ssh_config keyword into a warning
	// instead of an error (--ssh-config-lenient).
	SSHConfigLenient bool
	// AcceptNew turns StrictHostKeyChecking "yes" into "accept-new"
	// (--ssh-accept-new). It never weakens "no" further or affects
	// changed keys, which are always refused.
	AcceptNew bool
	// Agent enables ssh-agent authentication through SSH_AUTH_SOCK in Env.
	Agent bool
	// Env holds the caller's environment (KEY=VALUE); read for
	// SSH_AUTH_SOCK, HOME and USER. The package never reads os.Environ.
	Env []string
	// Passphrase returns the passphrase of an encrypted key file. It is
	// called at most once per file per pool. When nil, encrypted keys are
	// skipped and the authentication error says so.
	Passphrase func(keyFile string) ([]byte, error)
	// Warn receives warnings (unsupported ssh_config lines, hosts checked
	// with StrictHostKeyChecking=no, added known_hosts entries). host is
	// "" for warnings about the configuration itself.
	Warn func(host, msg string)
	// MaxSessions bounds concurrent sessions per connection (OpenSSH's
	// server default is 10, which is also the default here). The SFTP
	// client, once opened, holds one of them.
	MaxSessions int
	// Home is the local user's home directory, for ~ and the default
	// files; "" means HOME from Env, then os.UserHomeDir.
	Home string
	// KillGrace is how long a cancelled command has between SIGTERM and
	// SIGKILL; default 2 s.
	KillGrace time.Duration
}

func (o Options) getenv(key string) string {
	for i := len(o.Env) - 1; i >= 0; i-- {
		if len(o.Env[i]) > len(key) && o.Env[i][len(key)] == '=' && o.Env[i][:len(key)] == key {
			return o.Env[i][len(key)+1:]
		}
	}
	return ""
}
