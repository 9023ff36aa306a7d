package bench

import (
	"context"
	"strings"
	"testing"

	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/engine/module/moduletest"
	"github.com/provadev/prova/internal/testkit/samples"
)

const elbBody = "tool = \"elbencho\"\npath = \"/dev/nvme1n1\"\nthreads = 16\niodepth = 32\nruntime = \"2s\"\n"

func TestElbenchoFromResfile(t *testing.T) {
	f := load(t)
	h := moduletest.NewFakeHost("init1")
	f.elbencho(h)
	resp := apply(t, NewBlock(), h, elbBody)
	if resp.Failed {
		t.Fatal(resp.Message)
	}
	o := resp.Outputs
	// The fixture's READ section: LAST DONE IOPS, --latpercent bounds.
	if got := num(t, o, "iops"); got != 881209 {
		t.Errorf("iops = %v", got)
	}
	if got := num(t, o, "lat_p50_us"); got != 2896 {
		t.Errorf("lat_p50_us = %v", got)
	}
	if got := num(t, o, "lat_p99_us"); got != 4096 {
		t.Errorf("lat_p99_us = %v", got)
	}
	if !isNull(o, "lat_avg_us") {
		t.Error("lat_avg_us must be null when elbencho printed no average")
	}
	if o.GetAttr("op").AsString() != "randread" || o.GetAttr("tool").AsString() != "elbencho" {
		t.Errorf("op %v tool %v", o.GetAttr("op"), o.GetAttr("tool"))
	}
	// mpstat C-locale sample: 2 intervals of 2 CPUs nearly fully busy.
	if got := num(t, o, "cpu", "busy_cores"); got < 1.9 || got > 2 {
		t.Errorf("busy_cores = %v", got)
	}
	if got := num(t, o, "cpu", "samples"); got != 2 {
		t.Errorf("samples = %v", got)
	}
	if resp.Evidence["resfile"] == "" || resp.Evidence["LC_ALL=C mpstat -P ALL 1 32"] == "" {
		t.Errorf("evidence keys: %v", keys(resp.Evidence))
	}
}

func keys(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// Without a readable resfile the console table is read.
func TestElbenchoConsoleFallback(t *testing.T) {
	f := load(t)
	h := moduletest.NewFakeHost("init1")
	f.common(h)
	h.Reply(`^elbencho `, moduletest.Reply{Stdout: f.console})
	h.Reply(`^cat -- `, moduletest.Reply{RC: 1, Stderr: "cat: no such file\n"})
	resp := apply(t, NewBlock(), h, "tool = \"elbencho\"\npath = \"/data/f\"\nmode = \"write\"\nblock_size = \"4M\"\nsize = \"4G\"")
	if resp.Failed || !resp.Changed {
		t.Fatalf("failed=%t changed=%t %s", resp.Failed, resp.Changed, resp.Message)
	}
	if got := num(t, resp.Outputs, "mib_s"); got <= 0 {
		t.Errorf("mib_s = %v", got)
	}
	if got := num(t, resp.Outputs, "runtime_s"); got <= 0 {
		t.Errorf("runtime_s = %v", got)
	}
}

func TestElbenchoErrors(t *testing.T) {
	f := load(t)
	for _, c := range []struct {
		name  string
		reply moduletest.Reply
		want  string
		isErr bool
	}{
		{"exit", moduletest.Reply{RC: 1, Stderr: "ERROR: Unable to open benchmark path: /dev/nvme1n1 SysErr: No such file or directory\n"}, "elbencho on init4 exited 1: ERROR: Unable to open", false},
		{"garbled", moduletest.Reply{Stdout: "OPERATION   RESULT TYPE         FIRST DONE   LAST DONE\n=========== ================    ==========   =========\nREAD        Elapsed time     :   what\n"}, "on init4: elbencho", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := moduletest.NewFakeHost("init4")
			f.common(h)
			h.Reply(`^elbencho `, c.reply)
			h.Reply(`^cat -- `, moduletest.Reply{RC: 1})
			resp, err := NewBlock().Apply(context.Background(), module.ApplyRequest{Host: h, Args: decode(t, NewBlock(), elbBody)})
			msg := resp.Message
			if err != nil {
				msg = err.Error()
			}
			if (err != nil) != c.isErr || (!c.isErr && !resp.Failed) || !strings.Contains(msg, c.want) {
				t.Errorf("err=%v failed=%t message %q, want %q", err, resp.Failed, msg, c.want)
			}
			if cmds := h.Commands(); cmds[len(cmds)-1] != "rm -rf -- "+tmp {
				t.Errorf("temp dir not removed: %v", cmds)
			}
		})
	}
}

