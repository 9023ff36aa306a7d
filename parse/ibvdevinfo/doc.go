// Package ibvdevinfo reads libibverbs' `ibv_devinfo` (plain and the port
// sections of `ibv_devinfo -v`, with the GID table) and `ibv_devices`
// output into typed values.
//
// With no device, both tools print an error ("Failed to get IB devices
// list: ...", "No IB devices found") and exit non-zero; that text gives a
// Result with NoDevice and Message set, never a parse error. The long
// capability listing of `-v` before the port sections varies between
// rdma-core versions and is read tolerantly (one-level "key: value" lines
// are kept in Attributes, the rest is skipped); the port sections are read
// strictly: a line there that is not "key: value" is a *parse.Error.
package ibvdevinfo
