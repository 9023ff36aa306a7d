package gpfs

import (
	"errors"
	"testing"

	"github.com/provadev/prova/internal/testkit/samples"
	"github.com/provadev/prova/parse"
)

// fuzzParse seeds f with every gpfs sample plus extra, then checks that fn
// never panics and fails only with a *parse.Error.
func fuzzParse[T any](f *testing.F, fn func([]byte) (*T, error), extra ...string) {
	for _, rel := range samples.Glob(f, "gpfs/*.txt") {
		f.Add(samples.Read(f, rel))
	}
	for _, s := range extra {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := fn(data)
		if err != nil {
			var pe *parse.Error
			if !errors.As(err, &pe) {
				t.Fatalf("error %v is %T, not *parse.Error", err, err)
			}
			if pe.Tool == "" || pe.Reason == "" {
				t.Fatalf("error without tool or reason: %#v", pe)
			}
			return
		}
		if v == nil {
			t.Fatal("nil result without error")
		}
	})
}

const yConfig = "mmlsconfig::HEADER:version:reserved:reserved:configParameter:value:nodeList:\nmmlsconfig::0:1:::pagepool:1G:nsdNodes:\n"

func FuzzMmlsconfig(f *testing.F) {
	fuzzParse(f, ParseMmlsconfig, mmlsconfigFull, "pagepool 4G [a,b]\n")
}
func FuzzMmlsconfigY(f *testing.F) { fuzzParse(f, ParseMmlsconfigY, yConfig) }
func FuzzMmdiagConfig(f *testing.F) {
	fuzzParse(f, ParseMmdiagConfig, "=== mmdiag: config ===\n! pagepool 1G\n")
}
func FuzzMmdiagConfigY(f *testing.F) { fuzzParse(f, ParseMmdiagConfigY) }
func FuzzMmdiagNetwork(f *testing.F) { fuzzParse(f, ParseMmdiagNetwork) }
func FuzzMmgetstate(f *testing.F)    { fuzzParse(f, ParseMmgetstate) }
func FuzzMmgetstateY(f *testing.F)   { fuzzParse(f, ParseMmgetstateY) }
func FuzzMmlscluster(f *testing.F)   { fuzzParse(f, ParseMmlscluster) }
func FuzzVerbsStatus(f *testing.F)   { fuzzParse(f, ParseVerbsStatus) }
func FuzzMmfsLog(f *testing.F)       { fuzzParse(f, ParseMmfsLog, verbsLog) }

func FuzzVerbsConn(f *testing.F) {
	f.Add(docExample(f))
	fuzzParse(f, ParseVerbsConn, "  Dev Status NQP Destination Node\n  mlx5_0 RTS 4 10.0.0.2 n2\n", "10.0.0.7 connected mlx5_0/2\n")
}

func FuzzCommandResult(f *testing.F) {
	fuzzParse(f, func(b []byte) (*CommandResult, error) {
		r := ParseCommandResult(b)
		_ = r.OK()
		return r, nil
	})
}

func FuzzMmlsnodeclass(f *testing.F) {
	fuzzParse(f, ParseMmlsnodeclass, "Node Class Name       Members\n--- ---\nsiteA a,b\n  c\nsiteAB siteA\n")
}
func FuzzMmlsnodeclassY(f *testing.F) { fuzzParse(f, ParseMmlsnodeclassY, yNodeclass) }