func TestFioSamples(t *testing.T) {
	for _, c := range []struct {
		sample, mode string
		mibMin       float64
	}{
		{"fio/randread-4k.json", "randread", 1},
		{"fio/seqread-1m.json", "read", 100},
		{"fio/randread-4k.jsonplus.json", "randread", 1},
		{"fio/randread-4k-normal-plus-json-combined.txt", "randread", 1},
	} {
		t.Run(c.sample, func(t *testing.T) {
			h := moduletest.NewFakeHost("init1")
			load(t).common(h)
			h.Reply(`^fio `, moduletest.Reply{Stdout: string(samples.Read(t, c.sample))})
			resp := apply(t, NewBlock(), h, "tool = \"fio\"\npath = \"/dev/nvme1n1\"\nmode = \""+c.mode+"\"")
			o := resp.Outputs
			if num(t, o, "mib_s") < c.mibMin || num(t, o, "iops") <= 0 || num(t, o, "lat_avg_us") <= 0 || num(t, o, "lat_p99_us") < num(t, o, "lat_p50_us") {
				t.Errorf("outputs = %#v", o)
			}
		})
	}
}

func TestFioFailures(t *testing.T) {
	for _, c := range []struct{ sample, want string }{
		{"fio/error-enotdir-normal.txt", "fio on init2 exited 1"},
		{"fio/error-bad-ioengine.txt", "fio on init2 exited 1"},
	} {
		h := moduletest.NewFakeHost("init2")
		load(t).common(h)
		h.Reply(`^fio `, moduletest.Reply{RC: 1, Stdout: string(samples.Read(t, c.sample))})
		resp := apply(t, NewBlock(), h, "tool = \"fio\"\npath = \"/x\"\ncpu_capture = false")
		if !resp.Failed || !strings.Contains(resp.Message, c.want) {
			t.Errorf("%s: failed=%t message %q", c.sample, resp.Failed, resp.Message)
		}
	}
}

func TestValidate(t *testing.T) {
	for body, want := range map[string]string{
		"tool = \"elbencho\"":                                "\"path\" is required",
		"tool = \"fio\"\npath = \"/x\"\nrole = \"server\"":   "\"role\" is not expected",
		"tool = \"fio\"\npath = \"/x\"\nruntime = \"soon\"":  "not a duration",
		"tool = \"fio\"\npath = \"/x\"\nblock_size = \"4Q\"": "not a size",
		"tool = \"fio\"\npath = \"/x\"\nrepeat = 0":          "repeat must be from 1 to 20",
		"tool = \"dd\"\npath = \"/x\"":                       "must be one of elbencho, fio",
		"tool = \"ib_write_lat\"\npath = \"/x\"":             "must be one of elbencho, fio",
		"tool = \"fio\"\npath = \"/x\"\nmode = \"trim\"":     "must be one of read, write",
	} {
		f := decodeDiags(t, NewBlock(), body)
		if !strings.Contains(f, want) {
			t.Errorf("%q: diagnostics %q, want %q", body, f, want)
		}
	}
	for body, want := range map[string]string{
		"tool = \"ib_write_lat\"":                       "\"server_address\" is required",
		"tool = \"fio\"\nserver_address = \"10.0.0.1\"": "must be one of ib_write_lat",
	} {
		f := decodeDiags(t, NewPerftestClient(), body)
		if !strings.Contains(f, want) {
			t.Errorf("%q: diagnostics %q, want %q", body, f, want)
		}
	}
}

func TestBytes(t *testing.T) {
	for in, want := range map[string]int64{"4K": 4096, "1M": 1 << 20, "4KiB": 4096, "512": 512, "2g": 2 << 30} {
		if got, err := bytesOf(in); err != nil || got != want {
			t.Errorf("bytesOf(%q) = %d, %v", in, got, err)
		}
	}
}

// numa_node pins the benchmark with numactl and rejects nonsense.
func TestNUMAPinning(t *testing.T) {
	a, err := decodeArgs(decode(t, NewBlock(), "tool = \"fio\"\npath = \"/dev/nvme1n1\"\nnuma_node = 1"), "")
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(a.pinned(fioArgv(a))[:4], " "); got != "numactl --cpunodebind=1 --membind=1 fio" {
		t.Errorf("pinned argv starts %q", got)
	}
	if f := decodeDiags(t, NewBlock(), "tool = \"fio\"\npath = \"/x\"\nnuma_node = -1"); !strings.Contains(f, "numa_node must be from 0 to 1023") {
		t.Errorf("diags %q", f)
	}
}
