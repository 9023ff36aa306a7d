//go:build !race

package apply

const raceBuild = false
