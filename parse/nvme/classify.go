package nvme

import (
	"strings"
)

// Kind is the class of an nvme-cli failure.
type Kind string

// Failure kinds, from the most to the least specific.
const (
	NoDriver          Kind = "no-driver"          // nvme (core) module not loaded: "Failed to scan topology"
	NoFabrics         Kind = "no-fabrics"         // nvme-fabrics module not loaded: /dev/nvme-fabrics missing
	FabricsRead       Kind = "fabrics-read"       // kernel too old for nvme-cli: "Failed to read from /dev/nvme-fabrics"
	AlreadyConnected  Kind = "already-connected"  // "Operation already in progress", "already connected"
	ConnectionRefused Kind = "connection-refused" // target not listening
	ConnectionReset   Kind = "connection-reset"   // target or transport dropped the connection
	Timeout           Kind = "timeout"            // "Connection timed out"
	Unreachable       Kind = "unreachable"        // "No route to host", "Network is unreachable"
	InvalidArgument   Kind = "invalid-argument"   // bad or missing connect parameter
	PermissionDenied  Kind = "permission-denied"  // not root
	NVMeStatus        Kind = "nvme-status"        // the device answered with an NVMe status code
	Unknown           Kind = "unknown"            // non-zero exit status, nothing recognised
)

// Failure is a classified nvme-cli failure. It is an error.
type Failure struct {
	Kind     Kind   `json:"kind"`
	Reason   string `json:"reason"`    // what it means, for people
	Line     int    `json:"line"`      // 1-based line of the text that told, 0 if none
	Text     string `json:"text"`      // that line, trimmed
	ExitCode int    `json:"exit_code"` // as given to ClassifyError
}

func (f *Failure) Error() string {
	if f.Text == "" {
		return "nvme: " + f.Reason
	}
	return "nvme: " + f.Reason + ": " + f.Text
}

type rule struct {
	kind   Kind
	reason string
	match  func(lower string) bool
}

func has(subs ...string) func(string) bool {
	return func(l string) bool {
		for _, s := range subs {
			if !strings.Contains(l, s) {
				return false
			}
		}
		return true
	}
}

func anyOf(fs ...func(string) bool) func(string) bool {
	return func(l string) bool {
		for _, f := range fs {
			if f(l) {
				return true
			}
		}
		return false
	}
}

// rules in priority order: the first rule that matches any line wins.
func rules() []rule {
	return []rule{
		{NoDriver, "nvme driver not loaded (no NVMe subsystems in sysfs)", has("failed to scan topology")},
		{NoFabrics, "nvme-fabrics module not loaded (/dev/nvme-fabrics missing)", has("/dev/nvme-fabrics", "no such file or directory")},
		{FabricsRead, "kernel does not support reading /dev/nvme-fabrics (kernel older than 5.17 with this nvme-cli)",
			anyOf(has("failed to read from /dev/nvme-fabrics"), has("failed to read /dev/nvme-fabrics"))},
		{AlreadyConnected, "controller already connected", anyOf(has("already in progress"), has("already connected"))},
		{ConnectionRefused, "connection refused by the target", has("connection refused")},
		{ConnectionReset, "connection reset by the target", has("connection reset")},
		{Timeout, "connection timed out", has("timed out")},
		{Unreachable, "target unreachable", anyOf(has("no route to host"), has("network is unreachable"))},
		{InvalidArgument, "invalid or missing connect parameter", has("invalid argument")},
		{PermissionDenied, "permission denied (nvme-cli needs root)", anyOf(has("permission denied"), has("operation not permitted"))},
		{NVMeStatus, "the device returned an NVMe error status", has("nvme status:")},
	}
}

// ClassifyError reads what nvme-cli printed on stderr (stdout may be
// appended) and its exit status, and returns the failure it shows, or nil
// when rc is 0 and no failure text is present.
func ClassifyError(stderr string, rc int) *Failure {
	f := classify(stderr)
	if f == nil {
		if rc == 0 {
			return nil
		}
		f = &Failure{Kind: Unknown, Reason: "nvme-cli failed"}
		for i, l := range strings.Split(stderr, "\n") {
			if t := strings.TrimSpace(l); t != "" {
				f.Line, f.Text = i+1, t
				break
			}
		}
	}
	f.ExitCode = rc
	return f
}

func classify(text string) *Failure {
	lines := strings.Split(text, "\n")
	lower := make([]string, len(lines))
	for i, l := range lines {
		lower[i] = strings.ToLower(l)
	}
	for _, r := range rules() {
		for i, l := range lower {
			if r.match(l) {
				return &Failure{Kind: r.kind, Reason: r.reason, Line: i + 1, Text: strings.TrimSpace(lines[i])}
			}
		}
	}
	return nil
}
