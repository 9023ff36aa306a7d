package gds

import (
	"strconv"
)

func atoi(s string) *int {
	v, err := strconv.Atoi(s)
	if err != nil {
		return nil
	}
	return &v
}
