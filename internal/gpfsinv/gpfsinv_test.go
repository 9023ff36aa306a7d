package gpfsinv

import (
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/internal/testkit/samples"
	"github.com/provadev/prova/inventory"
)

const cluster = `GPFS cluster information
========================
  GPFS cluster name:         prod.example
  GPFS cluster id:           42
  Repository type:           CCR

 Node  Daemon node name      IP address  Admin node name       Designation
---------------------------------------------------------------------------
   1   gpfs01-ib.example     10.0.0.1    gpfs01.mgmt.example   quorum-manager
   2   gpfs02-ib.example     10.0.0.2    gpfs02.mgmt.example   quorum
   3   gpfs03-ib.example     10.0.0.3    gpfs03.mgmt.example   manager
   4   cn01-ib.example       10.0.0.4    cn01.mgmt.example
   5   cn02-ib.example       10.0.0.5    cn02.mgmt.example     perfmon
`

const classes = `Node Class Name       Members
--------------------- -----------------------------------------------------------
siteA                 gpfs01-ib.example,cn01-ib
siteB                 5,gpfs02-ib.example,ghost
siteAB                siteA,siteB
quorumNodes           gpfs01-ib.example,gpfs02-ib.example
`

const nsds = `
 File system   Disk name    NSD servers
---------------------------------------------------------------------------
 gpfs0         nsd01        gpfs03-ib,gpfs02-ib.example
`

func TestBuild(t *testing.T) {
	c, err := Build("gpfs01", Outputs{"mmlscluster": cluster, "mmlsnodeclass --all": classes, "mmlsnsd": nsds})
	if err != nil {
		t.Fatal(err)
	}
	if c.Name != "prod.example" || c.ID != "42" || len(c.Nodes) != 5 || !slices.Equal(c.Classes, []string{"siteA", "siteB", "siteAB", "quorumNodes"}) {
		t.Fatalf("%+v", c)
	}
	n := c.Nodes
	if n[0].AdminName != "gpfs01.mgmt.example" || n[0].DaemonName != "gpfs01-ib.example" || n[0].DaemonAddress != "10.0.0.1" || !n[0].Quorum || !n[0].Manager || n[0].NSDServer {
		t.Errorf("node 1 %+v", n[0])
	}
	// NSD servers by short or long daemon name.
	if !n[1].NSDServer || !n[2].NSDServer || n[3].NSDServer {
		t.Errorf("NSD servers: %+v", n)
	}
	// Members by short name, node number, nested class.
	if !slices.Equal(n[3].Classes, []string{"siteA", "siteAB"}) || !slices.Equal(n[4].Classes, []string{"siteB", "siteAB"}) ||
		!slices.Equal(n[1].Classes, []string{"siteB", "siteAB", "quorumNodes"}) {
		t.Errorf("classes: %v / %v / %v", n[3].Classes, n[4].Classes, n[1].Classes)
	}
	if len(c.Warnings) != 2 || !strings.Contains(c.Warnings[0], "class siteB has member ghost") {
		t.Errorf("warnings %q", c.Warnings)
	}
	// A node that is neither quorum, manager nor NSD server is a client.
	src := inventory.GPFSSource{Admin: "gpfs01", Group: "gpfs"}
	empty, err := inventory.FromGPFS(src)
	if err != nil {
		t.Fatal(err)
	}
	inv, diags := empty.WithGPFS([]*inventory.GPFSCluster{c})
	if diags.HasErrors() || !slices.Equal(inv.Groups["clients"].Hosts, []string{"cn01.mgmt.example", "cn02.mgmt.example"}) ||
		!slices.Equal(inv.Groups["nsd_servers"].Hosts, []string{"gpfs02.mgmt.example", "gpfs03.mgmt.example"}) {
		t.Errorf("groups: %v %v", inv.Groups["clients"], diags)
	}
}

