package nvmecmd

import (
	"context"
	"sort"
	"strconv"
	"strings"

	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/internal/lazyre"
	"github.com/provadev/prova/parse/nvme"
)

func itoa(n int) string { return strconv.Itoa(n) }

// Devices returns the block devices (/dev/nvmeXnY) of subsystem nqn whose
// controllers st lists. It reads "nvme list -v -o json" (nvme-cli 2.x links
// namespaces to subsystems there), else "nvme list -o json", else "nvme
// list". Without a subsystem or controller column the device name tells:
// nvme<S>n<N> for subsystem nvme-subsys<S> (native multipath), else
// nvme<C>n<N> for controller nvme<C>.
func (st *State) Devices(ctx context.Context, h module.Host, nqn string) ([]string, error) {
	ctrls := map[string]bool{}
	for _, p := range st.Paths(nqn, "") {
		ctrls[p.Controller] = true
	}
	if len(ctrls) == 0 {
		return []string{}, nil
	}
	var lastErr error
	for _, argv := range [][]string{{"list", "-v", "-o", "json"}, {"list", "-o", "json"}, {"list"}} {
		l, err := st.list(ctx, h, argv...)
		if err != nil {
			if ctx.Err() != nil || module.IsUnreachable(err) {
				return nil, err
			}
			lastErr = err
			continue
		}
		return match(l, nqn, ctrls, st.SubsystemNames(nqn)), nil
	}
	return nil, lastErr
}

func (st *State) list(ctx context.Context, h module.Host, argv ...string) (*nvme.List, error) {
	out, err := Run(ctx, h, argv...)
	if err != nil {
		return nil, err
	}
	st.Evidence[module.Command(append([]string{"nvme"}, argv...)...)] = out.Stdout + out.Stderr
	if out.RC != 0 {
		return nil, Failed(h, "nvme list", Classify(out))
	}
	l, err := nvme.ParseList([]byte(out.Stdout))
	if err != nil {
		return nil, ParseFailed(h, err)
	}
	return l, nil
}

var devName = lazyre.New(`^/dev/nvme(\d+)n(\d+)$`)

// match returns the devices of nqn in l: by the subsystem or controllers l
// links them to, else by their names.
func match(l *nvme.List, nqn string, ctrls map[string]bool, subsys []string) []string {
	linked := false
	var out []string
	for _, d := range l.Devices {
		if d.SubsystemNQN == "" && len(d.Controllers) == 0 {
			continue
		}
		linked = true
		if d.SubsystemNQN == nqn || anyIn(d.Controllers, ctrls) {
			out = append(out, d.DevicePath)
		}
	}
	if linked {
		return sorted(out)
	}
	inst := map[string]bool{}
	for _, s := range subsys {
		inst[strings.TrimPrefix(s, "nvme-subsys")] = true
	}
	var bySubsys, byCtrl []string
	for _, d := range l.Devices {
		m := devName.FindStringSubmatch(d.DevicePath)
		if m == nil {
			continue
		}
		if inst[m[1]] {
			bySubsys = append(bySubsys, d.DevicePath)
		}
		if ctrls["nvme"+m[1]] {
			byCtrl = append(byCtrl, d.DevicePath)
		}
	}
	if len(bySubsys) > 0 {
		return sorted(bySubsys)
	}
	return sorted(byCtrl)
}

func anyIn(list []string, set map[string]bool) bool {
	for _, s := range list {
		if set[s] {
			return true
		}
	}
	return false
}

func sorted(s []string) []string {
	if s == nil {
		return []string{}
	}
	sort.Strings(s)
	return s
}
