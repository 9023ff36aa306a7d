package cli

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/provadev/prova/engine/event"
	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/internal/gpfsinv"
	"github.com/provadev/prova/inventory"
)

// gpfsOpts are the flags about inventories taken from GPFS clusters
// (gpfs_cluster blocks, --from-gpfs) and what asking the admin node
// needs.
type gpfsOpts struct {
	ctx       context.Context
	from      string // --from-gpfs ADMIN
	refresh   bool
	cached    bool
	recordDir string
	ssh       sshFlags
	// notes receives one line per cluster: where its nodes came from.
	notes io.Writer
	// reuse is gpfsinv.Options.Reuse: a second look in one command.
	reuse time.Duration
}

func (g *gpfsOpts) add(cmd *cobra.Command) {
	cmd.Flags().StringVar(&g.from, "from-gpfs", "", "take the hosts from a GPFS cluster: run mmlscluster, mmlsnodeclass and mmlsnsd (read-only) on this admin node; with -i, an HCL inventory's entries add vars or override addresses")
	cmd.Flags().BoolVar(&g.refresh, "gpfs-refresh", false, "ask the GPFS cluster even when the cached copy is younger than its max_age")
	cmd.Flags().BoolVar(&g.cached, "gpfs-cached", false, "when the GPFS admin node cannot be asked, use the cached copy (its age is printed)")
}

// gpfsOpts of plan, apply and the other commands that connect.
func (f *runFlags) gpfsOpts(ctx context.Context, notes io.Writer) *gpfsOpts {
	g := f.gpfs
	g.ctx, g.recordDir, g.notes = ctx, f.recordDir, notes
	g.ssh = sshFlags{config: f.sshConfig, lenient: f.sshLenient, acceptNew: f.sshAcceptNew}
	return &g
}

// withGPFS asks (or reads the cached copy of) every GPFS cluster inv
// takes nodes from and merges them into it. inv may be nil with --from-gpfs.
func (a *app) withGPFS(inv *inventory.Inventory, g *gpfsOpts) (*inventory.Inventory, error) {
	if g == nil {
		g = &gpfsOpts{}
	}
	if g.from != "" {
		src := inventory.GPFSSource{Admin: g.from, Group: "gpfs"}
		var err error
		if inv == nil {
			inv, err = inventory.FromGPFS(src)
		} else {
			inv, err = inv.AddGPFS(src)
		}
		if err != nil {
			return nil, fmt.Errorf("--from-gpfs %s: %w", g.from, err)
		}
	}
	if inv == nil || len(inv.GPFS) == 0 {
		if g.refresh || g.cached {
			return nil, fmt.Errorf("--gpfs-refresh and --gpfs-cached need a GPFS cluster: a gpfs_cluster block in the inventory, or --from-gpfs ADMIN")
		}
		return inv, nil
	}
	ctx := g.ctx
	if ctx == nil {
		ctx = context.Background()
	}
	recordDir := g.recordDir
	if recordDir == "" {
		recordDir = ".prova/runs"
	}
	notes := g.notes
	if notes == nil {
		notes = a.stderr
	}
	found := make([]*inventory.GPFSCluster, len(inv.GPFS))
	now := time.Now()
	for i, src := range inv.GPFS {
		var t *transport
		connect := func() (module.Host, error) {
			h, ok := inv.Host(src.Admin)
			if !ok {
				h = &inventory.Host{Name: src.Admin, Address: src.Admin, Connection: inv.Defaults}
			}
			one := &inventory.Inventory{Hosts: []*inventory.Host{h}, Defaults: inv.Defaults}
			var err error
			t, err = a.newTransport(one, &runFlags{sshConfig: g.ssh.config, sshLenient: g.ssh.lenient, sshAcceptNew: g.ssh.acceptNew},
				event.Func(func(e event.Event) {
					if w, ok := e.(event.Warning); ok {
						fmt.Fprintf(a.stderr, "Warning: %s: %s\n", w.Host, w.Message)
					}
				}), "")
			if err != nil {
				return nil, err
			}
			host := t.Host(h.Name)
			if h.Connection.Become {
				user := h.Connection.BecomeUser
				if user == "" {
					user = "root"
				}
				host = t.Become(host, user)
			}
			return host, nil
		}
		askCtx, cancel := context.WithTimeout(ctx, gpfsinv.AskTimeout)
		res, err := gpfsinv.Get(askCtx, src, connect, gpfsinv.Options{RecordDir: recordDir, Refresh: g.refresh, Cached: g.cached, Reuse: g.reuse})
		cancel()
		if t != nil {
			t.Close()
		}
		if err != nil {
			return nil, err
		}
		found[i] = res.Cluster
		fmt.Fprintf(notes, "# %s\n", gpfsNote(src, res, now))
		if res.AskErr != nil {
			fmt.Fprintf(a.stderr, "Warning: %v\n  using the cached copy from %s (%s old)\n", res.AskErr,
				res.Cluster.FetchedAt.Format(time.RFC3339), gpfsinv.Round(res.Age(now)))
		}
		if res.CacheErr != nil {
			fmt.Fprintf(a.stderr, "Warning: %v\n", res.CacheErr)
		}
		if w := gpfsinv.AdminWarning(src, res.Cluster); w != "" {
			fmt.Fprintf(a.stderr, "Warning: %s\n", w)
		}
		for _, w := range res.Cluster.Warnings {
			fmt.Fprintf(a.stderr, "Warning: GPFS cluster %s: %s\n", res.Cluster.Name, w)
		}
	}
	merged, diags := inv.WithGPFS(found)
	if diags.HasErrors() {
		a.printDiags(nil, diags)
		return nil, errSilent{fmt.Errorf("the GPFS nodes could not be merged into the inventory")}
	}
	return merged, nil
}

