package nvmeconnect

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/zclconf/go-cty/cty"

	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/modules/internal/nvmecmd"
)

// Connect is the "nvme_connect" module. The zero value is ready to use.
type Connect struct{}

// NewConnect returns the nvme_connect module.
func NewConnect() *Connect { return &Connect{} }

// ID returns "nvme_connect".
func (*Connect) ID() string { return "nvme_connect" }

// Spec describes the module's arguments.
func (*Connect) Spec() hcldec.Spec {
	return &hcldec.ObjectSpec{
		"transport":       nvmecmd.TransportSpec("transport", true),
		"address":         nvmecmd.String("address", true),
		"port":            nvmecmd.Port(),
		"nqn":             nvmecmd.String("nqn", true),
		"host_traddr":     nvmecmd.String("host_traddr", false),
		"host_iface":      nvmecmd.String("host_iface", false),
		"hostnqn":         nvmecmd.String("hostnqn", false),
		"nr_io_queues":    nvmecmd.Number("nr_io_queues", 1, 65535),
		"queue_size":      nvmecmd.Number("queue_size", 16, 1024),
		"ctrl_loss_tmo":   nvmecmd.Number("ctrl_loss_tmo", -1, 1<<30),
		"reconnect_delay": nvmecmd.Number("reconnect_delay", 1, 1<<30),
		"keep_alive_tmo":  nvmecmd.Number("keep_alive_tmo", 0, 1<<30),
	}
}

var pathType = cty.Object(map[string]cty.Type{
	"controller": cty.String, "transport": cty.String, "traddr": cty.String, "trsvcid": cty.String, "state": cty.String,
})

var connectOutputs = cty.Object(map[string]cty.Type{
	"devices":   cty.List(cty.String),
	"device":    cty.String,
	"transport": cty.String,
	"paths":     cty.List(pathType),
})

// Outputs are the subsystem's block devices and paths.
func (*Connect) Outputs() cty.Type { return connectOutputs }

// Validate has nothing to check across arguments.
func (*Connect) Validate(cty.Value) hcl.Diagnostics { return nil }

// NewArgs implements module.Arguments: the struct the arguments decode into.
func (*Connect) NewArgs() any { return new(connectArgs) }

type connectArgs struct {
	Transport      string  `cty:"transport"`
	Address        string  `cty:"address"`
	Port           int     `cty:"port"`
	NQN            string  `cty:"nqn"`
	HostTraddr     *string `cty:"host_traddr"`
	HostIface      *string `cty:"host_iface"`
	HostNQN        *string `cty:"hostnqn"`
	NrIOQueues     *int    `cty:"nr_io_queues"`
	QueueSize      *int    `cty:"queue_size"`
	CtrlLossTmo    *int    `cty:"ctrl_loss_tmo"`
	ReconnectDelay *int    `cty:"reconnect_delay"`
	KeepAliveTmo   *int    `cty:"keep_alive_tmo"`
}

func (a connectArgs) target() nvmecmd.Target {
	return nvmecmd.Target{Transport: a.Transport, Address: a.Address, Port: a.Port}
}

// argv is the nvme connect command line, short options as nvme-cli 1.x
// and 2.x both take them.
func (a connectArgs) argv() []string {
	argv := append([]string{"connect"}, a.target().Args()...)
	argv = append(argv, "-n", a.NQN)
	for _, o := range []struct {
		flag string
		v    *string
	}{{"-w", a.HostTraddr}, {"-f", a.HostIface}, {"-q", a.HostNQN}} {
		if o.v != nil {
			argv = append(argv, o.flag, *o.v)
		}
	}
	for _, o := range []struct {
		flag string
		v    *int
	}{{"-i", a.NrIOQueues}, {"-Q", a.QueueSize}, {"-l", a.CtrlLossTmo}, {"-c", a.ReconnectDelay}, {"-k", a.KeepAliveTmo}} {
		if o.v != nil {
			argv = append(argv, o.flag, itoa(*o.v))
		}
	}
	return argv
}

// Doc documents the module.
func (*Connect) Doc() module.Doc {
	return module.Doc{
		Summary: "Connects an NVMe-oF subsystem over rdma or tcp unless nvme list-subsys shows it connected over that transport and address already, and returns its block devices and the transport every path really uses.",
		Args: map[string]string{
			"transport":       "Fabrics transport: \"rdma\" or \"tcp\" (required).",
			"address":         "Target address (traddr) (required).",
			"port":            "Target port (trsvcid). Default 4420.",
			"nqn":             "Subsystem NQN (required).",
			"host_traddr":     "Local address to connect from (-w).",
			"host_iface":      "Local interface to connect from, tcp only (-f, nvme-cli 2.x).",
			"hostnqn":         "Host NQN to present (-q); default /etc/nvme/hostnqn.",
			"nr_io_queues":    "Number of I/O queues (-i).",
			"queue_size":      "I/O queue depth (-Q), 16 to 1024.",
			"ctrl_loss_tmo":   "Seconds to keep reconnecting after the controller is lost (-l); -1 forever.",
			"reconnect_delay": "Seconds between reconnect attempts (-c).",
			"keep_alive_tmo":  "Keep-alive timeout in seconds (-k).",
		},
		Outputs: map[string]string{
			"devices":   "Block devices of the subsystem after connecting, e.g. [\"/dev/nvme1n1\"].",
			"device":    "The first of devices; empty when there is none.",
			"transport": "Transport of the subsystem's paths per list-subsys: \"rdma\", \"tcp\", or \"rdma,tcp\" when paths over both exist. Assert it is what you asked for.",
			"paths":     "Every controller of the subsystem: {controller, transport, traddr, trsvcid, state}.",
		},
		Example: `step "nvme_connect" "connect_rdma" {
  hosts     = var.initiator
  transport = "rdma"
  address   = var.target_address
  nqn       = var.nqn
}

step "assert" "really_rdma" {
  hosts         = var.initiator
  condition     = step.connect_rdma.transport == "rdma"
  error_message = "paths use ${step.connect_rdma.transport}, not rdma"
}`,
	}
}

var (
	_ module.Module    = (*Connect)(nil)
	_ module.Describer = (*Connect)(nil)
)
