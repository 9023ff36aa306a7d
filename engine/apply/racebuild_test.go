//go:build race

package apply

// raceBuild: the race detector's build, whose goroutine stacks keep a
// larger guard and whose frames are instrumented.
const raceBuild = true
