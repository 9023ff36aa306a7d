package gpfs

import (
	"sort"
	"strings"

	"github.com/provadev/prova/parse"
)

// ParseMmdiagVerbsY reads "mmdiag --verbs -Y", documented by IBM for Storage
// Scale 6.0.1 without a sample of its output (none public that we could
// find): the format is UNVERIFIED. It is read by the rules every -Y output
// follows (HEADER rows name the fields of their section) and the column
// aliases of ParseVerbsConn: a section whose fields include a state and a
// destination or node name is a connection table, one row per connection.
//
// It never guesses: output that is not -Y is an error naming the line; -Y
// output without such a section gives NoTable (the caller falls back to
// mmfsadm test verbs conn) with the sections it saw in Columns.
func ParseMmdiagVerbsY(data []byte) (*VerbsConns, error) {
	const tool = "mmdiag --verbs -Y"
	if err := parse.Complete(tool, data); err != nil {
		return nil, err
	}
	recs, err := readY(tool, "mmdiag", data)
	if err != nil {
		return nil, err
	}
	c := &VerbsConns{Conns: []VerbsConn{}}
	sections := map[string]bool{}
	for _, r := range recs {
		sections[r.Section] = true
		fields := map[string]string{} // alias target -> value
		for k, v := range r.Fields {
			if name, ok := connAliases[strings.ToLower(k)]; ok {
				if _, dup := fields[name]; !dup {
					fields[name] = v
				}
			}
		}
		if fields["state"] == "" || (fields["dest"] == "" && fields["name"] == "") {
			continue
		}
		cols, vals := make([]string, 0, len(fields)), make([]string, 0, len(fields))
		for _, k := range []string{"dest", "name", "state", "device", "port", "qps"} {
			if v, ok := fields[k]; ok {
				cols, vals = append(cols, k), append(vals, orDash(v))
			}
		}
		e, reason := connRow(cols, vals)
		if reason != "" {
			return nil, &parse.Error{Tool: tool, Line: r.Line, Text: r.Text, Reason: reason}
		}
		e.Line = r.Line
		c.Conns = append(c.Conns, e)
	}
	if len(c.Conns) == 0 {
		c.NoTable = true
		for s := range sections {
			c.Columns = append(c.Columns, s)
		}
		sort.Strings(c.Columns)
	}
	return c, nil
}

func orDash(s string) string {
	if strings.TrimSpace(s) == "" {
		return "-"
	}
	return s
}
