// Command gendocs writes prova's man pages (section 1, one per visible
// command) and its bash, zsh and fish completion files from prova's own
// command tree (cli.CommandTree), so that neither can drift from --help.
// make man and make dist run it:
//
//	go run ./internal/cli/gendocs --source "$(bin/prova --version)" --man DIR --completion DIR
//
// It is a build-time tool rather than a subcommand of prova so that the
// man-page generator (cobra/doc, go-md2man, blackfriday and a YAML
// library) is not linked into the prova binary: their package
// initialisers and pages cost every prova process memory (see
// docs/performance.md, issue 15). It does not build prova, and it writes
// nothing but the files asked for.
package main
