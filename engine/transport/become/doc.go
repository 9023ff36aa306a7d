// Package become runs a Host's commands as another user through sudo.
//
// Wrap(h, Options{User: "root"}) returns a module.Host whose Run sends
//
//	sudo -n -u root -- sh -c '<cmd>'
//
// (-n: fail at once rather than wait for a password). With a Password
// source it sends instead
//
//	sudo -S -p '[prova-sudo-<nonce>]' -u root -- sh -c 'echo PROVA-BECOME-<nonce> >&2; <cmd>'
//
// and watches stderr: when sudo prints the prompt, the password is written
// to sudo's stdin (once; a second prompt closes stdin so sudo fails); when
// the marker appears, the command is running and the caller's stdin
// follows. Prompt and marker are removed from stderr. The password never
// appears in a command line, an argument or the output. Password is called
// only when sudo asks; the caller caches it (prompting once per run).
//
// Put and Get go through Run, so they work for any become user: Put
// streams the content on stdin into a temporary file (mktemp, mode 0600)
// in the target directory, sets the mode and renames it over the path;
// Get runs cat. Both need a POSIX shell, mktemp, chmod, mv and cat on the
// host.
//
// It does not support su, doas or pbrun, nor sudo configurations that
// require a tty (requiretty).
package become
