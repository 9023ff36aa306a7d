package inventory

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"sort"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// The cache entry codec: a resolved Inventory as bytes and back, exactly
// (strings, numbers at their precision, value types, ranges). Strings are
// written once each in a table that the reader turns into one string, so
// that a decoded inventory's names, addresses and values share it.
// TestCacheCodecCoversTypes fails when a field is added to the types
// below without the codec learning it.

var errNotCacheable = errors.New("inventory: value not cacheable")

type cacheWriter struct {
	buf     []byte // header, then table and payload once inventory is written
	payload []byte
	strs    map[string]uint64
	table   []string
	err     error
}

func (w *cacheWriter) uvarint(v uint64) { w.buf = binary.AppendUvarint(w.buf, v) }

func (w *cacheWriter) bytes(b []byte) {
	w.uvarint(uint64(len(b)))
	w.buf = append(w.buf, b...)
}

func (w *cacheWriter) pu(v uint64) { w.payload = binary.AppendUvarint(w.payload, v) }

func (w *cacheWriter) pbool(v bool) {
	if v {
		w.pu(1)
	} else {
		w.pu(0)
	}
}

func (w *cacheWriter) str(s string) {
	i, ok := w.strs[s]
	if !ok {
		i = uint64(len(w.table))
		w.strs[s] = i
		w.table = append(w.table, s)
	}
	w.pu(i)
}

func (w *cacheWriter) strs1(ss []string) {
	if ss == nil {
		w.pu(0)
		return
	}
	w.pu(uint64(len(ss)) + 1)
	for _, s := range ss {
		w.str(s)
	}
}

// inventory writes the string table and the payload of inv after the
// header already in buf.
func (w *cacheWriter) inventory(inv *Inventory) {
	w.strs = map[string]uint64{}
	w.pu(uint64(len(inv.Hosts)))
	for _, h := range inv.Hosts {
		w.str(h.Name)
		w.str(h.Address)
		w.conn(h.Connection)
		w.strs1(h.Groups)
		w.vars(h.Vars)
		w.rng(h.DeclRange)
	}
	names := make([]string, 0, len(inv.Groups))
	for name := range inv.Groups {
		names = append(names, name)
	}
	sort.Strings(names)
	w.pu(uint64(len(names)))
	for _, name := range names {
		g := inv.Groups[name]
		if g == nil {
			w.err = errNotCacheable
			return
		}
		w.str(name)
		w.str(g.Name)
		w.strs1(g.Hosts)
		w.strs1(g.Children)
		w.vars(g.Vars)
		w.conn(g.Connection)
		w.rng(g.DeclRange)
	}
	w.conn(inv.Defaults)
	if inv.GPFSFound != nil {
		w.err = errNotCacheable // merged nodes come from a cluster, not the file
	}
	w.pu(uint64(len(inv.GPFS)))
	for _, s := range inv.GPFS {
		w.str(s.Admin)
		w.str(s.Group)
		w.pbool(s.ShortNames)
		w.pu(uint64(s.MaxAge))
		w.rng(s.DeclRange)
	}
	w.uvarint(uint64(len(w.table)))
	for _, s := range w.table {
		w.uvarint(uint64(len(s)))
	}
	for _, s := range w.table {
		w.buf = append(w.buf, s...)
	}
	w.buf = append(w.buf, w.payload...)
}

func (w *cacheWriter) conn(c Connection) {
	if c.Password != "" || c.BecomePassword != "" {
		w.err = errNotCacheable // secrets are never written to disk
	}
	w.str(c.User)
	w.pu(uint64(c.Port))
	w.strs1(c.IdentityFiles)
	w.str(c.ProxyJump)
	w.str(c.KnownHosts)
	w.str(c.SSHConfig)
	w.str(c.StrictHostKeyChecking)
	w.pu(uint64(c.ConnectTimeout))
	w.pbool(c.Become)
	w.str(c.BecomeUser)
	w.str(c.ProxyCommand)
	w.pbool(c.Local)
}

func (w *cacheWriter) rng(r hcl.Range) {
	w.str(r.Filename)
	for _, v := range []int{r.Start.Line, r.Start.Column, r.Start.Byte, r.End.Line, r.End.Column, r.End.Byte} {
		w.pu(uint64(v))
	}
}

