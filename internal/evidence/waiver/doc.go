// Package waiver reads waiver files and applies them to a run's
// assertions.
//
// A waiver file is HCL with one block per waiver:
//
//	waiver "gpfs05-ofed" {
//	  assertion     = "assert.peers"  # step ID, check name or "step/check"; globs ("*" crosses "/")
//	  hosts         = ["gpfs05"]      # host names or globs; all hosts when left out
//	  justification = "OFED upgrade scheduled CHG-1234"
//	  expires       = "2026-12-31"    # date (valid through that day, UTC) or RFC 3339
//	}
//
// Load returns the set with diagnostics (file:line:col) for bad dates,
// empty justifications, bad globs, duplicate names and unknown attributes.
// Set.Apply turns failed or warned assertions matched by a live waiver into
// "waived", keeps failures matched only by an expired waiver (noting the
// expiry), and lists the waivers that matched nothing. The caller passes the
// time in; the package never reads the clock.
//
// The package does not render anything and does not change run records.
package waiver