func TestBuildRealSamples(t *testing.T) {
	cl := samples.Read(t, "gpfs/mmlscluster-ccr-7-nodes.txt")
	nc := samples.Read(t, "gpfs/mmlsnodeclass-user-1-class-1-node.txt")
	nc = nc[bytes.IndexByte(nc, '\n')+1:]
	ns := samples.Read(t, "gpfs/mmlsnsd-a-1-server-6-nsds-ibmcloud.txt")
	c, err := Build("admin", Outputs{"mmlscluster": string(skipPrompt(cl)), "mmlsnodeclass --all": string(nc), "mmlsnsd": string(ns)})
	if err != nil {
		t.Fatal(err)
	}
	// Three samples of three clusters: every node read, the members and
	// servers the cluster does not list are warned about, not guessed.
	if len(c.Nodes) != 7 || len(c.Classes) != 1 || len(c.Warnings) == 0 {
		t.Errorf("%d nodes, classes %v, warnings %q", len(c.Nodes), c.Classes, c.Warnings)
	}
}

// skipPrompt drops lines before the cluster information block.
func skipPrompt(b []byte) []byte {
	if i := bytes.Index(b, []byte("GPFS cluster information")); i > 0 {
		return b[i:]
	}
	return b
}

func TestBuildErrorsNameToolAndLine(t *testing.T) {
	for outs, want := range map[*Outputs]string{
		{"mmlscluster": "bogus\n", "mmlsnodeclass --all": classes}:                     "on gpfs01: mmlscluster output line 1",
		{"mmlscluster": cluster, "mmlsnodeclass --all": "x\n"}:                         "on gpfs01: mmlsnodeclass output line 1",
		{"mmlscluster": cluster, "mmlsnodeclass --all": classes, "mmlsnsd": "zz\n"}:    "on gpfs01: mmlsnsd output line 1",
		{"mmlscluster": cluster, "mmlsnodeclass --all": classes, "mmlsnsd": nsds[:40]}: "cut short",
	} {
		if _, err := Build("gpfs01", *outs); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%v, want %q", err, want)
		}
	}
}

// fakeAdmin answers the three commands; down makes every command fail as
// an unreachable host does.
type fakeAdmin struct {
	outs  map[string]string
	rc    map[string]int
	calls []string
}

func (f *fakeAdmin) Name() string { return "gpfs01" }
func (f *fakeAdmin) Run(_ context.Context, cmd string, _ io.Reader, stdout, stderr io.Writer) (int, error) {
	f.calls = append(f.calls, cmd)
	for k, v := range f.outs {
		if strings.HasSuffix(cmd, " "+k) || strings.HasSuffix(cmd, " '"+k+"'") || strings.Contains(cmd, " "+k+" ") {
			if strings.HasPrefix(v, "ERR:") {
				io.WriteString(stderr, v[4:])
				return f.rc[k], nil
			}
			io.WriteString(stdout, v)
			return f.rc[k], nil
		}
	}
	return 127, nil
}
func (f *fakeAdmin) Put(context.Context, string, io.Reader, fs.FileMode) error { return nil }
func (f *fakeAdmin) Get(context.Context, string, io.Writer) error              { return nil }

