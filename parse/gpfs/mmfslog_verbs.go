package gpfs

import "strings"

// VerbsPeerLog summarises the VERBS RDMA messages about one peer.
type VerbsPeerLog struct {
	IP        string `json:"ip"`
	Name      string `json:"name,omitempty"`
	Connected int    `json:"connected"` // "VERBS RDMA connected to" lines
	Closed    int    `json:"closed"`    // closed connection / disconnected lines
	// LastEvent is the event of the peer's latest message; LastError the
	// "error N" of the latest closed message that had one.
	LastEvent string `json:"last_event"`
	LastError *int   `json:"last_error,omitempty"`
}

// UpNow reports whether the latest message about the peer says connected.
func (p VerbsPeerLog) UpNow() bool { return p.LastEvent == EventVerbsConnected }

// VerbsPeers summarises per peer (by IP address, in first-seen order) the
// VERBS RDMA connect/close messages among entries, e.g. the result of
// Log.SinceLastStart.
func VerbsPeers(entries []LogEntry) []VerbsPeerLog {
	var t VerbsPeerTally
	for i := range entries {
		t.Add(&entries[i])
	}
	return t.Peers()
}

// VerbsPeerTally is VerbsPeers one entry at a time, for a log read with
// ScanMmfsLog: the names it keeps are copies, so the text can go.
type VerbsPeerTally struct {
	peers []VerbsPeerLog
	at    map[string]int
}

// Add counts e when it is a VERBS RDMA connect/close message about a peer.
func (t *VerbsPeerTally) Add(e *LogEntry) {
	if e.Peer == nil {
		return
	}
	switch e.Event {
	case EventVerbsConnected, EventVerbsClosed, EventVerbsDisconnected, EventVerbsConnecting:
	default:
		return
	}
	if t.at == nil {
		t.at = map[string]int{}
	}
	k, ok := t.at[e.Peer.IP]
	if !ok {
		k = len(t.peers)
		ip := strings.Clone(e.Peer.IP)
		t.at[ip] = k
		t.peers = append(t.peers, VerbsPeerLog{IP: ip})
	}
	p := &t.peers[k]
	if e.Peer.Name != "" && e.Peer.Name != p.Name {
		p.Name = strings.Clone(e.Peer.Name)
	}
	p.LastEvent = e.Event
	switch e.Event {
	case EventVerbsConnected:
		p.Connected++
	case EventVerbsClosed, EventVerbsDisconnected:
		p.Closed++
		if e.Peer.Error != nil {
			p.LastError = e.Peer.Error
		}
	}
}

// Peers is the summary so far, in first-seen order (nil when none).
func (t *VerbsPeerTally) Peers() []VerbsPeerLog { return t.peers }

// Reset forgets every peer (a daemon start: what came before is another run).
func (t *VerbsPeerTally) Reset() { t.peers, t.at = nil, nil }
