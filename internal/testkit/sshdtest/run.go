package sshdtest

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
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

// bindFailed matches sshd's log line for a port it could not bind.
var bindFailed = regexp.MustCompile(`Bind to port \d+ on \S+ failed`)

// run starts sshd in the foreground and waits until its log says it
// listens on every port. Dialling is no proof: between picking a free port
// and sshd binding it, another process (a parallel test package) may take
// it, and sshd would then miss that port.
func (in *Instance) run(sshd string) error {
	logFile := filepath.Join(in.Dir, "sshd.log")
	os.Remove(logFile)
	in.stop = sync.Once{} // a failed attempt used it
	cmd := exec.Command(sshd, "-D", "-f", filepath.Join(in.Dir, "sshd_config"), "-E", logFile)
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGTERM}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("sshdtest: start %s: %w", sshd, err)
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	in.cmd, in.exited = cmd, exited
	deadline := time.Now().Add(10 * time.Second)
	for {
		log := in.Log()
		// "error: Bind to port P on A failed: ..." (at DEBUG1 sshd
		// also logs "debug1: Bind to port P on A." for every port).
		if bindFailed.MatchString(log) {
			in.kill()
			return fmt.Errorf("sshdtest: sshd could not bind a port: %s", log)
		}
		ready := true
		for _, p := range in.Ports {
			if !strings.Contains(log, fmt.Sprintf("Server listening on 127.0.0.1 port %d.", p)) {
				ready = false
				break
			}
		}
		if ready {
			return nil
		}
		select {
		case <-exited:
			return fmt.Errorf("sshdtest: sshd exited before listening: %s", log)
		default:
		}
		if time.Now().After(deadline) {
			in.kill()
			return fmt.Errorf("sshdtest: sshd not listening on %v after 10s: %s", in.Ports, log)
		}
		time.Sleep(5 * time.Millisecond)
	}
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