func TestGetCachePolicy(t *testing.T) {
	dir := t.TempDir()
	now := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	admin := &fakeAdmin{outs: map[string]string{"mmlscluster": cluster, "--all": classes, "mmlsnsd": nsds}}
	src := inventory.GPFSSource{Admin: "gpfs01.mgmt.example", Group: "gpfs"}
	connect := func() (module.Host, error) { return admin, nil }
	down := func() (module.Host, error) { return nil, errors.New("connect to gpfs01: connection refused") }

	// No cache, admin down: an error that says there is no copy.
	if _, err := Get(context.Background(), src, down, Options{RecordDir: dir, Cached: true, Now: clock}); err == nil || !strings.Contains(err.Error(), "there is no cached copy") {
		t.Fatalf("no cache: %v", err)
	}
	// Asked: the answer is cached with its time.
	res, err := Get(context.Background(), src, connect, Options{RecordDir: dir, Now: clock})
	if err != nil || res.FromCache || res.CacheErr != nil || len(res.Cluster.Nodes) != 5 || !res.Cluster.FetchedAt.Equal(now) {
		t.Fatalf("ask: %+v %v", res, err)
	}
	if res.Cluster.Admin != src.Admin {
		t.Errorf("admin %q", res.Cluster.Admin)
	}
	if len(admin.calls) != 3 || !strings.HasPrefix(admin.calls[0], "PATH=$PATH:/usr/lpp/mmfs/bin ") {
		t.Errorf("commands %q", admin.calls)
	}
	if _, err := os.Stat(filepath.Join(dir, CacheDir, "gpfs01.mgmt.example.json")); err != nil {
		t.Fatal(err)
	}
	now = now.Add(90 * time.Minute)
	// Admin down: an error naming the copy and its age; used only with Cached.
	_, err = Get(context.Background(), src, down, Options{RecordDir: dir, Now: clock})
	if err == nil || !strings.Contains(err.Error(), "connection refused") || !strings.Contains(err.Error(), "(1h30m0s old)") || !strings.Contains(err.Error(), "--gpfs-cached") {
		t.Fatalf("down: %v", err)
	}
	res, err = Get(context.Background(), src, down, Options{RecordDir: dir, Cached: true, Now: clock})
	if err != nil || !res.FromCache || res.AskErr == nil || res.Age(now) != 90*time.Minute {
		t.Fatalf("cached: %+v %v", res, err)
	}
	// max_age: a younger copy is used without asking; Refresh asks.
	src.MaxAge = 2 * time.Hour
	admin.calls = nil
	res, err = Get(context.Background(), src, down, Options{RecordDir: dir, Now: clock})
	if err != nil || !res.FromCache || res.AskErr != nil || len(admin.calls) != 0 {
		t.Fatalf("max_age: %+v %v", res, err)
	}
	if _, err = Get(context.Background(), src, down, Options{RecordDir: dir, Refresh: true, Now: clock}); err == nil {
		t.Fatal("refresh with the admin down: no error")
	}
	// A command that fails is an error naming it; mmlsnsd's "No disks"
	// is no NSD server.
	admin.outs["mmlsnsd"], admin.rc = "ERR:mmlsnsd: No disks were found.\n", map[string]int{"mmlsnsd": 1}
	res, err = Get(context.Background(), src, connect, Options{RecordDir: dir, Refresh: true, Now: clock})
	if err != nil || res.Cluster.Nodes[1].NSDServer {
		t.Fatalf("no disks: %+v %v", res, err)
	}
	admin.outs["mmlscluster"], admin.rc = "ERR:mmlscluster: This node does not belong to a GPFS cluster.\n", map[string]int{"mmlscluster": 1}
	if _, err = Get(context.Background(), src, connect, Options{RecordDir: dir, Refresh: true, Now: clock}); err == nil ||
		!strings.Contains(err.Error(), "mmlscluster on gpfs01 exited 1: mmlscluster: This node does not belong to a GPFS cluster.") {
		t.Fatalf("failed command: %v", err)
	}
	// A damaged cache file is an error, not an empty cluster.
	os.WriteFile(filepath.Join(dir, CacheDir, "gpfs01.mgmt.example.json"), []byte("{"), 0o644)
	if _, err = Get(context.Background(), src, connect, Options{RecordDir: dir, Now: clock}); err == nil || !strings.Contains(err.Error(), "cached GPFS inventory") {
		t.Fatalf("damaged cache: %v", err)
	}
}

func TestAdminWarning(t *testing.T) {
	c, err := Build("gpfs01", Outputs{"mmlscluster": cluster, "mmlsnodeclass --all": classes})
	if err != nil {
		t.Fatal(err)
	}
	if w := AdminWarning(inventory.GPFSSource{Admin: "gpfs01"}, c); !strings.Contains(w, "is listed as host gpfs01.mgmt.example") {
		t.Errorf("long names: %q", w)
	}
	for _, src := range []inventory.GPFSSource{{Admin: "gpfs01", ShortNames: true}, {Admin: "gpfs01.mgmt.example"}, {Admin: "elsewhere"}} {
		if w := AdminWarning(src, c); w != "" {
			t.Errorf("%+v: %q", src, w)
		}
	}
}
