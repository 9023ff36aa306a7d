package gpfs

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
	var out []VerbsPeerLog
	at := map[string]int{}
	for _, e := range entries {
		if e.Peer == nil {
			continue
		}
		switch e.Event {
		case EventVerbsConnected, EventVerbsClosed, EventVerbsDisconnected, EventVerbsConnecting:
		default:
			continue
		}
		k, ok := at[e.Peer.IP]
		if !ok {
			k = len(out)
			at[e.Peer.IP] = k
			out = append(out, VerbsPeerLog{IP: e.Peer.IP})
		}
		p := &out[k]
		if e.Peer.Name != "" {
			p.Name = e.Peer.Name
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
	return out
}
