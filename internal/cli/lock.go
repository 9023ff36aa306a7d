package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/user"
	"strings"
	"time"

	"github.com/zclconf/go-cty/cty"

	"github.com/provadev/prova/engine/apply"
	"github.com/provadev/prova/engine/event"
	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/engine/transport/sshconn"
	"github.com/provadev/prova/internal/clusterlock"
	"github.com/provadev/prova/inventory"
)

// lockFlags say where the cluster lock is and what to do when its host is
// down.
type lockFlags struct {
	host, path    string
	allowUnlocked bool
}

// Inventory variables (on the "all" group) that name the lock.
const (
	lockHostVar = "prova_lock_host"
	lockPathVar = "prova_lock_path"
)

// lockTarget resolves the lock host and path: flags, then the runbook's
// lock_host/lock_path, then the inventory's prova_lock_host/prova_lock_path
// ("all" group variables), then PROVA_LOCK_PATH (path only), then the first host of group gpfs (the GPFS
// runbooks' default admin node), else the first host of the inventory.
// The inventory is the whole one, not the --limit'ed one: two admins with
// different limits must meet on the same lock.
func (a *app) lockTarget(full *inventory.Inventory, l *loaded, lf lockFlags) (string, string, error) {
	host, path := lf.host, lf.path
	if l != nil {
		if host == "" && l.rb.LockHost != nil {
			v, diags := l.rb.LockHost.Value(l.scope.Base())
			if diags.HasErrors() || !v.IsKnown() || v.IsNull() || v.Type() != cty.String {
				return "", "", fmt.Errorf("runbook lock_host must be a host name known before the run: %s", diags.Error())
			}
			host = v.AsString()
		}
		if path == "" && l.rb.LockPath != nil {
			v, diags := l.rb.LockPath.Value(l.scope.Base())
			if diags.HasErrors() || !v.IsKnown() || v.IsNull() || v.Type() != cty.String {
				return "", "", fmt.Errorf("runbook lock_path must be a path known before the run: %s", diags.Error())
			}
			path = v.AsString()
		}
	}
	// Inventory: "all" group variables, or defaults { vars } (merged into
	// every host's variables).
	var vars []map[string]cty.Value
	if g, ok := full.Groups["all"]; ok && g != nil {
		vars = append(vars, g.Vars)
	}
	if len(full.Hosts) > 0 {
		vars = append(vars, full.Hosts[0].Vars)
	}
	str := func(name string) string {
		for _, m := range vars {
			if v, ok := m[name]; ok && v.IsKnown() && !v.IsNull() && v.Type() == cty.String {
				return v.AsString()
			}
		}
		return ""
	}
	if host == "" {
		host = str(lockHostVar)
	}
	if path == "" {
		path = str(lockPathVar)
	}
	if host == "" {
		if g, ok := full.Groups["gpfs"]; ok && g != nil && len(g.Hosts) > 0 {
			host = g.Hosts[0]
		} else if names := full.Names(); len(names) > 0 {
			host = names[0]
		}
	}
	if host == "" {
		return "", "", fmt.Errorf("no host to keep the cluster lock on: the inventory is empty")
	}
	if _, ok := full.Host(host); !ok {
		return "", "", fmt.Errorf("the cluster lock host %q is not in the inventory", host)
	}
	if path == "" {
		path = envValue(a.env, "PROVA_LOCK_PATH")
	}
	if path == "" {
		path = clusterlock.DefaultPath
	}
	if path[0] != '/' {
		return "", "", fmt.Errorf("the cluster lock path %q must be absolute", path)
	}
	return host, path, nil
}

func envValue(env []string, name string) string {
	for i := len(env) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(env[i], name+"="); ok {
			return v
		}
	}
	return ""
}

// me is who this controller is, for the holder file and the lock log.
func (a *app) me() clusterlock.Holder {
	name := "unknown"
	if u, err := user.Current(); err == nil && u.Username != "" {
		name = u.Username
	}
	host, err := os.Hostname()
	if err != nil || host == "" {
		host = "unknown-host"
	}
	return clusterlock.Holder{User: name + "@" + host, Controller: host, Since: time.Now()}
}

// lockHost connects to the lock host with the whole inventory's settings.
func (t *transport) lockHost(ih *inventory.Host) module.Host {
	return t.pool.Host(sshconn.TargetFor(ih))
}

// optionalLock applies --allow-unlocked: an unreachable lock host lets the
// run go on without the lock, said loudly in the console and the record.
type optionalLock struct {
	lock  *clusterlock.Lock
	allow bool
	obs   event.Observer
}

func (o *optionalLock) Acquire(ctx context.Context) (apply.HeldLock, error) {
	h, err := o.lock.Acquire(ctx)
	if err == nil || !o.allow || !module.IsUnreachable(err) {
		if err != nil && module.IsUnreachable(err) {
			return nil, fmt.Errorf("%w; nothing was changed (--allow-unlocked applies without the lock)", err)
		}
		return h, err
	}
	o.obs.Observe(event.Warning{Host: o.lock.Host.Name(), Message: fmt.Sprintf(
		"applying WITHOUT the cluster lock (--allow-unlocked): the lock host is unreachable: %v", err)})
	return unlocked{where: o.lock.Where()}, nil
}

type unlocked struct{ where string }

func (u unlocked) Where() string { return u.where + " (NOT held: --allow-unlocked)" }
func (unlocked) Err() error      { return nil }
func (unlocked) Release() error  { return nil }

// applyLock builds the lock of an apply run.
func (a *app) applyLock(x *execution, tr *transport, runID string, obs event.Observer) (apply.Lock, error) {
	full := x.l.inv
	if x.f.limit != "" || x.f.onlyNew {
		// The lock is found in the whole inventory (see lockTarget).
		g := x.f.gpfsOpts(context.Background(), io.Discard)
		g.reuse = 10 * time.Minute // the nodes this run just found
		var err error
		if full, err = a.loadInventory(x.f.inventory, "", g); err != nil {
			return nil, err
		}
	}
	host, path, err := a.lockTarget(full, x.l, x.f.lock)
	if err != nil {
		return nil, err
	}
	ih, _ := full.Host(host)
	me := a.me()
	me.RunID, me.Runbook = runID, x.l.rb.Path
	return &optionalLock{lock: &clusterlock.Lock{Host: tr.lockHost(ih), Path: path, Me: me},
		allow: x.f.lock.allowUnlocked, obs: obs}, nil
}
