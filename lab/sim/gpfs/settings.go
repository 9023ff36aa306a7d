package gpfs

import (
	"errors"
	"fmt"
	"sort"
	"time"

	"github.com/provadev/prova/lab/sim"
)

// Settings are a scenario's GPFS settings for a new lab: the arbitrating
// time and the initial configuration (as if set with mmchconfig before the
// daemons started): Config cluster-wide, NodeConfig per node name (an
// mmchconfig -N NODE, a [NODE] section of mmfs.cfg).
type Settings struct {
	Settle     time.Duration
	Config     map[string]string
	NodeConfig map[string]map[string]string
}

// stanza checks the attributes of one section and returns them in name
// order (mmfs.cfg order does not matter to the simulator's readers).
func stanza(key string, config map[string]string) (Stanza, error) {
	st := Stanza{Key: key}
	names := make([]string, 0, len(config))
	for name := range config {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		canon, a, ok := lookupAttr(name)
		if !ok {
			return st, fmt.Errorf("gpfs settings: unknown attribute %q", name)
		}
		v, err := a.normalize(config[name])
		if err != nil {
			return st, fmt.Errorf("gpfs settings: %s: %w", canon, err)
		}
		st.Attrs = append(st.Attrs, KV{canon, v})
	}
	return st, nil
}

// Seed stores settings in the lab at dir before any GPFS command ran
// there; the cluster is then created with them at first use.
func Seed(dir string, st Settings) error {
	common, err := stanza("", st.Config)
	if err != nil {
		return err
	}
	stanzas := []Stanza{common}
	nodes := make([]string, 0, len(st.NodeConfig))
	for name := range st.NodeConfig {
		nodes = append(nodes, name)
	}
	sort.Strings(nodes)
	for _, name := range nodes {
		ns, err := stanza(name, st.NodeConfig[name])
		if err != nil {
			return err
		}
		stanzas = append(stanzas, ns)
	}
	if st.Settle < 0 {
		return errors.New("gpfs settings: settle must not be negative")
	}
	e := &sim.Env{Dir: dir}
	var c Cluster
	return e.Update(e.ClusterState(StateName), &c, func() (bool, error) {
		if c.Name != "" {
			return false, errors.New("gpfs settings: the cluster already exists")
		}
		c.Settle = st.Settle
		c.Stanzas = stanzas
		return true, nil
	})
}

// AdvanceClock moves the GPFS clock of the lab at dir forward by d, so
// tests see arbitrating turn active without waiting.
func AdvanceClock(dir string, d time.Duration) error {
	e := &sim.Env{Dir: dir}
	var c Cluster
	return e.Update(e.ClusterState(StateName), &c, func() (bool, error) {
		c.ClockOffset += d
		return true, nil
	})
}
