package sshconn

import (
	"strconv"
	"strings"
	"testing"
)

// BenchmarkPathTokens is Resolve's expansion of a target's paths (an
// identity file with tokens, the default known_hosts without), through a
// replacer built per target as before and through tokens.
func BenchmarkPathTokens(b *testing.B) {
	paths := []string{"%d/.ssh/id_%r", "~/.ssh/known_hosts", "~/.ssh/known_hosts2"}
	b.Run("replacer", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			r := strings.NewReplacer("%%", "%", "%d", "/root", "%u", "root", "%h", "127.0.0.1",
				"%n", "h001", "%r", "root", "%p", strconv.Itoa(2201))
			for _, p := range paths {
				_ = r.Replace(p)
			}
		}
	})
	b.Run("tokens", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			tk := tokens{'d': "/root", 'u': "root", 'h': "127.0.0.1", 'n': "h001", 'r': "root", 'p': strconv.Itoa(2201)}
			for _, p := range paths {
				_ = tk.expand(p)
			}
		}
	})
}
