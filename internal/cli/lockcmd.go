package cli

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/provadev/prova/engine/event"
	"github.com/provadev/prova/internal/clusterlock"
)

func (a *app) lockCmd() *cobra.Command {
	var f runFlags
	cmd := &cobra.Command{
		Use:   "lock status|break -i INVENTORY",
		Short: "Show or break the cluster lock that apply holds while it changes the cluster",
		Long: `Every apply that changes something holds an exclusive lock on a file of
one cluster host (default ` + clusterlock.DefaultPath + ` on the first host of
group gpfs, else the first host of the inventory; see --lock-host and
--lock-path, the inventory's prova_lock_host/prova_lock_path and the
runbook's lock_host/lock_path). The lock ends with the run, or with the SSH
session of a controller that died.

  status  says whether the lock is held, by whom (user@controller, run ID,
          runbook) and since when, and prints the end of the lock log
  break   kills the holding session on the lock host after asking for
          confirmation (--yes skips the question) and logs who broke it

EXIT STATUS
  0  success (status: held or free)
  1  error, or break declined`,
	}
	host := func(c *cobra.Command) {
		c.Flags().StringVarP(&f.inventory, "inventory", "i", "", "inventory file or comma-separated host list")
		c.Flags().StringVar(&f.lock.host, "lock-host", "", "inventory host that keeps the lock")
		c.Flags().StringVar(&f.lock.path, "lock-path", "", "lock file on the lock host")
		c.Flags().StringVar(&f.sshConfig, "ssh-config", "", `ssh_config file ("" = ~/.ssh/config, "none" = no file)`)
	}
	open := func() (*clusterlock.Lock, func() error, error) {
		full, err := a.loadInventory(f.inventory, "", f.gpfsOpts(context.Background(), io.Discard))
		if err != nil {
			return nil, nil, err
		}
		h, path, err := a.lockTarget(full, nil, f.lock)
		if err != nil {
			return nil, nil, err
		}
		tr, err := a.newTransport(full, &f, event.Func(func(event.Event) {}), "")
		if err != nil {
			return nil, nil, err
		}
		ih, _ := full.Host(h)
		return &clusterlock.Lock{Host: tr.lockHost(ih), Path: path}, tr.Close, nil
	}
	status := &cobra.Command{
		Use:   "status -i INVENTORY",
		Short: "Say whether the cluster lock is held, by whom and since when",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			l, closeTr, err := open()
			if err != nil {
				return err
			}
			defer closeTr()
			st, err := l.Status(cmd.Context())
			if err != nil {
				return err
			}
			if st.Held {
				fmt.Fprintf(a.stdout, "Cluster lock %s: HELD by %s\n", st.Where, holderText(st))
			} else {
				fmt.Fprintf(a.stdout, "Cluster lock %s: free\n", st.Where)
				if st.Known {
					fmt.Fprintf(a.stdout, "  last holder: %s\n", st.Holder)
				}
			}
			if len(st.Log) > 0 {
				fmt.Fprintln(a.stdout, "  log:")
				for _, s := range st.Log {
					fmt.Fprintln(a.stdout, "    "+s)
				}
			}
			return nil
		},
	}
	host(status)
	var yes bool
	brk := &cobra.Command{
		Use:   "break -i INVENTORY",
		Short: "Break the cluster lock another run holds (asks for confirmation)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			l, closeTr, err := open()
			if err != nil {
				return err
			}
			defer closeTr()
			st, err := l.Status(cmd.Context())
			if err != nil {
				return err
			}
			if !st.Held {
				fmt.Fprintf(a.stdout, "Cluster lock %s: free; nothing to break\n", st.Where)
				return nil
			}
			fmt.Fprintf(a.stdout, "Cluster lock %s is held by %s.\n", st.Where, holderText(st))
			if !yes {
				fmt.Fprint(a.stdout, "Breaking it lets another apply change the cluster while that run may still be changing it. Type 'break' to break it: ")
				answer, _ := bufio.NewReader(a.stdin).ReadString('\n')
				if strings.TrimSpace(answer) != "break" {
					return fmt.Errorf("not broken")
				}
			}
			me := a.me()
			me.Since = time.Now()
			broke, err := l.Break(cmd.Context(), me)
			if err != nil {
				return err
			}
			if broke {
				fmt.Fprintf(a.stdout, "Cluster lock %s broken by %s (logged in %s.log)\n", st.Where, me.User, l.Path)
			} else {
				fmt.Fprintf(a.stdout, "Cluster lock %s was already free\n", st.Where)
			}
			return nil
		},
	}
	host(brk)
	brk.Flags().BoolVar(&yes, "yes", false, "do not ask for confirmation")
	cmd.AddCommand(status, brk)
	return cmd
}

func holderText(st clusterlock.Status) string {
	if !st.Known {
		return "an unknown holder (no holder file)"
	}
	s := st.Holder.String()
	if !st.Holder.Since.IsZero() {
		s += fmt.Sprintf(" (%s ago)", time.Since(st.Holder.Since).Round(time.Second))
	}
	return s
}
