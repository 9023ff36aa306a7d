package nvme

import (
	"fmt"
	"strings"
)

// opt is one nvme-cli option: its long name, short letter, and whether it
// takes a value.
type opt struct {
	long  string
	short string
	value bool
}

var fabricOpts = []opt{
	{"transport", "t", true}, {"traddr", "a", true}, {"trsvcid", "s", true}, {"nqn", "n", true},
	{"host-traddr", "w", true}, {"host-iface", "f", true}, {"hostnqn", "q", true}, {"hostid", "I", true},
	{"output-format", "o", true}, {"device", "d", true}, {"ctrl-loss-tmo", "l", true},
	{"nr-io-queues", "i", true}, {"queue-size", "Q", true}, {"keep-alive-tmo", "k", true},
	{"reconnect-delay", "c", true}, {"verbose", "v", false}, {"persistent", "p", false},
	{"duplicate-connect", "D", false}, {"disable-sqflow", "", false}, {"hdr-digest", "g", false},
	{"data-digest", "G", false}, {"tls", "", false},
}

// parseOpts reads argconfig-style options: -t rdma, -trdma, --transport rdma,
// --transport=rdma. It returns the values by long name and the positional
// arguments.
func parseOpts(args []string, opts []opt) (map[string]string, []string, error) {
	vals := map[string]string{}
	var pos []string
	find := func(name string, long bool) (opt, bool) {
		for _, o := range opts {
			if long && o.long == name || !long && o.short != "" && o.short == name {
				return o, true
			}
		}
		return opt{}, false
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		var o opt
		var ok bool
		var val string
		hasVal := false
		switch {
		case strings.HasPrefix(a, "--") && len(a) > 2:
			name, v, eq := strings.Cut(a[2:], "=")
			o, ok = find(name, true)
			val, hasVal = v, eq
			if !ok {
				return nil, nil, fmt.Errorf("unrecognized option '--%s'", name)
			}
		case strings.HasPrefix(a, "-") && len(a) > 1:
			o, ok = find(a[1:2], false)
			if !ok {
				return nil, nil, fmt.Errorf("invalid option -- '%s'", a[1:2])
			}
			if len(a) > 2 {
				val, hasVal = a[2:], true
			}
		default:
			pos = append(pos, a)
			continue
		}
		if !o.value {
			vals[o.long] = "true"
			continue
		}
		if !hasVal {
			if i+1 >= len(args) {
				return nil, nil, fmt.Errorf("option '--%s' requires an argument", o.long)
			}
			i++
			val = args[i]
		}
		vals[o.long] = val
	}
	return vals, pos, nil
}
