package sshconn

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"

	"github.com/pkg/sftp"
	"golang.org/x/crypto/ssh"
)

// sftpClient returns the connection's SFTP client, opening it on first
// use. It holds one session slot for the life of the connection.
func (c *Conn) openSFTP(ctx context.Context) (*sftp.Client, error) {
	cl, err := c.connect(ctx)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	if c.sftpOpen == nil {
		c.sftpOpen = make(chan struct{}, 1)
	}
	lock := c.sftpOpen
	c.mu.Unlock()
	select {
	case lock <- struct{}{}:
	case <-ctx.Done():
		return nil, context.Cause(ctx)
	}
	defer func() { <-lock }()
	c.mu.Lock()
	sc := c.sftpCl
	c.mu.Unlock()
	if sc != nil {
		return sc, nil
	}
	s, first, err := c.session(ctx, cl)
	if err != nil {
		return nil, err
	}
	w, r, err := c.startSFTP(s)
	if err != nil && first {
		// The connection's first session may have been closed by the
		// server meanwhile (firstsession.go): a new one.
		s.Close()
		if s, err = c.newSession(cl); err != nil {
			c.release()
			return nil, err
		}
		w, r, err = c.startSFTP(s)
	}
	if err != nil {
		s.Close()
		c.release()
		return nil, err
	}
	sc, err = sftp.NewClientPipe(r, w)
	if err != nil {
		s.Close()
		c.release()
		return nil, fmt.Errorf("sftp on %s: %w", c.Name(), err)
	}
	c.mu.Lock()
	c.sftpCl = sc
	c.mu.Unlock()
	go func() { // when the client ends (closed or broken), free the slot
		sc.Wait()
		s.Close()
		c.mu.Lock()
		if c.sftpCl == sc {
			c.sftpCl = nil
		}
		c.mu.Unlock()
		c.release()
	}()
	return sc, nil
}

// startSFTP asks for the "sftp" subsystem on s and returns its pipes.
func (c *Conn) startSFTP(s *ssh.Session) (io.WriteCloser, io.Reader, error) {
	w, err1 := s.StdinPipe()
	r, err2 := s.StdoutPipe()
	if err1 != nil || err2 != nil {
		return nil, nil, fmt.Errorf("sftp on %s: pipes: %v %v", c.Name(), err1, err2)
	}
	if err := s.RequestSubsystem("sftp"); err != nil {
		return nil, nil, fmt.Errorf("sftp subsystem on %s: %w", c.Name(), err)
	}
	return w, r, nil
}

// sftpDo runs op with the SFTP client, giving up when ctx ends or the
// connection dies (the SFTP client is then closed and reopened on next
// use).
func (c *Conn) sftpDo(ctx context.Context, what string, op func(*sftp.Client) error) error {
	sc, err := c.openSFTP(ctx)
	if err != nil {
		return err
	}
	done := make(chan error, 1)
	go func() { done <- op(sc) }()
	select {
	case err = <-done:
	case <-ctx.Done():
		sc.Close()
		<-done
		return fmt.Errorf("%s on %s: %w", what, c.Name(), context.Cause(ctx))
	case <-c.dead:
		return c.deadErr
	}
	if err != nil {
		select {
		case <-c.dead:
			return c.deadErr
		default:
		}
		return fmt.Errorf("%s on %s: %w", what, c.Name(), err)
	}
	return nil
}

// Put writes r to p with mode over SFTP: into a temporary file in the same
// directory, then renamed over p, so readers never see a partial file.
func (c *Conn) Put(ctx context.Context, p string, r io.Reader, mode fs.FileMode) error {
	var rnd [6]byte
	rand.Read(rnd[:])
	tmp := path.Join(path.Dir(p), "."+path.Base(p)+".prova-"+hex.EncodeToString(rnd[:]))
	return c.sftpDo(ctx, "put "+p, func(sc *sftp.Client) error {
		f, err := sc.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL)
		if err != nil {
			return err
		}
		ok := false
		defer func() {
			if !ok {
				sc.Remove(tmp)
			}
		}()
		if _, err := f.ReadFrom(r); err != nil {
			f.Close()
			return err
		}
		if err := f.Close(); err != nil {
			return err
		}
		if err := sc.Chmod(tmp, mode); err != nil {
			return err
		}
		if err := sc.PosixRename(tmp, p); err != nil {
			return err
		}
		ok = true
		return nil
	})
}

// Get copies the file at p into w over SFTP.
func (c *Conn) Get(ctx context.Context, p string, w io.Writer) error {
	return c.sftpDo(ctx, "get "+p, func(sc *sftp.Client) error {
		f, err := sc.Open(p)
		if err != nil {
			return err
		}
		defer f.Close()
		_, err = f.WriteTo(w)
		return err
	})
}
