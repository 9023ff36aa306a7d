package nvme

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/provadev/prova/parse"
)

type discoverJSON struct {
	Device  string                       `json:"device"`
	Genctr  uint64                       `json:"genctr"`
	Records []map[string]json.RawMessage `json:"records"`
}

func parseDiscoverJSON(raw json.RawMessage) (*Discovery, error) {
	var v discoverJSON
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, jsonError(toolDiscover, err)
	}
	if v.Records == nil {
		return nil, &parse.Error{Tool: toolDiscover, Reason: `JSON has no "records" array`}
	}
	d := &Discovery{Device: v.Device, Genctr: v.Genctr, NumRecords: len(v.Records), Records: []DiscoveryRecord{}}
	for i, rec := range v.Records {
		var r DiscoveryRecord
		for k, rv := range rec {
			s, err := jsonScalar(rv)
			if err != nil {
				return nil, &parse.Error{Tool: toolDiscover, Reason: fmt.Sprintf("record %d key %q: %v", i, k, err)}
			}
			if err := r.set(k, s); err != nil {
				return nil, &parse.Error{Tool: toolDiscover, Reason: fmt.Sprintf("record %d: %v", i, err)}
			}
		}
		if r.Trtype == "" || r.Subnqn == "" {
			return nil, &parse.Error{Tool: toolDiscover, Reason: fmt.Sprintf("record %d has no trtype or subnqn", i)}
		}
		d.Records = append(d.Records, r)
	}
	return d, nil
}

// jsonScalar renders a JSON string, number or bool as text.
func jsonScalar(raw json.RawMessage) (string, error) {
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		return s, nil
	}
	var n json.Number
	if err := json.Unmarshal(raw, &n); err == nil {
		return n.String(), nil
	}
	var b bool
	if err := json.Unmarshal(raw, &b); err == nil {
		return strconv.FormatBool(b), nil
	}
	return "", fmt.Errorf("not a string or number: %s", raw)
}
