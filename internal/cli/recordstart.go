package cli

import (
	"sync"

	"github.com/provadev/prova/engine/event"
	"github.com/provadev/prova/internal/evidence/record"
	"github.com/provadev/prova/internal/redact"
)

// recordStart is the outcome of creating an apply's run record.
type recordStart struct {
	rec  *record.Writer
	room error // record.CheckRoom's: no record was created
	err  error // record.Create's
}

// startRecord checks the record directory's room and creates the run
// record in the background: its file writes and fsyncs (the probe file,
// the first run.json; a few ms, tens under I/O load) then overlap the
// dials of the run's hosts instead of coming before them. The caller
// receives the outcome before the cluster lock is taken or any step runs,
// so the record still exists before the first change; a dial changes
// nothing on a host.
func startRecord(root string, meta record.Meta, red *redact.Redactor) <-chan recordStart {
	c := make(chan recordStart, 1)
	go func() {
		if err := record.CheckRoom(root, record.MinFree); err != nil {
			c <- recordStart{room: err}
			return
		}
		rec, err := record.Create(root, meta, red)
		c <- recordStart{rec: rec, err: err}
	}()
	return c
}

// gate is an observer that holds each event given to it until open names
// the observer it goes to: the transport's warnings from a dial made while
// the record is being created (ssh_config, host keys) wait for the record
// and reach it after its first line, as when the dials began after the
// record was made. Opened with nil, it drops them: the run does not start.
// Only the first open counts. No event may be given to it on the goroutine
// that opens it before it is open.
type gate struct {
	once  sync.Once
	ready chan struct{}
	obs   event.Observer
}

func newGate() *gate { return &gate{ready: make(chan struct{})} }

func (g *gate) Observe(e event.Event) {
	<-g.ready
	if g.obs != nil {
		g.obs.Observe(e)
	}
}

func (g *gate) open(obs event.Observer) {
	g.once.Do(func() {
		g.obs = obs
		close(g.ready)
	})
}