func (w *cacheWriter) vars(m map[string]cty.Value) {
	if m == nil {
		w.pu(0)
		return
	}
	w.pu(uint64(len(m)) + 1)
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		w.str(k)
		w.value(m[k])
	}
}

// Value and type tags.
const (
	tagNull = iota
	tagString
	tagNumber
	tagBool
	tagList
	tagSet
	tagMap
	tagTuple
	tagObject

	tagDynamic // types only
)

func (w *cacheWriter) value(v cty.Value) {
	if v.IsMarked() || !v.IsKnown() || v == cty.NilVal {
		w.err = errNotCacheable
		return
	}
	ty := v.Type()
	if v.IsNull() {
		w.pu(tagNull)
		w.typ(ty)
		return
	}
	switch {
	case ty == cty.String:
		w.pu(tagString)
		w.str(v.AsString())
	case ty == cty.Number:
		b, err := v.AsBigFloat().GobEncode()
		if err != nil {
			w.err = err
			return
		}
		w.pu(tagNumber)
		w.pu(uint64(len(b)))
		w.payload = append(w.payload, b...)
	case ty == cty.Bool:
		w.pu(tagBool)
		w.pbool(v.True())
	case ty.IsListType(), ty.IsSetType(), ty.IsMapType():
		tag := uint64(tagList)
		if ty.IsSetType() {
			tag = tagSet
		} else if ty.IsMapType() {
			tag = tagMap
		}
		w.pu(tag)
		w.typ(ty.ElementType())
		w.pu(uint64(v.LengthInt()))
		for it := v.ElementIterator(); it.Next(); {
			k, ev := it.Element()
			if ty.IsMapType() {
				w.str(k.AsString())
			}
			w.value(ev)
		}
	case ty.IsTupleType():
		w.pu(tagTuple)
		w.pu(uint64(v.LengthInt()))
		for it := v.ElementIterator(); it.Next(); {
			_, ev := it.Element()
			w.value(ev)
		}
	case ty.IsObjectType():
		w.pu(tagObject)
		w.pu(uint64(v.LengthInt()))
		for it := v.ElementIterator(); it.Next(); {
			k, ev := it.Element()
			w.str(k.AsString())
			w.value(ev)
		}
	default:
		w.err = errNotCacheable // capsules and the like
	}
}

func (w *cacheWriter) typ(ty cty.Type) {
	switch {
	case ty == cty.DynamicPseudoType:
		w.pu(tagDynamic)
	case ty == cty.String:
		w.pu(tagString)
	case ty == cty.Number:
		w.pu(tagNumber)
	case ty == cty.Bool:
		w.pu(tagBool)
	case ty.IsListType():
		w.pu(tagList)
		w.typ(ty.ElementType())
	case ty.IsSetType():
		w.pu(tagSet)
		w.typ(ty.ElementType())
	case ty.IsMapType():
		w.pu(tagMap)
		w.typ(ty.ElementType())
	case ty.IsTupleType():
		w.pu(tagTuple)
		w.pu(uint64(len(ty.TupleElementTypes())))
		for _, et := range ty.TupleElementTypes() {
			w.typ(et)
		}
	case ty.IsObjectType():
		if len(ty.OptionalAttributes()) > 0 {
			w.err = errNotCacheable
			return
		}
		attrs := ty.AttributeTypes()
		names := make([]string, 0, len(attrs))
		for n := range attrs {
			names = append(names, n)
		}
		sort.Strings(names)
		w.pu(tagObject)
		w.pu(uint64(len(names)))
		for _, n := range names {
			w.str(n)
			w.typ(attrs[n])
		}
	default:
		w.err = errNotCacheable
	}
}

type cacheReader struct {
	buf   []byte
	table []string
	err   error
}

var errCorrupt = errors.New("inventory: corrupt cache entry")

func (r *cacheReader) fail() {
	if r.err == nil {
		r.err = errCorrupt
	}
	r.buf = nil
}

func (r *cacheReader) uvarint() uint64 {
	v, n := binary.Uvarint(r.buf)
	if n <= 0 {
		r.fail()
		return 0
	}
	r.buf = r.buf[n:]
	return v
}