// gpfsNote says where a cluster's nodes came from and how old they are.
func gpfsNote(src inventory.GPFSSource, res gpfsinv.Result, now time.Time) string {
	c := res.Cluster
	var cmds []string
	for _, argv := range gpfsinv.Commands {
		cmds = append(cmds, strings.Join(argv, " "))
	}
	how := fmt.Sprintf("asked now (%s), cached in %s", strings.Join(cmds, ", "), res.CachePath)
	if res.FromCache {
		why := "younger than max_age " + src.MaxAge.String()
		if res.AskErr != nil {
			why = "the admin node could not be asked, --gpfs-cached"
		}
		how = fmt.Sprintf("cached copy from %s, %s old (%s), in %s", c.FetchedAt.Format(time.RFC3339), gpfsinv.Round(res.Age(now)), why, res.CachePath)
	}
	return fmt.Sprintf("GPFS cluster %s from admin node %s: %d nodes, %d node classes; %s", c.Name, src.Admin, len(c.Nodes), len(c.Classes), how)
}

// inventoryName is what a run record names as its inventory: -i, and
// --from-gpfs when given.
func inventoryName(f *runFlags) string {
	switch {
	case f.gpfs.from == "":
		return f.inventory
	case f.inventory == "":
		return "--from-gpfs " + f.gpfs.from
	}
	return f.inventory + " --from-gpfs " + f.gpfs.from
}

// inventorySources are the record's lines about the GPFS clusters the
// hosts came from.
func inventorySources(inv *inventory.Inventory) []string {
	var out []string
	for i, src := range inv.GPFS {
		if i >= len(inv.GPFSFound) || inv.GPFSFound[i] == nil {
			continue
		}
		c := inv.GPFSFound[i]
		out = append(out, fmt.Sprintf("GPFS cluster %s, admin node %s: %d nodes, %d node classes, answer of %s",
			c.Name, src.Admin, len(c.Nodes), len(c.Classes), c.FetchedAt.Format(time.RFC3339)))
	}
	return out
}
