// Package hostlist folds host names the way Slurm writes a hostlist
// (gpfs[01-03,05]), for the console, the findings and the reports alike.
// It only writes lists; it does not expand them (inventory patterns do).
package hostlist
