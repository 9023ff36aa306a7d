package inventory

import (
	"fmt"
	"unicode"
)

// checkHostName reports why name cannot be a host name, or nil. Host names
// are letters and digits (any script: "příbor" is accepted, as Ansible
// accepts it) and ". - _", plus ":" and "%" for IPv6 literals; they must
// not start with "-".
func checkHostName(name string) error {
	if name == "" {
		return fmt.Errorf("host name is empty")
	}
	if name[0] == '-' {
		return fmt.Errorf("host name %q starts with \"-\"", name)
	}
	for _, r := range name {
		if !(isAlnum(r) || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r) ||
			r == '.' || r == '-' || r == '_' || r == ':' || r == '%') {
			return fmt.Errorf("host name %q contains %q; use letters, digits, \".\", \"-\" and \"_\"", name, r)
		}
	}
	return nil
}

// CheckHostName reports why name cannot be a host name, or nil (see
// checkHostName).
func CheckHostName(name string) error { return checkHostName(name) }

// checkGroupName reports why name cannot be a group name, or nil. Group
// names are letters, digits, "_" and "-".
func checkGroupName(name string) error {
	if name == "" {
		return fmt.Errorf("group name is empty")
	}
	for _, r := range name {
		if !(isAlnum(r) || r == '-' || r == '_') {
			return fmt.Errorf("group name %q contains %q; use letters, digits, \"_\" and \"-\"", name, r)
		}
	}
	return nil
}

func isAlnum(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9'
}
