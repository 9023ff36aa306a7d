package gpfs

import (
	"errors"
	"fmt"
	"time"

	"github.com/provadev/prova/lab/sim"
)

// Settings are a scenario's GPFS settings for a new lab: the arbitrating
// time and the initial cluster-wide configuration (as if set with
// mmchconfig before the daemons started).
type Settings struct {
	Settle time.Duration
	Config map[string]string
}

// Seed stores settings in the lab at dir before any GPFS command ran
// there; the cluster is then created with them at first use.
func Seed(dir string, st Settings) error {
	var stanza Stanza
	for name, value := range st.Config {
		canon, a, ok := lookupAttr(name)
		if !ok {
			return fmt.Errorf("gpfs settings: unknown attribute %q", name)
		}
		v, err := a.normalize(value)
		if err != nil {
			return fmt.Errorf("gpfs settings: %s: %w", canon, err)
		}
		stanza.Attrs = append(stanza.Attrs, KV{canon, v})
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
		c.Stanzas = []Stanza{stanza}
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
