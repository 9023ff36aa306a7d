// Package ofed reads the version line of MLNX_OFED / DOCA-OFED's `ofed_info`:
// `ofed_info -s` ("MLNX_OFED_LINUX-5.8-1.0.1.1:"), `ofed_info -n` (the bare
// "5.8-1.0.1.1"), and the first line of plain `ofed_info`
// ("MLNX_OFED_LINUX-5.8-1.0.1.1 (OFED-5.8-1.0.1):", the package list after
// it is not read). Other distributions' prefixes ("OFED-internal-...",
// "MLNX_EN-...") are accepted the same way.
//
// The version is kept as printed (e.g. "5.8-1.0.1.1") and as numeric parts
// so that two versions can be compared with CompareVersions. A shell's
// "command not found" gives NotInstalled, never a parse error; a first line
// that is not a version is a *parse.Error.
package ofed
