// Package benchfanout is the fan-out benchmark harness: it runs the same
// workload of trivial commands (10 per host by default, BENCHFANOUT_STEPS
// sets others) on N hosts (real OpenSSH sshd on loopback) with prova and
// with reference tools, each as a child process, and measures wall time,
// CPU seconds and memory of every run. Over several host and step counts
// Fit splits each tool's CPU into its parts per run, per host and per
// host-step.
//
// The tools are prova itself (bin/prova apply), the floor (a minimal Go
// program, ./floor, that calls sshdtest.Floor: one x/crypto/ssh connection
// per host, commands back to back), the OpenSSH client with ControlMaster
// driven by xargs -P, and ansible-playbook (raw and command modules) when it
// is installed. BenchmarkFanout in this package is the entry point; it
// prints a table per run and, with BENCHFANOUT_MARKDOWN set, writes it as
// Markdown (docs/performance.md takes it from there).
//
// CPU seconds are user plus system time of the child and of every
// descendant it or the ./reap wrapper reaped; tools that leave daemons
// behind (OpenSSH ControlPersist masters) run under ./reap, a child
// subreaper that collects them, so their CPU is counted too. Peak RSS is
// the largest single process (rusage ru_maxrss); total PSS is the sum over
// the whole process tree, sampled every 100 ms (a lower bound). For the
// floor and prova the largest process's resident set is also sampled every
// 5 ms and split, at its largest sample, into anonymous memory and pages of
// mapped files (its own binary, mostly), with when in the run that sample
// was (RSSSplit): a Go binary's touched text and read-only data count in
// RSS, so the split says how much of a peak is the program's data. User and
// system CPU and the voluntary and involuntary context switches (ru_nvcsw,
// ru_nivcsw) of the same processes are reported as benchmark metrics too.
// BenchmarkApplyInProcess and BenchmarkFloorInProcess run prova and the
// floor inside the test binary, for CPU and memory profiles of each.
//
// The package never asserts timing: benchmarks report. It talks only to
// 127.0.0.1, where its sshd instances listen (13 processes of 16 ports:
// every inventory host has an endpoint of its own).
package benchfanout
