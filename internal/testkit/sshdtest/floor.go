package sshdtest

import (
	"context"
	"fmt"
	"net"

	"golang.org/x/crypto/ssh"
	"golang.org/x/sync/errgroup"
)

// Floor is the reference fan-out that benchmarks compare the transport
// against: one raw x/crypto/ssh connection per address, all dialled in
// parallel, each running cmds back to back (one session per command,
// output discarded). It returns the first error: a failed dial or
// handshake, a failed session, or a command that exited non-zero.
func Floor(ctx context.Context, addrs []string, cfg *ssh.ClientConfig, cmds []string) error {
	g, ctx := errgroup.WithContext(ctx)
	for _, addr := range addrs {
		g.Go(func() error {
			var d net.Dialer
			nc, err := d.DialContext(ctx, "tcp", addr)
			if err != nil {
				return fmt.Errorf("floor: dial %s: %w", addr, err)
			}
			sc, chans, reqs, err := ssh.NewClientConn(nc, addr, cfg)
			if err != nil {
				nc.Close()
				return fmt.Errorf("floor: handshake %s: %w", addr, err)
			}
			c := ssh.NewClient(sc, chans, reqs)
			defer c.Close()
			for _, cmd := range cmds {
				if err := ctx.Err(); err != nil {
					return err
				}
				s, err := c.NewSession()
				if err != nil {
					return fmt.Errorf("floor: session on %s: %w", addr, err)
				}
				err = s.Run(cmd)
				s.Close()
				if err != nil {
					return fmt.Errorf("floor: %q on %s: %w", cmd, addr, err)
				}
			}
			return nil
		})
	}
	return g.Wait()
}
