package inventory

import (
	"encoding/json"
	"math/big"
	"time"

	"github.com/zclconf/go-cty/cty"
)

type jsonConnection struct {
	User                  string   `json:"user,omitempty"`
	Port                  int      `json:"port,omitempty"`
	IdentityFiles         []string `json:"identity_files,omitempty"`
	ProxyJump             string   `json:"proxy_jump,omitempty"`
	KnownHosts            string   `json:"known_hosts,omitempty"`
	SSHConfig             string   `json:"ssh_config,omitempty"`
	StrictHostKeyChecking string   `json:"strict_host_key_checking,omitempty"`
	ConnectTimeout        string   `json:"connect_timeout,omitempty"`
	Become                bool     `json:"become,omitempty"`
	BecomeUser            string   `json:"become_user,omitempty"`
	ProxyCommand          string   `json:"proxy_command,omitempty"`
	Connection            string   `json:"connection,omitempty"`
	// Passwords are never written: only whether one is set.
	Password       string `json:"password,omitempty"`
	BecomePassword string `json:"become_password,omitempty"`
}

type jsonHost struct {
	Name       string         `json:"name"`
	Address    string         `json:"address"`
	Connection jsonConnection `json:"connection"`
	Groups     []string       `json:"groups"`
	Vars       map[string]any `json:"vars"`
}

type jsonGroup struct {
	Hosts      []string       `json:"hosts"`
	Children   []string       `json:"children"`
	Connection jsonConnection `json:"connection"`
	Vars       map[string]any `json:"vars"`
}

type jsonInventory struct {
	Hosts    []jsonHost           `json:"hosts"`
	Groups   map[string]jsonGroup `json:"groups"`
	Defaults jsonConnection       `json:"defaults"`
	Files    []string             `json:"files"`
	Hash     string               `json:"hash"`
	// GPFS lists the GPFS clusters hosts came from (omitted when none).
	GPFS []jsonGPFS `json:"gpfs_clusters,omitempty"`
}

// jsonGPFS is one GPFS source and what it found.
type jsonGPFS struct {
	Admin     string    `json:"admin"`
	Group     string    `json:"group"`
	Cluster   string    `json:"cluster,omitempty"`
	ID        string    `json:"id,omitempty"`
	Nodes     int       `json:"nodes"`
	Classes   []string  `json:"node_classes"`
	FetchedAt time.Time `json:"fetched_at,omitzero"`
}

// MarshalJSON encodes the inventory in a plain form for --json: hosts in
// declaration order with their connection settings, groups and vars, groups
// by name, and vars as ordinary JSON values. Empty lists are [], not null.
func (inv *Inventory) MarshalJSON() ([]byte, error) {
	out := jsonInventory{
		Hosts:    make([]jsonHost, 0, len(inv.Hosts)),
		Groups:   make(map[string]jsonGroup, len(inv.Groups)),
		Defaults: jsonConn(inv.Defaults),
		Files:    nonNil(inv.Files),
		Hash:     inv.Hash,
	}
	for i, src := range inv.GPFS {
		g := jsonGPFS{Admin: src.Admin, Group: src.Group, Classes: []string{}}
		if i < len(inv.GPFSFound) && inv.GPFSFound[i] != nil {
			c := inv.GPFSFound[i]
			g.Cluster, g.ID, g.Nodes, g.Classes, g.FetchedAt = c.Name, c.ID, len(c.Nodes), nonNil(c.Classes), c.FetchedAt
		}
		out.GPFS = append(out.GPFS, g)
	}
	for _, h := range inv.Hosts {
		out.Hosts = append(out.Hosts, jsonHost{
			Name:       h.Name,
			Address:    h.Address,
			Connection: jsonConn(h.Connection),
			Groups:     nonNil(h.Groups),
			Vars:       jsonVars(h.Vars),
		})
	}
	for name, g := range inv.Groups {
		out.Groups[name] = jsonGroup{
			Hosts:      nonNil(g.Hosts),
			Children:   nonNil(g.Children),
			Connection: jsonConn(g.Connection),
			Vars:       jsonVars(g.Vars),
		}
	}
	return json.Marshal(out)
}

func jsonConn(c Connection) jsonConnection {
	j := jsonConnection{
		User:                  c.User,
		Port:                  c.Port,
		IdentityFiles:         c.IdentityFiles,
		ProxyJump:             c.ProxyJump,
		KnownHosts:            c.KnownHosts,
		SSHConfig:             c.SSHConfig,
		StrictHostKeyChecking: c.StrictHostKeyChecking,
		Become:                c.Become,
		BecomeUser:            c.BecomeUser,
		ProxyCommand:          c.ProxyCommand,
	}
	if c.Local {
		j.Connection = "local"
	}
	if c.Password != "" {
		j.Password = "(sensitive)"
	}
	if c.BecomePassword != "" {
		j.BecomePassword = "(sensitive)"
	}
	if c.ConnectTimeout != 0 {
		j.ConnectTimeout = c.ConnectTimeout.String()
	}
	return j
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func jsonVars(vars map[string]cty.Value) map[string]any {
	out := make(map[string]any, len(vars))
	for k, v := range vars {
		out[k] = plainValue(v)
	}
	return out
}

// plainValue converts a cty value to what encoding/json writes as the same
// JSON value: numbers keep their exact decimal form.
func plainValue(v cty.Value) any {
	if v.IsNull() || !v.IsKnown() {
		return nil
	}
	t := v.Type()
	switch {
	case t == cty.String:
		return v.AsString()
	case t == cty.Bool:
		return v.True()
	case t == cty.Number:
		if v.AsBigFloat().IsInf() {
			return nil
		}
		return json.Number(numberText(v.AsBigFloat()))
	case t.IsListType() || t.IsTupleType() || t.IsSetType():
		out := make([]any, 0, v.LengthInt())
		for it := v.ElementIterator(); it.Next(); {
			_, ev := it.Element()
			out = append(out, plainValue(ev))
		}
		return out
	case t.IsMapType() || t.IsObjectType():
		out := map[string]any{}
		for it := v.ElementIterator(); it.Next(); {
			k, ev := it.Element()
			out[k.AsString()] = plainValue(ev)
		}
		return out
	}
	return nil
}

// numberText prints a number for --json as ansible-inventory would: an
// integer in full, a float as Python prints it (3.0, see pyFloatVal).
func numberText(f *big.Float) string {
	if isPyFloat(f) {
		x, _ := f.Float64()
		return pyFloatText(x)
	}
	return hclNumberText(f)
}

// hclNumberText prints a number as an HCL number literal: HCL has no
// floats, so 3.0 is 3.
func hclNumberText(f *big.Float) string {
	if f.IsInt() && f.MantExp(nil) <= 70 {
		i, _ := f.Int(nil)
		return i.String()
	}
	return f.Text('g', -1)
}
