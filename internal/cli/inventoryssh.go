package cli

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/provadev/prova/engine/transport/sshconn"
	"github.com/provadev/prova/inventory"
)

// sshFlags are the ssh_config flags shared by the commands that connect
// and by `prova inventory --ssh`.
type sshFlags struct {
	config    string
	lenient   bool
	acceptNew bool
}

// printSSH prints, per host, the settings prova will connect with and
// where each came from, in the manner of `ssh -G HOST`.
func (a *app) printSSH(w io.Writer, inv *inventory.Inventory, f sshFlags) error {
	cfg := f.config
	if cfg == "" && inv.Defaults.SSHConfig != "" {
		cfg = inv.Defaults.SSHConfig
	}
	pool := sshconn.NewPool(sshconn.Options{
		SSHConfigFile: cfg, SSHConfigLenient: f.lenient, AcceptNew: f.acceptNew, Env: a.env,
		Warn: func(host, msg string) {
			if host != "" {
				msg = host + ": " + msg
			}
			fmt.Fprintf(a.stderr, "Warning: %s\n", msg)
		},
	})
	defer pool.Close()
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for i, name := range inv.Names() {
		h, _ := inv.Host(name)
		r, err := pool.Explain(sshconn.TargetFor(h))
		if err != nil {
			return err
		}
		if i > 0 {
			fmt.Fprintln(tw)
		}
		fmt.Fprintf(tw, "host %s\n", name)
		writeResolution(tw, "  ", r)
		hops, err := pool.ExplainJumps(r.Target)
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		for n, hop := range hops {
			fmt.Fprintf(tw, "  jump %d %s@%s:%d\n", n+1, hop.Target.User, hop.Target.Address, hop.Target.Port)
			writeResolution(tw, "    ", hop)
		}
	}
	return tw.Flush()
}

func writeResolution(tw io.Writer, indent string, r sshconn.Resolution) {
	t := r.Target
	line := func(key, value, field string) {
		fmt.Fprintf(tw, "%s%s %s\t# %s\n", indent, key, value, r.Source[field])
	}
	line("hostname", t.Address, "hostname")
	line("user", t.User, "user")
	line("port", strconv.Itoa(t.Port), "port")
	if len(t.IdentityFiles) == 0 {
		line("identityfile", "(agent and ~/.ssh/id_ed25519, id_ecdsa, id_rsa)", "identityfile")
	}
	for _, f := range t.IdentityFiles {
		line("identityfile", f, "identityfile")
	}
	if t.ProxyJump != "" {
		line("proxyjump", t.ProxyJump, "proxyjump")
	}
	if t.ProxyCommand != "" {
		line("proxycommand", t.ProxyCommand, "proxycommand")
	}
	switch {
	case t.NoAgent:
		line("identityagent", "none", "identityagent")
	case t.IdentityAgent != "":
		line("identityagent", t.IdentityAgent, "identityagent")
	}
	kh := "none"
	if len(t.KnownHostsFiles) > 0 {
		kh = strings.Join(t.KnownHostsFiles, " ")
	}
	line("userknownhostsfile", kh, "userknownhostsfile")
	line("stricthostkeychecking", t.StrictHostKeyChecking, "stricthostkeychecking")
	line("connecttimeout", t.ConnectTimeout.String(), "connecttimeout")
	line("serveraliveinterval", t.ServerAliveInterval.String(), "serveraliveinterval")
	line("serveralivecountmax", strconv.Itoa(t.ServerAliveCountMax), "serveralivecountmax")
}
