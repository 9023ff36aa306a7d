package bench

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/provadev/prova/lab/sim"
)

// csvLabels are the --csvfile columns of elbencho 3.1.
var csvLabels = []string{"ISO date", "label", "path type", "paths", "hosts", "threads", "dirs", "files", "file size",
	"block size", "direct IO", "random", "random aligned", "IO depth", "shared paths", "truncate", "operation",
	"time ms [first]", "time ms [last]", "entries/s [first]", "entries/s [last]", "IOPS [first]", "IOPS [last]",
	"MiB/s [first]", "MiB/s [last]", "CPU% [first]", "CPU% [last]", "entries [first]", "entries [last]",
	"MiB [first]", "MiB [last]", "Ent lat us [min]", "Ent lat us [avg]", "Ent lat us [max]",
	"IO lat us [min]", "IO lat us [avg]", "IO lat us [max]",
	"rwmix read entries/s [first]", "rwmix read entries/s [last]", "rwmix read IOPS [first]", "rwmix read IOPS [last]",
	"rwmix read MiB/s [first]", "rwmix read MiB/s [last]", "rwmix read entries [first]", "rwmix read entries [last]",
	"rwmix read MiB [first]", "rwmix read MiB [last]", "rwmix read Ent lat us [min]", "rwmix read Ent lat us [avg]",
	"rwmix read Ent lat us [max]", "rwmix read IO lat us [min]", "rwmix read IO lat us [avg]", "rwmix read IO lat us [max]",
	"version", "command"}

// csvHeader writes the label line when the file is empty or new.
func csvHeader(e *sim.Env, path string) error {
	st, err := os.Stat(path)
	if err == nil && st.Size() > 0 {
		return nil
	}
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("csvfile: %w", err)
	}
	return appendFile(e, path, strings.Join(csvLabels, ",")+"\n")
}

type csvRow struct {
	start                                  time.Time
	o                                      *elbOpts
	size                                   int64
	op                                     string
	firstMs, lastMs                        int64
	iopsFirst, iopsLast, mibFirst, mibLast uint64
	totalFirst, totalLast, cpu             uint64
	lat                                    latStats
	args                                   []string
}

func b01(b bool) string {
	if b {
		return "1"
	}
	return "0"
}

func (r csvRow) String() string {
	aligned := ""
	if r.o.rand {
		aligned = "1"
	}
	i64 := func(v int64) string { return strconv.FormatInt(v, 10) }
	cells := []string{r.start.Format("2006-01-02T15:04:05"), r.o.label, "blockdev", "1", "1", strconv.Itoa(r.o.threads), "", "",
		i64(r.size), i64(r.o.bs), b01(r.o.direct), b01(r.o.rand), aligned, strconv.Itoa(r.o.iodepth), "", "", r.op,
		i64(r.firstMs), i64(r.lastMs), "", "", u(r.iopsFirst), u(r.iopsLast), u(r.mibFirst), u(r.mibLast), u(r.cpu), u(r.cpu),
		"", "", u(r.totalFirst), u(r.totalLast), "", "", "",
		u(uint64(r.lat.Min)), u(uint64(r.lat.Mean)), u(uint64(r.lat.Max))}
	for range 16 { // no rwmix
		cells = append(cells, "")
	}
	cmd := strings.ReplaceAll(quotedArgs(r.args), ",", " ")
	cells = append(cells, elbenchoVersion, cmd)
	return strings.Join(cells, ",") + "\n"
}

// appendFile appends to a file the benchmark writes on the node.
func appendFile(e *sim.Env, path, s string) error {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return fmt.Errorf("open %s: %w", path, err)
	}
	if _, err := f.WriteString(s); err != nil {
		f.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return e.MarkChanged(path)
}