// count is a length that cannot exceed what is left to read (every item
// takes at least a byte).
func (r *cacheReader) count() int {
	n := r.uvarint()
	if n > uint64(len(r.buf)) {
		r.fail()
		return 0
	}
	return int(n)
}

func (r *cacheReader) bytes() []byte {
	n := r.uvarint()
	if n > uint64(len(r.buf)) {
		r.fail()
		return nil
	}
	b := r.buf[:n]
	r.buf = r.buf[n:]
	return b
}

func (r *cacheReader) int() int {
	v := r.uvarint()
	if v > 1<<62 {
		r.fail()
		return 0
	}
	return int(v)
}

func (r *cacheReader) bool() bool {
	switch r.uvarint() {
	case 0:
		return false
	case 1:
		return true
	}
	r.fail()
	return false
}

func (r *cacheReader) str() string {
	i := r.uvarint()
	if i >= uint64(len(r.table)) {
		r.fail()
		return ""
	}
	return r.table[i]
}

func (r *cacheReader) strs1() []string {
	n := r.count()
	if n == 0 {
		return nil
	}
	out := make([]string, n-1)
	for i := range out {
		out[i] = r.str()
	}
	return out
}

func (r *cacheReader) inventory() *Inventory {
	n := r.count()
	lens := make([]int, n)
	total := 0
	for i := range lens {
		lens[i] = r.count()
		total += lens[i]
	}
	if r.err != nil || total > len(r.buf) {
		r.fail()
		return nil
	}
	all := string(r.buf[:total]) // one allocation for every string
	r.buf = r.buf[total:]
	r.table = make([]string, n)
	off := 0
	for i, l := range lens {
		r.table[i] = all[off : off+l]
		off += l
	}

	inv := &Inventory{}
	hosts := make([]Host, r.count())
	inv.Hosts = make([]*Host, len(hosts))
	for i := range hosts {
		h := &hosts[i]
		h.Name = r.str()
		h.Address = r.str()
		h.Connection = r.conn()
		h.Groups = r.strs1()
		h.Vars = r.vars()
		h.DeclRange = r.rng()
		inv.Hosts[i] = h
	}
	ng := r.count()
	inv.Groups = make(map[string]*Group, ng)
	for range ng {
		key := r.str()
		g := &Group{Name: r.str()}
		g.Hosts = r.strs1()
		g.Children = r.strs1()
		g.Vars = r.vars()
		g.Connection = r.conn()
		g.DeclRange = r.rng()
		inv.Groups[key] = g
	}
	inv.Defaults = r.conn()
	if n := r.count(); n > 0 {
		inv.GPFS = make([]GPFSSource, n)
		for i := range inv.GPFS {
			s := &inv.GPFS[i]
			s.Admin = r.str()
			s.Group = r.str()
			s.ShortNames = r.bool()
			s.MaxAge = time.Duration(r.int())
			s.DeclRange = r.rng()
		}
	}
	if r.err != nil {
		return nil
	}
	inv.hostIndex = buildIndex(inv.Hosts)
	return inv
}

func (r *cacheReader) conn() Connection {
	var c Connection
	c.User = r.str()
	c.Port = r.int()
	c.IdentityFiles = r.strs1()
	c.ProxyJump = r.str()
	c.KnownHosts = r.str()
	c.SSHConfig = r.str()
	c.StrictHostKeyChecking = r.str()
	c.ConnectTimeout = time.Duration(r.int())
	c.Become = r.bool()
	c.BecomeUser = r.str()
	c.ProxyCommand = r.str()
	c.Local = r.bool()
	return c
}

func (r *cacheReader) rng() hcl.Range {
	var rg hcl.Range
	rg.Filename = r.str()
	rg.Start.Line, rg.Start.Column, rg.Start.Byte = r.int(), r.int(), r.int()
	rg.End.Line, rg.End.Column, rg.End.Byte = r.int(), r.int(), r.int()
	return rg
}

func (r *cacheReader) vars() map[string]cty.Value {
	n := r.count()
	if n == 0 {
		return nil
	}
	m := make(map[string]cty.Value, n-1)
	for range n - 1 {
		k := r.str()
		m[k] = r.value(0)
	}
	return m
}

