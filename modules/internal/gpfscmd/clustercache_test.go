package gpfscmd

import (
	"strings"
	"sync"
	"testing"

	"github.com/provadev/prova/internal/testkit/samples"
)

// The same mmlscluster text is parsed and indexed once, whoever asks and
// however often; another text is parsed on its own; the cache keeps a few.
func TestClusterParsedOncePerText(t *testing.T) {
	raw := string(samples.Read(t, "gpfs/mmlscluster-ccr-7-nodes.txt"))
	raw = raw[strings.Index(raw, "GPFS cluster information"):] // after the README's prompt and marker
	a, err := parseCluster(raw)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for range 8 { // hosts asking at once
		wg.Add(1)
		go func() {
			defer wg.Done()
			b, err := parseCluster(strings.Clone(raw))
			if err != nil || b != a {
				t.Errorf("a second parse of the same text: %p, %v (first %p)", b, err, a)
			}
			if IndexNodes(b) != IndexNodes(a) {
				t.Error("the index was built twice")
			}
		}()
	}
	wg.Wait()
	if n, _, ok := IndexNodes(a).Find(a.Nodes[0].DaemonName); !ok || n.DaemonName != a.Nodes[0].DaemonName {
		t.Errorf("index: %+v %v", n, ok)
	}
	other := raw + "\n"
	c, err := parseCluster(other)
	if err != nil || c == a || len(c.Nodes) != len(a.Nodes) {
		t.Fatalf("another text: %p %v", c, err)
	}
	for i := range clusterCacheSize + 2 { // push the first out
		if _, err := parseCluster(raw + strings.Repeat("\n", i+2)); err != nil {
			t.Fatal(err)
		}
	}
	if len(clusterCache.entries) != clusterCacheSize {
		t.Errorf("%d entries kept, want %d", len(clusterCache.entries), clusterCacheSize)
	}
	if d, _ := parseCluster(raw); d == a {
		t.Error("an evicted text came back from the cache")
	}
}
