package wire

// AppendString appends s as a JSON string exactly as encoding/json writes
// it with HTML escaping off (json.Encoder.SetEscapeHTML(false)), for
// callers that encode their own lines without reflection. It does not
// redact.
func AppendString(b []byte, s string) []byte { return appendString(b, s) }

// AppendFloat appends f as encoding/json writes a float64; false for NaN
// and the infinities, which JSON cannot hold.
func AppendFloat(b []byte, f float64) ([]byte, bool) { return appendFloat(b, f) }
