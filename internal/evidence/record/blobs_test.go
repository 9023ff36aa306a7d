package record

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/provadev/prova/engine/event"
)

// verbsConn is a table like mmfsadm test verbs conn prints on host self:
// one row per peer, with values that differ from peer to peer (which
// compression alone cannot guess) but are mostly the same on every host,
// as the peers' names, addresses and ports are; a few counters differ
// per host.
func verbsConn(self, rows int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "RDMA connections of gpfs%04d:\n", self)
	for i := range rows {
		if i == self {
			continue
		}
		peer := rand.New(rand.NewPCG(uint64(i), 7)) // the same on every host
		fmt.Fprintf(&b, "  conn %4d  10.%d.%d.%d  gpfs%04d  mlx5_%d/1 -> mlx5_%d/1  RTS  qp 0x%06x  lid %d  sent %d\n",
			i, peer.IntN(256), peer.IntN(256), peer.IntN(256), i, peer.IntN(4), peer.IntN(4), peer.IntN(1<<24), peer.IntN(65536),
			(self*31+i)%97)
	}
	return b.String()
}

// blobWriter writes a record whose step "verbs_conn.conn" keeps on each
// of hosts hosts a verbs conn table, a small stdout and a mmlscluster
// output all hosts share.
func blobWriter(t *testing.T, hosts int) (*Writer, *Record) {
	t.Helper()
	w := create(t, t.TempDir(), testMeta())
	for i := range hosts {
		w.Observe(event.HostFinished{Step: "verbs_conn.conn", Host: fmt.Sprintf("gpfs%04d", i), Status: event.OK,
			Result:   map[string]any{"stdout": fmt.Sprintf("ok %d\n", i)},
			Evidence: map[string]string{"mmfsadm test verbs conn": verbsConn(i, 300), "mmlscluster": "GPFS cluster information\n" + strings.Repeat("  node\n", 50)}})
	}
	if err := w.Close(""); err != nil {
		t.Fatal(err)
	}
	rec, err := Load(w.Dir())
	if err != nil {
		t.Fatal(err)
	}
	return w, rec
}

