// Package support builds and replays support bundles: `prova collect` runs
// every read-only probe prova's modules know on each host and writes one
// .tar.gz with, per host and command, the raw output, exit status,
// duration, what prova's parser read or the error it gave, and the tool
// versions; `prova parse --bundle` replays today's parsers on a bundle and
// reports per host and tool what would fail. With a runbook, the CLI plans
// it on hosts wrapped by a Recorder, which keeps every command the steps
// run, files it under its step and refuses file writes; Bundle.Merge adds
// those commands and what plan concluded per step.
//
// It never runs a command that changes a host (Probes lists every command;
// each is read-only; a recorded host refuses Put), and everything it
// writes passes the run record's redactor first. It does not decide
// anything a module decides, does not pick a parser for a command by
// resemblance (only a probe's exact command line is parsed), and does not
// upload anything: the operator attaches the file to a bug report
// (docs/support.md).
package support
