// Package arch holds no code. Its test enforces the import rules between
// the floors of the tree, top to bottom:
//
//	cmd/prova            main
//	internal/cli         flags, wiring, exit codes
//	internal/ui          console and JSON renderers of engine events
//	internal/evidence    record, report, baseline, waiver
//	runbooks/            shipped runbooks
//	modules/             step modules (modules/all is the registry)
//	engine/              config, eval, program, apply, module contract, event, transport
//	parse/  inventory/  lab/   plain libraries and the simulated cluster
//	                           (lab/sshserve: the SSH server the lab and the
//	                           test kits share, a leaf)
//	internal/lazyre            regexps compiled on first use, a leaf that
//	                           parse, inventory and evidence stand on
//
// internal/testkit holds test kits (imported only by tests) and bench/ the
// benchmark programs (imported by nothing in the product).
package arch
