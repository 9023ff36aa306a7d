// Package sim is the framework of the lab's simulated tools.
//
// A simulated tool is a Tool value (name, whether a node has it, and a Run
// function) listed in an explicit Table; package lab/sim/all builds the
// table of every tool in one function. Adding a tool is one file with its
// Tool value plus one line in that table. Each node's bin directory holds a
// tiny script per installed tool that runs "prova lab sim TOOL ARGS" with
// PROVA_LAB_DIR and PROVA_LAB_NODE set; Run then finds the tool here.
//
// Env gives a tool its arguments and streams, the node's hardware model
// (package lab/model) and state files: per node (DIR/nodes/NODE/state) or
// cluster-wide (DIR/state), JSON, read under a shared flock and updated under
// an exclusive one. Every update that writes is recorded for the lab's audit
// log. Simulators never import prova's parsers: they print what the real
// tool prints.
//
// A tool marked InProcess may also run inside the lab server, which then
// gives every Env the same Memo: decoded state kept between commands,
// valid for the version of the state file it was read at (every write in
// any process stores a new version in the lock file). UpdateShared is
// Update for such state.
package sim
