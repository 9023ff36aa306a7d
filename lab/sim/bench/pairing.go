package bench

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/provadev/prova/lab/sim"
)

// session is one perftest server waiting for, or running with, a client;
// it lives in the cluster state "perftest".
type session struct {
	Tool    string      `json:"tool"`
	Server  endpoint    `json:"server"`
	Client  *endpoint   `json:"client,omitempty"`
	Rows    [][]float64 `json:"rows,omitempty"`
	Gbits   bool        `json:"gbits"`
	Failed  bool        `json:"failed,omitempty"`
	Done    bool        `json:"done,omitempty"`
	Started time.Time   `json:"started"`
}

type sessions struct {
	Sessions map[string]*session `json:"sessions"`
}

const pollEvery = 50 * time.Millisecond

func runPerftest(ctx context.Context, e *sim.Env, tool string) int {
	o, err := parsePerftest(tool, e.Args)
	if err != nil {
		fmt.Fprintln(e.Stderr, err)
		return 1
	}
	if o.version {
		fmt.Fprintln(e.Stdout, "Version: 6.06")
		return 1 // perftest exits 1 after printing its version
	}
	n, err := e.Model()
	if err != nil {
		return e.Fail(err)
	}
	r, err := newRand(e)
	if err != nil {
		return e.Fail(err)
	}
	me, ok := localEndpoint(e, n, o, r)
	if !ok {
		return 1
	}
	if o.server == "" {
		return serve(ctx, e, tool, o, me)
	}
	return client(ctx, e, tool, o, me, r)
}

func serve(ctx context.Context, e *sim.Env, tool string, o *ptOpts, me *endpoint) int {
	fmt.Fprint(e.Stdout, "\n************************************\n* Waiting for client to connect... *\n************************************\n")
	id := fmt.Sprintf("%s-%d", e.Node, e.Now().UnixNano())
	path := e.ClusterState("perftest")
	var st sessions
	err := e.Update(path, &st, func() (bool, error) {
		if st.Sessions == nil {
			st.Sessions = map[string]*session{}
		}
		st.Sessions[id] = &session{Tool: tool, Server: *me, Started: e.Now()}
		return true, nil
	})
	if err != nil {
		return e.Fail(err)
	}
	defer e.Update(path, &st, func() (bool, error) { delete(st.Sessions, id); return true, nil })
	deadline := e.Now().Add(ServerWait)
	for {
		var cur sessions
		if _, err := e.Read(path, &cur); err != nil {
			return e.Fail(err)
		}
		if s := cur.Sessions[id]; s != nil && s.Done {
			return serverReport(e.Stdout, e.Stderr, o, s)
		}
		if e.Now().After(deadline) {
			fmt.Fprintf(e.Stderr, " prova lab: no client connected within %s\n", ServerWait)
			return 1
		}
		if e.Sleep(ctx, pollEvery) != nil {
			return 130
		}
	}
}

func serverReport(out, errw io.Writer, o *ptOpts, s *session) int {
	writeHeader(out, o, &s.Server, true)
	io.WriteString(out, s.Server.addrLine("local")+s.Client.addrLine("remote")+ptRule)
	if s.Failed {
		fmt.Fprint(errw, " Completion with error at server:\n Failed status 12: wr_id 0 syndrom 0x81\nscnt=0, ccnt=0\n")
		return 1
	}
	writeTable(out, o.lat, s.Gbits, s.Rows, !o.lat)
	return 0
}

func writeTable(w io.Writer, lat, gbits bool, rows [][]float64, lastOnly bool) {
	var b strings.Builder
	if lat {
		b.WriteString(latTableHeader)
	} else {
		b.WriteString(bwHeader(gbits))
	}
	if lastOnly && len(rows) > 1 {
		rows = rows[len(rows)-1:]
	}
	for _, row := range rows {
		if lat {
			b.WriteString(latLine(row))
		} else {
			b.WriteString(bwLine(row, gbits))
		}
	}
	b.WriteString(ptRule)
	io.WriteString(w, b.String())
}

func client(ctx context.Context, e *sim.Env, tool string, o *ptOpts, me *endpoint, r *rand.Rand) int {
	path := e.ClusterState("perftest")
	var st sessions
	var id string
	var srv endpoint
	err := e.Update(path, &st, func() (bool, error) {
		var oldest time.Time
		for k, s := range st.Sessions {
			if s.Tool == tool && s.Client == nil && (s.Server.Addr == o.server || s.Server.Node == o.server) &&
				(id == "" || s.Started.Before(oldest)) {
				id, oldest = k, s.Started
			}
		}
		if id == "" {
			return false, nil
		}
		st.Sessions[id].Client = me
		srv = st.Sessions[id].Server
		return true, nil
	})
	if err != nil {
		return e.Fail(err)
	}
	if id == "" {
		fmt.Fprintf(e.Stderr, "Couldn't connect to %s:18515\nUnable to open file descriptor for socket connection Unable to init the socket connection\n", o.server)
		return 1
	}
	writeHeader(e.Stdout, o, me, false)
	io.WriteString(e.Stdout, me.addrLine("local")+srv.addrLine("remote")+ptRule)
	finish := func(rows [][]float64, failed bool) error {
		return e.Update(path, &st, func() (bool, error) {
			if s := st.Sessions[id]; s != nil {
				s.Rows, s.Failed, s.Done, s.Gbits = rows, failed, true, o.gbits
			}
			return true, nil
		})
	}
	if broken(me.Fault) || broken(srv.Fault) {
		if err := finish(nil, true); err != nil {
			return e.Fail(err)
		}
		fmt.Fprint(e.Stderr, " Completion with error at client:\n Failed status 12: wr_id 0 syndrom 0x81\nscnt=1, ccnt=0\n")
		return 1
	}
	var rows [][]float64
	var busy time.Duration
	for _, bs := range o.sizes() {
		if o.lat {
			row := latRow(r, me, &srv, bs, o.iters)
			busy += time.Duration(row[5] * float64(o.iters) * float64(time.Microsecond))
			rows = append(rows, row)
			continue
		}
		row := bwRow(r, me, &srv, bs, o.iters)
		if o.duration > 0 {
			row[1] = row[3] * mib * o.duration.Seconds() / float64(bs)
			row[2] = 0
			busy += o.duration
		} else {
			busy += time.Duration(float64(bs) * float64(o.iters) / (row[3] * mib) * float64(time.Second))
		}
		rows = append(rows, row)
	}
	poll := loadProfile{Busy: 1, PerCore: sim.CPULoad{Usr: 99.5, Sys: 0.5}, Idle: background}
	done, err := run(ctx, e, poll, busy)
	if err != nil {
		return e.Fail(err)
	}
	if !done {
		return 130
	}
	if err := finish(rows, false); err != nil {
		return e.Fail(err)
	}
	writeTable(e.Stdout, o.lat, o.gbits, rows, false)
	return 0
}

// broken reports an rdma_connect fault that stops RDMA traffic; "lossless"
// only degrades it.
func broken(fault string) bool { return fault != "" && fault != "lossless" }
