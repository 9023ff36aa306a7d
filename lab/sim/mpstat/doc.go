// Package mpstat simulates sysstat's mpstat (12.x): "mpstat [-P {LIST|ALL}]
// [-o JSON] [INTERVAL [COUNT]]". It prints one block per interval in real
// time (through the Env's clock, so tests can drive it), then the Average
// block; 12-hour timestamps when the locale is en_US, as sysstat does.
// CPU figures come from the node's "load" state (idle when unset), which
// benchmark simulators set while they run.
package mpstat
