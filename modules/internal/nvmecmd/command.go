package nvmecmd

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/parse/nvme"
)

// Transports are the fabrics transports the modules accept.
var transports = []string{"rdma", "tcp"}

// Transports returns the accepted transport names.
func Transports() []string { return append([]string(nil), transports...) }

// ValidTransport reports whether t is an accepted transport.
func ValidTransport(t string) bool {
	for _, x := range transports {
		if x == t {
			return true
		}
	}
	return false
}

// Target is where a subsystem is reached: transport, address and port.
type Target struct {
	Transport string
	Address   string
	Port      int
}

// String is "rdma to 10.0.0.1:4420".
func (t Target) String() string {
	return fmt.Sprintf("%s to %s:%d", t.Transport, t.Address, t.Port)
}

// Args are the nvme-cli options selecting the target: -t T -a A -s P.
func (t Target) Args() []string {
	return []string{"-t", t.Transport, "-a", t.Address, "-s", strconv.Itoa(t.Port)}
}

// Run runs nvme with argv (every word quoted) and captures its output.
func Run(ctx context.Context, h module.Host, argv ...string) (module.Output, error) {
	return module.Capture(ctx, h, module.Command(append([]string{"nvme"}, argv...)...))
}

// NotInstalled reports whether out is the shell saying nvme does not exist.
func NotInstalled(out module.Output) bool {
	if out.RC == 127 {
		return true
	}
	return out.RC != 0 && strings.TrimSpace(out.Stdout) == "" &&
		(strings.Contains(out.Stderr, "command not found") || strings.Contains(out.Stderr, ": not found"))
}

// Classify returns the failure nvme-cli's output shows (stderr, then
// stdout), or nil when it shows none and rc is 0. A missing nvme binary is
// reported as such.
func Classify(out module.Output) *nvme.Failure {
	if NotInstalled(out) {
		return &nvme.Failure{Kind: nvme.Unknown, Reason: "nvme-cli is not installed", ExitCode: out.RC,
			Text: module.LastLine(out.Stderr)}
	}
	return nvme.ClassifyError(out.Stderr+"\n"+out.Stdout, out.RC)
}

// Failed is the error for an nvme-cli command that failed on h: "nvme
// connect on node1: connection refused by the target: <line>".
func Failed(h module.Host, tool string, f *nvme.Failure) error {
	return fmt.Errorf("%s on %s: %w", tool, h.Name(), f)
}

// ParseFailed wraps a parser error (a *parse.Error naming the tool and the
// line) with the host.
func ParseFailed(h module.Host, err error) error {
	return fmt.Errorf("on %s: %w", h.Name(), err)
}