// maxDepth bounds the nesting of a decoded value or type.
const maxDepth = 64

func (r *cacheReader) value(depth int) cty.Value {
	if depth > maxDepth {
		r.fail()
	}
	if r.err != nil {
		return cty.DynamicVal
	}
	switch tag := r.uvarint(); tag {
	case tagNull:
		return cty.NullVal(r.typ(depth + 1))
	case tagString:
		return cty.StringVal(r.str())
	case tagNumber:
		f := new(big.Float)
		if err := f.GobDecode(r.bytes()); err != nil {
			r.fail()
			return cty.DynamicVal
		}
		return cty.NumberVal(f)
	case tagBool:
		return cty.BoolVal(r.bool())
	case tagList, tagSet, tagMap:
		et := r.typ(depth + 1)
		n := r.count()
		if r.err != nil {
			return cty.DynamicVal
		}
		if tag == tagMap {
			m := make(map[string]cty.Value, n)
			for range n {
				k := r.str()
				m[k] = r.value(depth + 1)
			}
			if r.err != nil || !sameElemType(m, et) {
				r.fail()
				return cty.DynamicVal
			}
			if n == 0 {
				return cty.MapValEmpty(et)
			}
			return cty.MapVal(m)
		}
		vals := make([]cty.Value, n)
		for i := range vals {
			vals[i] = r.value(depth + 1)
		}
		if r.err != nil || !sameElemType(vals, et) {
			r.fail()
			return cty.DynamicVal
		}
		switch {
		case n == 0 && tag == tagList:
			return cty.ListValEmpty(et)
		case n == 0:
			return cty.SetValEmpty(et)
		case tag == tagList:
			return cty.ListVal(vals)
		}
		return cty.SetVal(vals)
	case tagTuple:
		vals := make([]cty.Value, r.count())
		for i := range vals {
			vals[i] = r.value(depth + 1)
		}
		if len(vals) == 0 {
			return cty.EmptyTupleVal
		}
		return cty.TupleVal(vals)
	case tagObject:
		n := r.count()
		m := make(map[string]cty.Value, n)
		for range n {
			k := r.str()
			m[k] = r.value(depth + 1)
		}
		if len(m) != n {
			r.fail()
		}
		if n == 0 {
			return cty.EmptyObjectVal
		}
		return cty.ObjectVal(m)
	}
	r.fail()
	return cty.DynamicVal
}

// sameElemType reports whether every element has type et, as the cty
// constructors require (they panic otherwise).
func sameElemType[C map[string]cty.Value | []cty.Value](c C, et cty.Type) bool {
	check := func(v cty.Value) bool { return v.Type().Equals(et) }
	switch c := any(c).(type) {
	case map[string]cty.Value:
		for _, v := range c {
			if !check(v) {
				return false
			}
		}
	case []cty.Value:
		return !slices.ContainsFunc(c, func(v cty.Value) bool { return !check(v) })
	}
	return true
}

func (r *cacheReader) typ(depth int) cty.Type {
	if depth > maxDepth {
		r.fail()
	}
	if r.err != nil {
		return cty.DynamicPseudoType
	}
	switch tag := r.uvarint(); tag {
	case tagDynamic:
		return cty.DynamicPseudoType
	case tagString:
		return cty.String
	case tagNumber:
		return cty.Number
	case tagBool:
		return cty.Bool
	case tagList:
		return cty.List(r.typ(depth + 1))
	case tagSet:
		return cty.Set(r.typ(depth + 1))
	case tagMap:
		return cty.Map(r.typ(depth + 1))
	case tagTuple:
		ets := make([]cty.Type, r.count())
		for i := range ets {
			ets[i] = r.typ(depth + 1)
		}
		return cty.Tuple(ets)
	case tagObject:
		n := r.count()
		attrs := make(map[string]cty.Type, n)
		for range n {
			k := r.str()
			attrs[k] = r.typ(depth + 1)
		}
		return cty.Object(attrs)
	default:
		r.err = fmt.Errorf("%w: type tag %d", errCorrupt, tag)
		r.buf = nil
	}
	return cty.DynamicPseudoType
}
