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

var (
	allMu sync.Mutex
	all   []*Regexp

	// compiled counts the expressions compiled by their first use.
	compiled atomic.Int64
)

// New returns expr, to be compiled when first used.
func New(expr string) *Regexp {
	r := &Regexp{expr: expr}
	allMu.Lock()
	all = append(all, r)
	allMu.Unlock()
	return r
}

// Regexp returns the compiled expression.
func (r *Regexp) Regexp() *regexp.Regexp {
	r.once.Do(func() {
		r.re = regexp.MustCompile(r.expr)
		compiled.Add(1)
	})
	return r.re
}

// Compiled returns how many expressions made with New have been compiled
// by a first use so far (CompileAll's checks are not counted). Read by a
// test before any test runs, it says whether a package initialiser
// compiled one.
func Compiled() int { return int(compiled.Load()) }

// String returns the source text of the expression.
func (r *Regexp) String() string { return r.expr }

// CompileAll compiles every expression made with New so far and returns
// the first error; the tests of each package that declares expressions
// call it so that a bad expression fails a test, not a run. It does not
// keep what it compiles: a first use still compiles its own.
func CompileAll() error {
	allMu.Lock()
	rs := append([]*Regexp(nil), all...)
	allMu.Unlock()
	for _, r := range rs {
		if _, err := regexp.Compile(r.expr); err != nil {
			return err
		}
	}
	return nil
}

// Check is what the tests of a package that declares expressions ask of
// them: compiledAtInit, Compiled() read by a variable of the test package
// (so after the initialisers of everything the test binary links, before
// any test runs), must be 0, and every expression made with New must
// compile. It returns the first failure.
func Check(compiledAtInit int) error {
	if compiledAtInit != 0 {
		return fmt.Errorf("%d regular expressions were compiled by package initialisers; want 0 (declare them with lazyre.New and use them in functions)", compiledAtInit)
	}
	return CompileAll()
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
