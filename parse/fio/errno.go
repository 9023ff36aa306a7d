package fio

import "syscall"

// errnoText describes a Linux errno as fio reports it in jobs[].error.
func errnoText(n int) string {
	if n <= 0 || n > 4095 {
		return ""
	}
	return syscall.Errno(n).Error()
}
