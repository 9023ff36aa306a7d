package sshdtest

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

func writeConfig(dir, hostKey string, ports []int, extra string) error {
	var b strings.Builder
	// sshd keeps the first value of a keyword: extra lines go first so
	// they override the defaults below.
	b.WriteString(extra + "\n")
	for _, p := range ports {
		fmt.Fprintf(&b, "Port %d\n", p)
	}
	fmt.Fprintf(&b, `ListenAddress 127.0.0.1
HostKey %s
PidFile %s
AuthorizedKeysFile %s
PermitRootLogin prohibit-password
PubkeyAuthentication yes
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
AllowTcpForwarding yes
MaxStartups 1000
MaxSessions 10
LogLevel INFO
SetEnv SHLVL=1
Subsystem sftp internal-sftp
`, hostKey, filepath.Join(dir, "sshd.pid"), filepath.Join(dir, "authorized_keys"))
	return os.WriteFile(filepath.Join(dir, "sshd_config"), []byte(b.String()), 0o600)
}

// freePorts picks n loopback ports that are free right now.
func freePorts(n int) ([]int, error) {
	var ls []net.Listener
	defer func() {
		for _, l := range ls {
			l.Close()
		}
	}()
	ports := make([]int, 0, n)
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, fmt.Errorf("sshdtest: pick port: %w", err)
		}
		ls = append(ls, l)
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	return ports, nil
}

// run starts sshd in the foreground and waits until every port accepts.
func (in *Instance) run(sshd string) error {
	cmd := exec.Command(sshd, "-D", "-f", filepath.Join(in.Dir, "sshd_config"), "-E", filepath.Join(in.Dir, "sshd.log"))
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGTERM}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("sshdtest: start %s: %w", sshd, err)
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	in.cmd, in.exited = cmd, exited
	deadline := time.Now().Add(10 * time.Second)
	for _, p := range in.Ports {
		addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(p))
		for {
			c, err := net.DialTimeout("tcp", addr, time.Second)
			if err == nil {
				c.Close()
				break
			}
			select {
			case <-exited:
				return fmt.Errorf("sshdtest: sshd exited before listening on %s: %s", addr, in.Log())
			default:
			}
			if time.Now().After(deadline) {
				in.kill()
				return fmt.Errorf("sshdtest: sshd not listening on %s after 10s: %s", addr, in.Log())
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
	return nil
}

// penalties reports whether sshd is OpenSSH 9.8 or later (PerSourcePenalties).
func penalties(sshd string) bool {
	out, _ := exec.Command(sshd, "-V").CombinedOutput()
	var major, minor int
	i := strings.Index(string(out), "OpenSSH_")
	if i < 0 {
		return false
	}
	fmt.Sscanf(string(out[i+len("OpenSSH_"):]), "%d.%d", &major, &minor)
	return major > 9 || major == 9 && minor >= 8
}
