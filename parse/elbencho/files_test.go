package elbencho

import (
	"strings"
	"testing"

	"github.com/provadev/prova/internal/testkit/samples"
	"github.com/provadev/prova/parse/bench"
)

func TestCSVFile(t *testing.T) {
	r, err := ParseCSV(samples.Read(t, "elbencho/csvfile-3.1-1-weka-mkdirs-write-read-TRIMMED-fixture.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Phases) != 3 {
		t.Fatalf("%d phases", len(r.Phases))
	}
	mk, w, rd := r.Phases[0], r.Phases[1], r.Phases[2]
	if mk.Name != "MKDIRS" || mk.IOPS != 0 || mk.MiBps != 0 || mk.EntriesPerSec != 1466 || mk.ElapsedMs != 5 ||
		mk.LatUs.Avg != 1068 || mk.Latency[0].Type != "Entries" || mk.LatUs.Has(bench.P50) {
		t.Errorf("MKDIRS %+v", mk)
	}
	if w.Name != "WRITE" || w.IOPS != 2941 || w.First.IOPS != 3494 || w.MiBps != 2941 || w.Last.TotalMiB != 8192 ||
		w.LatUs.Min != 1661 || w.LatUs.Avg != 9383 || w.LatUs.Max != 120903 || w.Config["threads"] != "8" || w.Config["block size"] != "1048576" {
		t.Errorf("WRITE %+v", w)
	}
	if rd.Name != "READ" || rd.IOPS != 9048 || rd.ElapsedMs != 905 || rd.Last.CPUPct != 8 || rd.LatUs.Avg != 3223 || len(rd.Latency) != 2 {
		t.Errorf("READ %+v", rd)
	}
	if _, ok := r.Phase("READ"); !ok {
		t.Error("Phase(READ) not found")
	}
	if b := r.Bench(); len(b) != 3 || b[2].Op != "read" || b[2].IOPS != 9048 {
		t.Errorf("Bench() = %+v", b)
	}
}

func TestCSVFileRWMixAndErrors(t *testing.T) {
	in := "ISO date,operation,IOPS [first],IOPS [last],rwmix read IOPS [first],rwmix read IOPS [last]\n" +
		"2026-01-01T00:00:00,WRITE,10,20,30,40\n"
	r, err := ParseCSV([]byte(in))
	if err != nil || r.Phases[0].IOPS != 60 || r.Phases[0].First.IOPS != 40 {
		t.Fatalf("rwmix %+v %v", r, err)
	}
	_, err = ParseCSV([]byte(in + "2026,WRITE,x,1,1,1\n"))
	wantErr(t, err, "elbencho --csvfile", 3, `column "IOPS [first]"`)
	_, err = ParseCSV([]byte(in + "2026,WRITE\n"))
	wantErr(t, err, "elbencho --csvfile", 3, "row has 2 fields, header has 6")
	_, err = ParseCSV([]byte("a,b\n"))
	wantErr(t, err, "elbencho --csvfile", 1, "row before")
	_, err = ParseCSV(nil)
	wantErr(t, err, "elbencho --csvfile", 0, "no \"ISO date")
}

func TestLiveCSVFile(t *testing.T) {
	rows, err := ParseLiveCSV(samples.Read(t, "elbencho/livecsv-livecsvex-per-rank-PARTIAL-issue102.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 3 {
		t.Fatalf("%d rows", len(rows))
	}
	if tot := rows[0]; tot.Rank != "Total" || tot.IOPS != 30151 || tot.MiBps != 117 || tot.LatIOUs != 530 || tot.DoneBytes != 123498496 || tot.CPUPct != 17 {
		t.Errorf("total %+v", tot)
	}
	if r1 := rows[2]; r1.Rank != "1" || r1.DoneBytes != 31109120 || r1.IOPS != 0 || r1.Phase != "READ" {
		t.Errorf("rank 1 %+v", r1)
	}
	_, err = ParseLiveCSV([]byte("2026-02-09T11:18:30.170-0500,,READ\n"))
	wantErr(t, err, "elbencho --livecsv", 1, "row before")
	_, err = ParseLiveCSV(nil)
	wantErr(t, err, "elbencho --livecsv", 0, "no live CSV header")
}

func TestResfile(t *testing.T) {
	f, err := ParseResfile(samples.Read(t, "elbencho/resfile-sections-latpercent-lathisto-FIXTURE.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Sections) != 3 || len(f.Sections[2].Phases) != 0 || f.Sections[2].ISODate != "2026-07-22T11:09:18-0700" {
		t.Fatalf("sections %+v", f.Sections)
	}
	s := f.Sections[1]
	if s.ISODate != "2026-07-22T11:08:17-0700" || strings.Join(s.CommandLine, " ") != "elbencho --read" {
		t.Errorf("section 1 header %+v", s)
	}
	p := s.Phases[0]
	if p.Name != "READ" || p.IOPS != 881209 || p.ElapsedMs != 60257 || p.LatUs.P50 != 2896 || p.LatUs.P99 != 4096 || p.LatUs.Has(bench.Avg) {
		t.Errorf("READ %+v", p)
	}
	l := p.Latency[0]
	if l.Type != "IO" || l.Percentiles["1"] != 2435 || l.Percentiles["75"] != 2896 || len(l.Histogram) != 1 || l.Histogram[0] != (Bucket{Us: 2435, Count: 200}) {
		t.Errorf("latency %+v", l)
	}
	if got := f.Result().Phases; len(got) != 2 || got[0].Name != "WRITE" || got[0].IOPS != 658022 {
		t.Errorf("Result() %+v", got)
	}
}

func TestResfilePartial(t *testing.T) {
	rel := "elbencho/resfile-header-and-s3-write-distributed-PARTIAL-issue93.txt"
	_, err := ParseResfile(samples.Read(t, rel))
	wantErr(t, err, "elbencho --resfile", 13, "Svc compl. time: list not closed")

	f, err := ParseResfile(dropLast(t, rel))
	if err != nil {
		t.Fatal(err)
	}
	s := f.Sections[0]
	if s.ISODate != "2025-09-30T00:59:57+0000" || len(s.CommandLine) != 37 || s.CommandLine[1] != "--hosts" || s.CommandLine[36] != "bucket5" {
		t.Errorf("header %q %d %q", s.ISODate, len(s.CommandLine), s.CommandLine)
	}
	p := s.Phases[0]
	if p.Name != "WRITE" || p.ElapsedMs != 1800279 || p.First.ElapsedMs != 1800262 || p.EntryType != "Objects" || p.EntriesPerSec != 84 ||
		p.MiBps != 21 || p.Last.Entries != 151705 || p.Last.CPUPct != 12 {
		t.Errorf("WRITE %+v", p)
	}
	_, err = ParseResfile([]byte("OPERATION RESULT TYPE\n"))
	wantErr(t, err, "elbencho --resfile", 1, "must start with")
	_, err = ParseResfile(nil)
	wantErr(t, err, "elbencho --resfile", 0, "no \"ISO DATE")
}

func TestVersion(t *testing.T) {
	rel := "elbencho/version-3.0-26-issue75.txt"
	_, err := ParseVersion(samples.Read(t, rel)) // starts with the "$ elbencho --version" prompt
	wantErr(t, err, "elbencho --version", 1, "expected")
	s := string(samples.Read(t, rel))
	v, err := ParseVersion([]byte(s[strings.Index(s, "\n")+1:]))
	if err != nil {
		t.Fatal(err)
	}
	if v.Version != "3.0-26" || v.NetProtocol != "3.0.23" || v.BuildDate != "Feb 19 2025 17:39:42" || !v.Has("libaio") || v.Has("cufile/gds") ||
		len(v.Excluded) != 7 || v.Excluded[2] != "cufile/gds" || v.Extra["System steady clock precision"] != "1e-09 sec" {
		t.Errorf("got %+v", v)
	}
	_, err = ParseVersion([]byte("elbencho\n"))
	wantErr(t, err, "elbencho --version", 0, "no \" * Version")
}

// A file read twice is refused by what elbencho writes once (a row, a
// section, the live CSV header); two phases that share a date are not.
func TestFilesTwice(t *testing.T) {
	csvf := samples.Strip(samples.Read(t, "elbencho/csvfile-3.1-1-weka-mkdirs-write-read-TRIMMED-fixture.txt"))
	_, err := ParseCSV(append(append([]byte{}, csvf...), csvf...))
	wantErr(t, err, toolCSV, 6, "the same row as line 2, again") // line 5 is the header again

	res := samples.Strip(samples.Read(t, "elbencho/resfile-sections-latpercent-lathisto-FIXTURE.txt"))
	r, err := ParseResfile(res)
	if err != nil {
		t.Fatal(err)
	}
	_, err = ParseResfile(append(append([]byte{}, res...), res...))
	wantErr(t, err, toolResfile, 0, "the same section as at line 1, again")
	if len(r.Sections) < 2 {
		t.Fatalf("%d sections", len(r.Sections))
	}

	live := samples.Strip(samples.Read(t, "elbencho/livecsv-livecsvex-per-rank-PARTIAL-issue102.txt"))
	_, err = ParseLiveCSV(append(append([]byte{}, live...), live...))
	wantErr(t, err, toolLiveCSV, 0, "a second header (the first is on line 1)")
}