func blobFile(t *testing.T, rec *Record, rel string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(rec.Dir, filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestBlobKindsRoundTrip: every kind of version 4 blob (a small one
// stored alone, a reference, outputs compressed against it, an output
// shared by every host, a cut output, the note of the run cap) reads
// back byte for byte; the outputs after the first name it as their
// reference and cost a fraction of it.
func TestBlobKindsRoundTrip(t *testing.T) {
	_, rec := blobWriter(t, 20)
	step := rec.Steps[0]
	first := step.Hosts["gpfs0000"].Raw["mmfsadm test verbs conn"]
	if ref, _, err := splitBlob(blobFile(t, rec, first)); err != nil || ref != "" {
		t.Errorf("the first host's table names a reference %q (%v): a reference stands alone", ref, err)
	}
	firstSize := len(blobFile(t, rec, first))
	for i := range 20 {
		h := fmt.Sprintf("gpfs%04d", i)
		raw := step.Hosts[h].Raw
		for name, want := range map[string]string{"stdout": fmt.Sprintf("ok %d\n", i), "mmfsadm test verbs conn": verbsConn(i, 300),
			"mmlscluster": "GPFS cluster information\n" + strings.Repeat("  node\n", 50)} {
			got, err := rec.ReadRaw(raw[name])
			if err != nil || string(got) != want {
				t.Errorf("%s %s: %d bytes, %v; want %d bytes", h, name, len(got), err, len(want))
			}
			if !strings.HasSuffix(raw[name], ".zst") {
				t.Errorf("%s %s stored as %s", h, name, raw[name])
			}
		}
		if i == 0 {
			continue
		}
		b := blobFile(t, rec, raw["mmfsadm test verbs conn"])
		ref, _, err := splitBlob(b)
		if err != nil || ref != first {
			t.Errorf("%s: reference %q, %v; want %s", h, ref, err, first)
		}
		if len(b) > firstSize/2 {
			t.Errorf("%s: %d bytes against a reference of %d: the reference saved little", h, len(b), firstSize)
		}
		if ref, _, _ := splitBlob(blobFile(t, rec, raw["stdout"])); ref != "" {
			t.Errorf("%s: a small output names reference %s", h, ref)
		}
	}
	if step.Hosts["gpfs0001"].Raw["mmlscluster"] != step.Hosts["gpfs0019"].Raw["mmlscluster"] {
		t.Error("the same output stored twice")
	}

	// Outputs at the size cap, against a reference as large, read back:
	// the window holds both. A host whose output was cut reads back cut.
	wide := create(t, t.TempDir(), testMeta())
	for i := range 3 {
		wide.Observe(event.HostFinished{Step: "s.wide", Host: fmt.Sprintf("h%d", i), Status: event.OK,
			Evidence: map[string]string{"t": verbsConn(i, 11000+1000*i)}})
	}
	if err := wide.Close(""); err != nil {
		t.Fatal(err)
	}
	wrec, err := Load(wide.Dir())
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		want, _ := cut(verbsConn(i, 11000+1000*i), MaxRawBytes)
		hr := wrec.Steps[0].Hosts[fmt.Sprintf("h%d", i)]
		if got, err := wrec.ReadRaw(hr.Raw["t"]); err != nil || string(got) != want {
			t.Errorf("h%d: %d bytes of %d (cut %v), %v", i, len(got), len(want), hr.Truncated, err)
		}
		if ref, _, _ := splitBlob(blobFile(t, wrec, hr.Raw["t"])); (ref != "") != (i > 0) {
			t.Errorf("h%d: reference %q", i, ref)
		}
	}

	// A cut output and the run cap's note read back too.
	w := create(t, t.TempDir(), testMeta())
	w.runRawCap = 4 << 10
	big := strings.Repeat("x", MaxRawBytes+10)
	w.Observe(event.HostFinished{Step: "s.big", Host: "a", Status: event.OK, Evidence: map[string]string{"big": big}})
	w.Observe(event.HostFinished{Step: "s.big", Host: "b", Status: event.OK, Evidence: map[string]string{"wide": verbsConn(1, 2000)}})
	if err := w.Close(""); err != nil {
		t.Fatal(err)
	}
	rec, err = Load(w.Dir())
	if err != nil {
		t.Fatal(err)
	}
	got, err := rec.ReadRaw(rec.Steps[0].Hosts["a"].Raw["big"])
	if err != nil || !strings.HasPrefix(string(got), big[:MaxRawBytes]) || !strings.Contains(string(got), "[prova: cut here") {
		t.Errorf("cut output: %d bytes, %v", len(got), err)
	}
	got, err = rec.ReadRaw(rec.Steps[0].Hosts["b"].Raw["wide"])
	if err != nil || !strings.Contains(string(got), "reached the record cap of 0 MiB") {
		t.Errorf("note of the run cap: %.200q, %v", got, err)
	}
}

// TestBlobReferenceErrors: a blob whose reference is missing, replaced
// by another blob, or itself names a reference, and a blob whose bytes
// are damaged, are errors naming the blob (and the reference).
func TestBlobReferenceErrors(t *testing.T) {
	_, rec := blobWriter(t, 3)
	hosts := rec.Steps[0].Hosts
	ref := hosts["gpfs0000"].Raw["mmfsadm test verbs conn"]
	second := hosts["gpfs0001"].Raw["mmfsadm test verbs conn"]
	third := hosts["gpfs0002"].Raw["mmfsadm test verbs conn"]
	refFile := filepath.Join(rec.Dir, filepath.FromSlash(ref))
	refBytes := blobFile(t, rec, ref)
	want := func(rel string, parts ...string) {
		t.Helper()
		_, err := rec.ReadRaw(rel)
		if err == nil {
			t.Fatalf("ReadRaw(%s) read a broken blob", rel)
		}
		for _, p := range append(parts, rel) {
			if !strings.Contains(err.Error(), p) {
				t.Errorf("error %q does not say %q", err, p)
			}
		}
	}

	// Missing reference.
	if err := os.Remove(refFile); err != nil {
		t.Fatal(err)
	}
	want(second, "its reference", "no such file")
	// The reference replaced by another blob (without a reference of its
	// own): its content does not match its name.
	other := blobFile(t, rec, hosts["gpfs0000"].Raw["stdout"])
	if err := os.WriteFile(refFile, other, 0o600); err != nil {
		t.Fatal(err)
	}
	want(second, "its reference "+ref, "does not match its name")
	// A reference that names a reference: not a reference.
	if err := os.WriteFile(refFile, blobFile(t, rec, third), 0o600); err != nil {
		t.Fatal(err)
	}
	want(second, "its reference "+ref, "names a reference of its own")
	if err := os.WriteFile(refFile, refBytes, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := rec.ReadRaw(second); err != nil {
		t.Fatalf("restored reference: %v", err)
	}

	// Damaged bytes in the blob itself, and a header that runs past it.
	b := blobFile(t, rec, second)
	bad := append([]byte(nil), b...)
	bad[len(bad)/2] ^= 0xff
	secondFile := filepath.Join(rec.Dir, filepath.FromSlash(second))
	if err := os.WriteFile(secondFile, bad, 0o600); err != nil {
		t.Fatal(err)
	}
	want(second)
	if err := os.WriteFile(secondFile, b[:20], 0o600); err != nil {
		t.Fatal(err)
	}
	want(second, "corrupt blob")
	// A blob that names itself.
	self := encodeBlob(nil, newEncoder(nil), second[len("raw/sha256/"):len(second)-len(".zst")], []byte("x"))
	if err := os.WriteFile(secondFile, self, 0o600); err != nil {
		t.Fatal(err)
	}
	want(second, "names itself")
	// A file larger than any blob.
	if err := os.WriteFile(secondFile, make([]byte, maxBlobFile+1), 0o600); err != nil {
		t.Fatal(err)
	}
	want(second, "larger than any blob")
	// A name that is not a blob's.
	want("raw/sha256/zz.zst", "not a raw/sha256/<hex>.zst blob")
}

// TestReferenceBounds: outputs under minRefBytes get no reference, and
// the writer keeps at most maxRefs references: step and output names past
// it are stored alone, and still read back.
func TestReferenceBounds(t *testing.T) {
	w := create(t, t.TempDir(), testMeta())
	for i := range maxRefs + 5 {
		for _, h := range []string{"a", "b"} {
			w.Observe(event.HostFinished{Step: fmt.Sprintf("s.n%02d", i), Host: h, Status: event.OK,
				Result: map[string]any{"stdout": h + " small"}, Evidence: map[string]string{"table": h + verbsConn(i, 100)}})
		}
	}
	if got := len(w.store.refs); got != maxRefs {
		t.Errorf("%d references kept, want the bound %d", got, maxRefs)
	}
	if err := w.Close(""); err != nil {
		t.Fatal(err)
	}
	rec, err := Load(w.Dir())
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range rec.Steps {
		b := s.Hosts["b"]
		ref, _, err := splitBlob(blobFile(t, rec, b.Raw["table"]))
		if err != nil || (ref != "") != (i < maxRefs) {
			t.Errorf("%s: reference %q (%v)", s.Step, ref, err)
		}
		if got, err := rec.ReadRaw(b.Raw["table"]); err != nil || string(got) != "b"+verbsConn(i, 100) {
			t.Errorf("%s: %d bytes, %v", s.Step, len(got), err)
		}
		if ref, _, _ := splitBlob(blobFile(t, rec, b.Raw["stdout"])); ref != "" {
			t.Errorf("%s: small output names %s", s.Step, ref)
		}
	}
}

// BenchmarkStoreRaw stores the verbs conn tables of 200 hosts of a
// 1,000-node cluster, each compressed against the first: MB/s is of the
// tables before compression, stored-% what the blobs keep of them.
func BenchmarkStoreRaw(b *testing.B) {
	tables := make([]string, 200)
	var in int64
	for i := range tables {
		tables[i] = verbsConn(i, 1000)
		in += int64(len(tables[i]))
	}
	b.SetBytes(in)
	b.ReportAllocs()
	var stored int64
	for b.Loop() {
		w := create(b, b.TempDir(), testMeta())
		for _, tb := range tables {
			w.storeRaw("verbs_conn.conn", "mmfsadm test verbs conn", tb)
		}
		stored = w.rawBytes
		if err := w.Close(""); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(100*float64(stored)/float64(in), "stored-%")
}

// TestZstdToolReadsBlobs: the zstd tool reads a blob without a reference
// as it is, and a blob with one given the reference's text as its
// dictionary (what docs/output.md tells a user to type).
func TestZstdToolReadsBlobs(t *testing.T) {
	zstdTool, err := exec.LookPath("zstd")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("zstd not found (Debian package zstd); CI must install it")
		}
		t.Skip("zstd not found (Debian package zstd)")
	}
	_, rec := blobWriter(t, 2)
	raw := rec.Steps[0].Hosts
	ref := filepath.Join(rec.Dir, filepath.FromSlash(raw["gpfs0000"].Raw["mmfsadm test verbs conn"]))
	refText, err := exec.Command(zstdTool, "-dc", ref).Output()
	if err != nil || string(refText) != verbsConn(0, 300) {
		t.Fatalf("zstd -dc reference: %d bytes, %v", len(refText), err)
	}
	dict := filepath.Join(t.TempDir(), "ref.txt")
	if err := os.WriteFile(dict, refText, 0o600); err != nil {
		t.Fatal(err)
	}
	blob := filepath.Join(rec.Dir, filepath.FromSlash(raw["gpfs0001"].Raw["mmfsadm test verbs conn"]))
	got, err := exec.Command(zstdTool, "-dc", "-D", dict, blob).Output()
	if err != nil || string(got) != verbsConn(1, 300) {
		t.Errorf("zstd -dc -D ref.txt blob: %d bytes, %v", len(got), err)
	}
}

// FuzzReadBlob: whatever bytes a blob or its reference file holds,
// ReadRaw returns an error or the content the blob's name promises; it
// never panics.
func FuzzReadBlob(f *testing.F) {
	refText := []byte(verbsConn(0, 40))
	enc := newEncoder(nil)
	refHex := sum(string(refText))
	refBlob := encodeBlob(nil, enc, "", refText)
	withRef := encodeBlob(nil, newEncoder(refText), refHex, []byte(verbsConn(1, 40)))
	f.Add(refBlob, refBlob)
	f.Add(withRef, refBlob)
	f.Add(withRef[:12], refBlob)
	f.Add([]byte{0x5b, 0x2a, 0x4d, 0x18, 0xff, 0xff, 0xff, 0xff}, refBlob)
	dir := f.TempDir() // one per fuzzing process; each input overwrites both files
	if err := os.MkdirAll(filepath.Join(dir, "raw", "sha256"), 0o700); err != nil {
		f.Fatal(err)
	}
	name := sum(verbsConn(1, 40))
	f.Fuzz(func(t *testing.T, blob, ref []byte) {
		for hexSum, b := range map[string][]byte{name: blob, refHex: ref} {
			if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(blobRel(hexSum))), b, 0o600); err != nil {
				t.Fatal(err)
			}
		}
		got, err := (&Record{Dir: dir}).ReadRaw(blobRel(name))
		if err == nil && string(got) != verbsConn(1, 40) {
			t.Errorf("read %d bytes that are not the content of %s", len(got), name)
		}
	})
}

