package nvme

import (
	"encoding/json"
	"fmt"

	"github.com/provadev/prova/parse"
)

type listJSON struct {
	Devices []json.RawMessage `json:"Devices"`
}

// listDeviceJSON is an element of Devices[] in the plain schema.
type listDeviceJSON struct {
	NameSpace    uint32 `json:"NameSpace"`
	DevicePath   string `json:"DevicePath"`
	GenericPath  string `json:"GenericPath"`
	Firmware     string `json:"Firmware"`
	Index        *int   `json:"Index"`
	ModelNumber  string `json:"ModelNumber"`
	ProductName  string `json:"ProductName"`
	SerialNumber string `json:"SerialNumber"`
	UsedBytes    uint64 `json:"UsedBytes"`
	MaximumLBA   uint64 `json:"MaximumLBA"`
	MaximiumLBA  uint64 `json:"MaximiumLBA"` // misspelt by old 1.x builds
	PhysicalSize uint64 `json:"PhysicalSize"`
	SectorSize   uint64 `json:"SectorSize"`
}

// 2.x "nvme list -v -o json": Devices[] are hosts.
type listHostJSON struct {
	HostNQN    string `json:"HostNQN"`
	Subsystems []struct {
		Subsystem    string `json:"Subsystem"`
		SubsystemNQN string `json:"SubsystemNQN"`
		Controllers  []struct {
			Controller   string       `json:"Controller"`
			Cntlid       string       `json:"Cntlid"`
			SerialNumber string       `json:"SerialNumber"`
			ModelNumber  string       `json:"ModelNumber"`
			Firmware     string       `json:"Firmware"`
			Transport    string       `json:"Transport"`
			Address      string       `json:"Address"`
			Slot         string       `json:"Slot"`
			Namespaces   []listNSJSON `json:"Namespaces"`
		} `json:"Controllers"`
		Namespaces []listNSJSON `json:"Namespaces"`
	} `json:"Subsystems"`
}

type listNSJSON struct {
	NameSpace    string `json:"NameSpace"` // nvme0n1
	Generic      string `json:"Generic"`
	NSID         uint32 `json:"NSID"`
	UsedBytes    uint64 `json:"UsedBytes"`
	MaximumLBA   uint64 `json:"MaximumLBA"`
	PhysicalSize uint64 `json:"PhysicalSize"`
	SectorSize   uint64 `json:"SectorSize"`
}

func parseListJSON(raw json.RawMessage) (*List, error) {
	var v listJSON
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, jsonError(toolList, err)
	}
	if v.Devices == nil {
		return nil, &parse.Error{Tool: toolList, Reason: `JSON has no "Devices" array`}
	}
	l := &List{Devices: []Device{}}
	for i, el := range v.Devices {
		var probe map[string]json.RawMessage
		if err := json.Unmarshal(el, &probe); err != nil {
			return nil, jsonError(toolList, fmt.Errorf("device %d: %w", i, err))
		}
		if _, verbose := probe["Subsystems"]; verbose {
			if err := l.addHostJSON(el); err != nil {
				return nil, jsonError(toolList, fmt.Errorf("device %d: %w", i, err))
			}
			continue
		}
		var d listDeviceJSON
		if err := json.Unmarshal(el, &d); err != nil {
			return nil, jsonError(toolList, fmt.Errorf("device %d: %w", i, err))
		}
		if d.DevicePath == "" {
			return nil, &parse.Error{Tool: toolList, Reason: fmt.Sprintf("device %d has no DevicePath", i)}
		}
		lba := d.MaximumLBA
		if lba == 0 {
			lba = d.MaximiumLBA
		}
		l.Devices = append(l.Devices, Device{
			DevicePath: d.DevicePath, GenericPath: d.GenericPath, Serial: d.SerialNumber,
			Model: d.ModelNumber, Namespace: d.NameSpace, UsedBytes: d.UsedBytes, SizeBytes: d.PhysicalSize,
			SectorSize: d.SectorSize, Firmware: d.Firmware, MaximumLBA: lba, ProductName: d.ProductName,
		})
	}
	return l, nil
}

func (l *List) addHostJSON(el json.RawMessage) error {
	var h listHostJSON
	if err := json.Unmarshal(el, &h); err != nil {
		return err
	}
	for _, s := range h.Subsystems {
		ls := ListSubsystem{Name: s.Subsystem, NQN: s.SubsystemNQN, HostNQN: h.HostNQN, Controllers: []string{}}
		for _, c := range s.Controllers {
			ls.Controllers = append(ls.Controllers, c.Controller)
			lc := ListController{Name: c.Controller, Cntlid: c.Cntlid, Serial: c.SerialNumber, Model: c.ModelNumber,
				Firmware: c.Firmware, Transport: c.Transport, Address: c.Address, Slot: c.Slot, Subsystem: s.Subsystem}
			for _, n := range c.Namespaces {
				lc.Namespaces = append(lc.Namespaces, n.NameSpace)
				l.upsert(n.device(c.Controller))
			}
			l.Controllers = append(l.Controllers, lc)
		}
		for _, n := range s.Namespaces { // multipath: reached through every controller
			d := n.device("")
			d.Controllers = ls.Controllers
			l.upsert(d)
		}
		l.Subsystems = append(l.Subsystems, ls)
	}
	l.link()
	return nil
}

func (n listNSJSON) device(ctrl string) Device {
	d := Device{DevicePath: devPath(n.NameSpace), GenericPath: devPath(n.Generic), Namespace: n.NSID,
		UsedBytes: n.UsedBytes, SizeBytes: n.PhysicalSize, SectorSize: n.SectorSize, MaximumLBA: n.MaximumLBA}
	if ctrl != "" {
		d.Controllers = []string{ctrl}
	}
	return d
}
