package cli

import (
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/provadev/prova/engine/event"
	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/internal/redact"
	"github.com/provadev/prova/internal/support"
	"github.com/provadev/prova/parse/all"
)

type observerFunc func(event.Event)

func (f observerFunc) Observe(e event.Event) { f(e) }

func (a *app) collectCmd() *cobra.Command {
	var f runFlags
	var out string
	var secrets []string
	cmd := &cobra.Command{
		Use:   "collect -i INVENTORY [--limit PATTERN] [--out FILE]",
		Short: "Write a support bundle: every read-only probe's raw output on each host, and what prova read in it",
		Long: `collect runs every read-only command prova's modules know (ibstat,
ibdev2netdev, ofed_info, rdma link, mmlscluster, mmlsconfig -Y, mmdiag
--config/--network/--verbs, mmfsadm test verbs status/conn/conns, the GPFS
log, nvme list, nvidia-smi topo, gdscheck, tool versions) on each host of the
inventory and writes one .tar.gz: per host the raw output, exit status and
duration of each command, what prova's parser read or the error it gave, and
prova's version. Nothing on the hosts is changed. Values given with --redact
are replaced by "(sensitive value)" everywhere, as in run records. Attach the
file to a bug report; docs/support.md lists what it holds.

EXIT STATUS
  0  bundle written, every host reached
  1  bad arguments, or some host could not be reached (the bundle is still
     written and names them)`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			inv, err := a.loadInventory(f.inventory, f.limit, f.gpfsOpts(cmd.Context(), a.stderr))
			if err != nil {
				return err
			}
			if len(inv.Hosts) == 0 {
				return fmt.Errorf("no hosts to collect from")
			}
			if out == "" {
				out = "prova-collect-" + time.Now().UTC().Format("20060102T150405Z") + ".tar.gz"
			}
			warn := observerFunc(func(e event.Event) {
				if w, ok := e.(event.Warning); ok {
					fmt.Fprintf(a.stderr, "Warning: %s: %s\n", w.Host, w.Message)
				}
			})
			t, err := a.newTransport(inv, &f, warn, "")
			if err != nil {
				return err
			}
			defer t.Close()
			var hosts []module.Host
			for _, h := range inv.Hosts {
				hosts = append(hosts, t.Host(h.Name))
			}
			r := redact.New(secrets...)
			b, err := support.Collect(cmd.Context(), hosts, support.Options{Version: version(), Forks: f.forks,
				Parsers: all.Registry(), Redact: r.String})
			if err != nil {
				return err
			}
			file, err := os.OpenFile(out, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
			if err != nil {
				return err
			}
			if err := b.Write(file); err != nil {
				file.Close()
				return fmt.Errorf("write %s: %w", out, err)
			}
			if err := file.Close(); err != nil {
				return err
			}
			failed := 0
			for _, h := range b.Hosts {
				for _, res := range h.Results {
					if res.ParseError != "" {
						failed++
					}
				}
			}
			fmt.Fprintf(a.stdout, "wrote %s: %d host(s), %d probes each, %d output(s) prova could not read\n", out, len(b.Hosts), len(b.Manifest.Probes), failed)
			if n := len(b.Manifest.Unreachable); n > 0 {
				var names []string
				for h, why := range b.Manifest.Unreachable {
					names = append(names, h+" ("+why+")")
				}
				return fmt.Errorf("%d host(s) could not be reached: %s", n, strings.Join(names, "; "))
			}
			return nil
		},
	}
	cmd.Flags().StringVarP(&f.inventory, "inventory", "i", "", "inventory: an HCL, Ansible INI or YAML file, or a comma-separated host list")
	cmd.Flags().StringVarP(&f.limit, "limit", "l", "", "collect only from hosts matching this pattern")
	cmd.Flags().IntVarP(&f.forks, "forks", "f", 50, "at most this many hosts are probed at once")
	cmd.Flags().StringVarP(&out, "out", "o", "", "bundle file (default prova-collect-TIMESTAMP.tar.gz)")
	cmd.Flags().StringArrayVar(&secrets, "redact", nil, "a value to replace by \"(sensitive value)\" in everything written (repeatable)")
	cmd.Flags().StringVar(&f.sshConfig, "ssh-config", "", `ssh_config file ("" = ~/.ssh/config, "none" = no file)`)
	cmd.Flags().BoolVar(&f.sshAcceptNew, "ssh-accept-new", false, "trust and record host keys not yet in known_hosts (changed keys are always refused)")
	f.gpfs.add(cmd)
	return cmd
}
