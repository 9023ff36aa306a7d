// Package copy is the "copy" step module: it installs a file on each host
// from a local file or an inline string, or fetches a remote file to the
// controller, changing nothing when the SHA-256 checksum and mode already
// match. Uploads go to a temporary name in the destination's directory and
// are renamed into place, so readers never see a half-written file.
//
// It does not create missing directories on hosts, manage owners, or render
// templates (use content with an HCL template expression).
package copy
