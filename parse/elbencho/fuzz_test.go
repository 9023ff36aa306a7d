package elbencho

import (
	"testing"

	"github.com/provadev/prova/internal/testkit/parsecheck"
	"github.com/provadev/prova/internal/testkit/samples"
	"github.com/provadev/prova/parse"
)

func TestEverySampleIsTested(t *testing.T) {
	tested := map[string]bool{}
	for _, rel := range []string{
		"console-v1-large-files-write-dropcache-nersc.txt", "console-v3-mkdirs-lat-latpercent-PARTIAL-issue79.txt",
		"console-v3-s3-mkbuckets-write-cbt-log-PARTIAL-pr359.txt", "console-v3-write-1thread-direct-issue75.txt",
		"csvfile-3.1-1-weka-mkdirs-write-read-TRIMMED-fixture.txt", "livecsv-livecsvex-per-rank-PARTIAL-issue102.txt",
		"livecsv-stdout-read-PARTIAL-issue99.txt", "resfile-header-and-s3-write-distributed-PARTIAL-issue93.txt",
		"resfile-sections-latpercent-lathisto-FIXTURE.txt", "version-3.0-26-issue75.txt",
	} {
		tested["elbencho/"+rel] = true
	}
	for _, rel := range samples.Glob(t, "elbencho/*") {
		if !tested[rel] {
			t.Errorf("sample %s has no test", rel)
		}
	}
}

func fuzzParser(f *testing.F, p func([]byte) (any, error)) {
	for _, rel := range samples.Glob(f, "elbencho/*") {
		f.Add(samples.Read(f, rel))
	}
	f.Add([]byte("READ      Elapsed ms       :   1   2\n          IO lat % us      : [ 50%<=3 ]\n          IO lat hist : [ 1: 2 ]\n"))
	parsecheck.Fuzz(f, p)
}

func FuzzConsole(f *testing.F) { fuzzParser(f, parse.Typed(ParseConsole)) }
func FuzzCSV(f *testing.F)     { fuzzParser(f, parse.Typed(ParseCSV)) }
func FuzzResfile(f *testing.F) { fuzzParser(f, parse.Typed(ParseResfile)) }
func FuzzVersion(f *testing.F) { fuzzParser(f, parse.Typed(ParseVersion)) }
func FuzzLiveCSV(f *testing.F) { fuzzParser(f, Parsers()[3].Parse) }

func TestParsersRegistered(t *testing.T) {
	r := parse.NewRegistry(Parsers())
	for _, name := range []string{"elbencho", "elbencho-csv", "elbencho-resfile", "elbencho-livecsv", "elbencho-version"} {
		p, ok := r.Lookup(name)
		if !ok {
			t.Fatalf("parser %s missing", name)
		}
		if v, err := p.Parse([]byte("garbage\n")); err == nil || v != nil {
			t.Errorf("%s accepted garbage: %v", name, v)
		}
	}
	p, _ := r.Lookup("elbencho")
	v, err := p.Parse(samples.Read(t, "elbencho/console-v3-write-1thread-direct-issue75.txt"))
	if res, ok := v.(*Result); err != nil || !ok || res.Phases[0].IOPS != 221 {
		t.Errorf("elbencho via registry: %v %v", v, err)
	}
}
