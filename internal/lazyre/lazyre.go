package lazyre

import (
	"fmt"
	"regexp"
	"sync"
	"sync/atomic"
)

// Regexp is an expression compiled on first use.
type Regexp struct {
	expr string
	once sync.Once
	re   *regexp.Regexp
}

// compiled counts the expressions compiled by their first use.
var compiled atomic.Int64

// New returns expr, to be compiled when first used.
//
// It only keeps expr: no list of every expression, so that a package
// variable declared with New and a string literal is laid out by the
// compiler as static data and its package needs no initialiser for it.
// (A list appended to by New put an initialiser in every package that
// declared one, each in its package's pages of text, and a prova process
// had those pages resident whatever it ran: docs/performance.md, twelfth
// round.) internal/arch's TestEveryLazyExpressionCompiles finds every
// call in the source and compiles its expression instead.
func New(expr string) *Regexp { return &Regexp{expr: expr} }

// Regexp returns the compiled expression.
func (r *Regexp) Regexp() *regexp.Regexp {
	r.once.Do(func() {
		r.re = regexp.MustCompile(r.expr)
		compiled.Add(1)
	})
	return r.re
}

// Compiled returns how many expressions made with New have been compiled
// by a first use so far. Read by a test before any test runs, it says
// whether a package initialiser compiled one.
func Compiled() int { return int(compiled.Load()) }

// String returns the source text of the expression.
func (r *Regexp) String() string { return r.expr }

// Check is what the tests of a package that declares expressions ask of
// them: compiledAtInit, Compiled() read by a variable of the test package
// (so after the initialisers of everything the test binary links, before
// any test runs), must be 0.
func Check(compiledAtInit int) error {
	if compiledAtInit != 0 {
		return fmt.Errorf("%d regular expressions were compiled by package initialisers; want 0 (declare them with lazyre.New and use them in functions)", compiledAtInit)
	}
	return nil
}

// The methods of *regexp.Regexp its users call.

func (r *Regexp) MatchString(s string) bool            { return r.Regexp().MatchString(s) }
func (r *Regexp) Match(b []byte) bool                  { return r.Regexp().Match(b) }
func (r *Regexp) FindString(s string) string           { return r.Regexp().FindString(s) }
func (r *Regexp) FindStringSubmatch(s string) []string { return r.Regexp().FindStringSubmatch(s) }
func (r *Regexp) FindStringSubmatchIndex(s string) []int {
	return r.Regexp().FindStringSubmatchIndex(s)
}
func (r *Regexp) FindAllString(s string, n int) []string { return r.Regexp().FindAllString(s, n) }
func (r *Regexp) FindAllStringIndex(s string, n int) [][]int {
	return r.Regexp().FindAllStringIndex(s, n)
}
func (r *Regexp) FindAllStringSubmatch(s string, n int) [][]string {
	return r.Regexp().FindAllStringSubmatch(s, n)
}
func (r *Regexp) ReplaceAllString(src, repl string) string {
	return r.Regexp().ReplaceAllString(src, repl)
}
func (r *Regexp) SubexpNames() []string       { return r.Regexp().SubexpNames() }
func (r *Regexp) SubexpIndex(name string) int { return r.Regexp().SubexpIndex(name) }