func TestCutValuesCapsEveryStringInside(t *testing.T) {
	long := strings.Repeat("x", MaxValueBytes+10)
	v := map[string]any{
		"top": long, "short": "kept", "n": 1.5, "b": true, "nil": nil,
		"map":  map[string]any{"deep": long, "ok": "y"},
		"list": []any{long, "z", []any{long}, map[string]any{"in": long}},
	}
	got := cutValues(v).(map[string]any)
	capped := func(what string, s any) {
		t.Helper()
		if str, ok := s.(string); !ok || len(str) > MaxValueBytes+200 || !strings.Contains(str, "prova: cut here") {
			t.Errorf("%s not cut: %d bytes", what, len(fmt.Sprint(s)))
		}
	}
	capped("top", got["top"])
	capped("map.deep", got["map"].(map[string]any)["deep"])
	list := got["list"].([]any)
	capped("list[0]", list[0])
	capped("list[2][0]", list[2].([]any)[0])
	capped("list[3].in", list[3].(map[string]any)["in"])
	if got["short"] != "kept" || got["n"] != 1.5 || got["b"] != true || got["nil"] != nil ||
		got["map"].(map[string]any)["ok"] != "y" || list[1] != "z" {
		t.Errorf("values within the cap changed: %v", got)
	}
	if s, _ := cutValues(long).(string); len(s) > MaxValueBytes+200 {
		t.Error("a string value is not cut")
	}
}
