package cli

import (
	"fmt"
	"os"
	"sync"

	"golang.org/x/term"

	"github.com/provadev/prova/engine/event"
	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/engine/transport/become"
	"github.com/provadev/prova/engine/transport/local"
	"github.com/provadev/prova/engine/transport/sshconn"
	"github.com/provadev/prova/inventory"
)

// transport connects hosts of inv over SSH: one connection per host for the
// whole run, dialled on first use.
type transport struct {
	pool   *sshconn.Pool
	inv    *inventory.Inventory
	mu     sync.Mutex
	conns  map[string]module.Host
	become become.Options
}

func (a *app) newTransport(inv *inventory.Inventory, f *runFlags, obs event.Observer, becomePassword string) (*transport, error) {
	cfg := f.sshConfig
	if cfg == "" && inv.Defaults.SSHConfig != "" {
		cfg = inv.Defaults.SSHConfig
	}
	opts := sshconn.Options{
		SSHConfigFile:    cfg,
		AcceptNew:        f.sshAcceptNew,
		SSHConfigLenient: f.sshLenient,
		Agent:            true,
		Env:              a.env,
		Warn: func(host, msg string) {
			obs.Observe(event.Warning{Host: host, Message: msg})
		},
		Passphrase: func(keyFile string) ([]byte, error) {
			return a.prompt(fmt.Sprintf("Enter passphrase for key '%s': ", keyFile))
		},
	}
	t := &transport{pool: sshconn.NewPool(opts), inv: inv, conns: map[string]module.Host{}}
	switch {
	case f.askBecomePass:
		var once sync.Once
		var pw []byte
		var perr error
		t.become.Password = func() ([]byte, error) {
			once.Do(func() { pw, perr = a.prompt("BECOME password: ") })
			return pw, perr
		}
	case becomePassword != "":
		t.become.Password = func() ([]byte, error) { return []byte(becomePassword), nil }
	}
	return t, nil
}

// prompt reads a secret from the terminal without echo.
func (a *app) prompt(msg string) ([]byte, error) {
	tty, err := os.OpenFile("/dev/tty", os.O_RDWR, 0)
	if err != nil {
		return nil, fmt.Errorf("a password is needed but there is no terminal to ask on")
	}
	defer tty.Close()
	fmt.Fprint(tty, msg)
	b, err := term.ReadPassword(int(tty.Fd()))
	fmt.Fprintln(tty)
	return b, err
}

// Host returns the connection of a host, creating it once.
func (t *transport) Host(name string) module.Host {
	t.mu.Lock()
	defer t.mu.Unlock()
	if h, ok := t.conns[name]; ok {
		return h
	}
	ih, ok := t.inv.Host(name)
	if !ok {
		ih = &inventory.Host{Name: name, Address: name}
	}
	var h module.Host
	if ih.Connection.Local {
		// ansible_connection=local: run on the controller
		h = local.New(name)
	} else {
		h = module.Host(t.pool.Host(sshconn.TargetFor(ih)))
	}
	t.conns[name] = h
	return h
}

// Become wraps h so commands run through sudo as user.
func (t *transport) Become(h module.Host, user string) module.Host {
	o := t.become
	o.User = user
	if ih, ok := t.inv.Host(h.Name()); ok && ih.Connection.BecomePassword != "" && o.Password == nil {
		pw := ih.Connection.BecomePassword // ansible_become_pass
		o.Password = func() ([]byte, error) { return []byte(pw), nil }
	}
	return become.Wrap(h, o)
}

func (t *transport) Close() error { return t.pool.Close() }
