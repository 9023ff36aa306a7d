package nvmediscover

import (
	"context"
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/zclconf/go-cty/cty"

	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/modules/internal/nvmecmd"
	"github.com/provadev/prova/parse/nvme"
)

// Discover is the "nvme_discover" module. The zero value is ready to use.
type Discover struct{}

// New returns the nvme_discover module.
func New() *Discover { return &Discover{} }

// ID returns "nvme_discover".
func (*Discover) ID() string { return "nvme_discover" }

// Spec describes the module's arguments.
func (*Discover) Spec() hcldec.Spec {
	return &hcldec.ObjectSpec{
		"transport":   nvmecmd.TransportSpec("transport", true),
		"address":     nvmecmd.String("address", true),
		"port":        nvmecmd.Port(),
		"host_traddr": nvmecmd.String("host_traddr", false),
		"fallback_port": &hcldec.DefaultSpec{Primary: nvmecmd.Number("fallback_port", 0, 65535),
			Default: &hcldec.LiteralSpec{Value: cty.NumberIntVal(DiscoveryPort)}},
	}
}

// DiscoveryPort is the IANA-assigned port of the NVMe-oF discovery service
// over TCP (nvme-tcp's NVME_DISC_IP_PORT); 4420 is the I/O port that many
// targets also serve discovery on.
const DiscoveryPort = 8009

var recordType = cty.Object(map[string]cty.Type{
	"trtype": cty.String, "adrfam": cty.String, "subtype": cty.String, "treq": cty.String,
	"portid": cty.Number, "trsvcid": cty.String, "subnqn": cty.String, "traddr": cty.String,
})

var outputsType = cty.Object(map[string]cty.Type{
	"records":    cty.List(recordType),
	"subsystems": cty.List(cty.String),
	"port":       cty.Number,
})

// Outputs are the discovery log records and the subsystem NQNs.
func (*Discover) Outputs() cty.Type { return outputsType }

// Validate has nothing to check across arguments.
func (*Discover) Validate(cty.Value) hcl.Diagnostics { return nil }

type args struct {
	Transport  string  `cty:"transport"`
	Address    string  `cty:"address"`
	Port       int     `cty:"port"`
	HostTraddr *string `cty:"host_traddr"`
	Fallback   int     `cty:"fallback_port"`
}

// NewArgs implements module.Arguments: the struct the arguments decode into.
func (*Discover) NewArgs() any { return new(args) }

func (a args) target() nvmecmd.Target {
	return nvmecmd.Target{Transport: a.Transport, Address: a.Address, Port: a.Port}
}

func (a args) argv(json bool) []string {
	argv := append([]string{"discover"}, a.target().Args()...)
	if a.HostTraddr != nil {
		argv = append(argv, "-w", *a.HostTraddr)
	}
	if json {
		argv = append(argv, "-o", "json")
	}
	return argv
}

// Reads implements module.ReadOnly: discovery only reads.
func (*Discover) Reads(v cty.Value) string {
	a, err := module.DecodeArgs[args](v)
	if err != nil {
		return "discovers NVMe-oF subsystems"
	}
	return "discovers subsystems over " + a.target().String()
}

type record struct {
	Trtype  string `cty:"trtype"`
	Adrfam  string `cty:"adrfam"`
	Subtype string `cty:"subtype"`
	Treq    string `cty:"treq"`
	Portid  int    `cty:"portid"`
	Trsvcid string `cty:"trsvcid"`
	Subnqn  string `cty:"subnqn"`
	Traddr  string `cty:"traddr"`
}

type outputs struct {
	Records    []record `cty:"records"`
	Subsystems []string `cty:"subsystems"`
	Port       int      `cty:"port"`
}

// Apply runs the discovery and returns its records. A failure nvme-cli
// reports is a failed step with the classified reason. Over TCP, when the
// port offers nothing (refused, or no subsystem) and fallback_port is set
// (default 8009, the IANA discovery port), the discovery is tried there too
// and the port that answered is returned.
func (*Discover) Apply(ctx context.Context, req module.ApplyRequest) (module.ApplyResponse, error) {
	resp := module.ApplyResponse{Outputs: cty.NullVal(outputsType)}
	a, err := module.Args[args](req)
	if err != nil {
		return resp, err
	}
	resp, n, err := discover(ctx, req.Host, a)
	if err != nil || a.Transport != "tcp" || a.Fallback == 0 || a.Fallback == a.Port || (!resp.Failed && n > 0) {
		return resp, err
	}
	b := a
	b.Port = a.Fallback
	second, m, err := discover(ctx, req.Host, b)
	if err != nil {
		return resp, err
	}
	for k, v := range resp.Evidence {
		second.Evidence[k] = v
	}
	if second.Failed || m == 0 {
		resp.Evidence = second.Evidence
		resp.Message += fmt.Sprintf("; the discovery port %d offers nothing either: %s", a.Fallback, second.Message)
		return resp, nil
	}
	second.Message += fmt.Sprintf(" (port %d offered nothing: %s)", a.Port, resp.Message)
	return second, nil
}

// discover runs one discovery and returns the response and the number of
// subsystems found.
func discover(ctx context.Context, h module.Host, a args) (module.ApplyResponse, int, error) {
	resp := module.ApplyResponse{Outputs: cty.NullVal(outputsType)}
	argv := a.argv(true)
	out, err := nvmecmd.Run(ctx, h, argv...)
	if err != nil {
		return resp, 0, err
	}
	if out.RC != 0 {
		// Without JSON support nvme-cli prints its usage: retry in text.
		if f := nvmecmd.Classify(out); f.Kind == nvme.Unknown && !nvmecmd.NotInstalled(out) {
			argv = a.argv(false)
			if out, err = nvmecmd.Run(ctx, h, argv...); err != nil {
				return resp, 0, err
			}
		}
	}
	cmd := module.Command(append([]string{"nvme"}, argv...)...)
	resp.RC, resp.Stdout, resp.Stderr = out.RC, out.Stdout, out.Stderr
	resp.Evidence = map[string]string{cmd: out.Stdout + out.Stderr}
	d, perr := nvme.ParseDiscover([]byte(out.Stdout))
	if out.RC != 0 || perr != nil {
		if f := nvmecmd.Classify(out); f != nil {
			resp.Failed = true
			resp.Message = fmt.Sprintf("discovery over %s failed: %v", a.target(), nvmecmd.Failed(h, "nvme discover", f))
			return resp, 0, nil
		}
		return resp, 0, nvmecmd.ParseFailed(h, perr)
	}
	o := outputs{Records: []record{}, Subsystems: []string{}, Port: a.Port}
	for _, r := range d.Records {
		o.Records = append(o.Records, record{Trtype: r.Trtype, Adrfam: r.Adrfam, Subtype: r.Subtype, Treq: r.Treq,
			Portid: r.Portid, Trsvcid: r.Trsvcid, Subnqn: r.Subnqn, Traddr: r.Traddr})
	}
	for _, r := range d.Subsystems() {
		o.Subsystems = append(o.Subsystems, r.Subnqn)
	}
	if resp.Outputs, err = module.Encode(o, outputsType); err != nil {
		return resp, 0, err
	}
	resp.Message = fmt.Sprintf("%d record(s), %d subsystem(s) over %s", len(o.Records), len(o.Subsystems), a.target())
	if d.Truncated() {
		resp.Message += fmt.Sprintf(" (%d announced)", d.NumRecords)
	}
	return resp, len(o.Subsystems), nil
}

var (
	_ module.Module    = (*Discover)(nil)
	_ module.Describer = (*Discover)(nil)
)
