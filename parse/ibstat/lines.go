package ibstat

import "strings"

// cutLabel splits "Label: value" into its trimmed parts.
func cutLabel(line string) (label, value string, ok bool) {
	label, value, ok = strings.Cut(line, ":")
	if !ok {
		return "", "", false
	}
	label = strings.TrimSpace(label)
	return label, strings.TrimSpace(value), label != ""
}
