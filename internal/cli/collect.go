package cli

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"github.com/provadev/prova/engine/apply"
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
		Use:   "collect -i INVENTORY [--limit PATTERN] [--out FILE] [RUNBOOK]",
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

With RUNBOOK, collect runs that runbook as plan does instead of the built-in
probes (after the tool versions): steps whose module only reads run for
real, steps that would change a host are only asked what they would do, and
every command any step runs is kept with its output, exit status, duration
and, for a command prova has a parser for, what the parser read; per host
and step the bundle also holds what plan concluded. A step that tries to
write a file on a host is refused. --var, --var-file, --tags and --skip-tags
work as for plan.

EXIT STATUS
  0  bundle written, every host reached
  1  bad arguments, or some host could not be reached (the bundle is still
     written and names them)`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			inv, err := a.loadInventory(f.inventory, f.limit, f.gpfsOpts(cmd.Context(), a.stderr))
			if err != nil {
				return err
			}
			var l *loaded
			if len(args) == 1 {
				rb, prog, err := a.loadRunbook(args[0], &f)
				if err != nil {
					return err
				}
				if l, err = a.prepare(rb, prog, inv, &f, false); err != nil {
					return err
				}
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
			becomePass := ""
			given := redact.New(secrets...)
			red := given.String
			if l != nil {
				becomePass = a.becomePassword(l)
				red = func(s string) string { return given.String(l.redact.String(s)) }
			}
			t, err := a.newTransport(inv, &f, warn, becomePass)
			if err != nil {
				return err
			}
			defer t.Close()
			var hosts []module.Host
			for _, h := range inv.Hosts {
				hosts = append(hosts, t.Host(h.Name))
			}
			probes := support.Probes
			if l != nil {
				probes = support.VersionProbes()
			}
			b, err := support.Collect(cmd.Context(), hosts, support.Options{Version: version(), Forks: f.forks,
				Probes: probes, Parsers: all.Registry(), Redact: red})
			if err != nil {
				return err
			}
			if l != nil {
				if err := a.collectRunbook(cmd.Context(), l, &f, t, warn, b, red); err != nil {
					return err
				}
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
			if l != nil {
				n := 0
				for _, h := range b.Hosts {
					n += len(h.Results)
				}
				fmt.Fprintf(a.stdout, "wrote %s: %d host(s), %d command(s) of %s and the tool versions, %d output(s) prova could not read\n",
					out, len(b.Hosts), n, b.Manifest.Runbook, failed)
			} else {
				fmt.Fprintf(a.stdout, "wrote %s: %d host(s), %d probes each, %d output(s) prova could not read\n", out, len(b.Hosts), len(b.Manifest.Probes), failed)
			}
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
	f.addVarFlags(cmd)
	cmd.Flags().StringSliceVar(&f.tags, "tags", nil, "with RUNBOOK: collect only steps with one of these tags")
	cmd.Flags().StringSliceVar(&f.skipTags, "skip-tags", nil, "with RUNBOOK: skip steps with one of these tags")
	cmd.Flags().StringVar(&f.sshConfig, "ssh-config", "", `ssh_config file ("" = ~/.ssh/config, "none" = no file)`)
	cmd.Flags().BoolVar(&f.sshAcceptNew, "ssh-accept-new", false, "trust and record host keys not yet in known_hosts (changed keys are always refused)")
	f.gpfs.add(cmd)
	return cmd
}

// collectRunbook plans the runbook of l on the hosts of t, as prova plan
// does, with every host recorded, and adds the commands and the step
// outcomes to b.
func (a *app) collectRunbook(ctx context.Context, l *loaded, f *runFlags, t *transport, warn event.Observer, b *support.Bundle, red func(string) string) error {
	rec := support.NewRecorder(all.Registry(), red)
	hosts := map[string]module.Host{}
	var mu sync.Mutex
	host := func(name string) module.Host {
		mu.Lock()
		defer mu.Unlock()
		if h, ok := hosts[name]; ok {
			return h
		}
		h := rec.Wrap(t.Host(name))
		hosts[name] = h
		return h
	}
	timeout, timeoutFrom, err := stepTimeout("", l.rb.StepTimeout)
	if err != nil {
		return err
	}
	runner := apply.New(l.prog, l.scope, l.inv, apply.Options{
		Mode: apply.ModePlan, RunID: "collect", Forks: f.forks, Host: host, Become: t.Become,
		Tags: f.tags, SkipTags: f.skipTags, Observer: event.Multi{rec, warn}, Redact: red,
		StepTimeout: timeout, StepTimeoutFrom: timeoutFrom, Strategy: l.rb.Strategy,
	})
	out, err := runner.Run(ctx)
	if err != nil {
		return err
	}
	if out.Interrupted {
		return errInterrupted
	}
	if len(out.Diagnostics) > 0 {
		a.printDiags(l.sources, out.Diagnostics)
	}
	b.Merge(rec, l.rb.Path, l.rb.Hash)
	return nil
}
