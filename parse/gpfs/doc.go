// Package gpfs reads the output of IBM Storage Scale (GPFS) commands into
// typed values: mmlsconfig (text and -Y), mmdiag --config (text and -Y),
// mmdiag --network, mmgetstate (text and -Y), mmlscluster, mmfsadm test verbs
// status, mmfsadm test verbs conn, mmfs.log lines, and the result messages of
// mmchconfig, mmshutdown, mmstartup and mmaddnode.
//
// Every parser is a pure function from bytes to a value. A line it cannot
// read gives a *parse.Error naming the command and the line. Outputs whose
// format is only partly known (mmfsadm test verbs conn, mmdiag --network,
// mmfs.log) are read tolerantly: unknown columns, sections and messages are
// kept or skipped, never guessed at. The assumed format of mmfsadm test verbs
// conn is documented in docs/gpfs-verbs-conn.md.
//
// The package does not run commands, does not decide whether a cluster is
// healthy (callers compare the values to what they expect), and does not strip
// shell prompts or other text that a human pasted around an output.
package gpfs
