package record

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/klauspost/compress/zstd"

	"github.com/provadev/prova/internal/lazyre"
)

// A version 4 blob, raw/sha256/<hex>.zst, is one zstd frame holding the
// content whose SHA-256 is <hex>. A blob compressed against a reference
// (an earlier blob of the same step and output, whose content it uses as
// a raw zstd dictionary) starts with a zstd skippable frame naming it:
//
//	magic 0x184D2A5B (little endian), payload length (u32 little endian),
//	payload "ref raw/sha256/<hex of the reference>.zst"
//
// then the frame, compressed with the reference's content as its raw
// dictionary (dictionary ID 0: the frame names none).
// A reference is always a blob without a reference of its own, so any
// blob decodes from at most two files. The zstd tool reads them too:
// zstd -dc blob.zst for a blob without a reference, and for one with,
// zstd -dc ref.zst >ref.txt; zstd -dc -D ref.txt blob.zst (the tool
// wants the dictionary as a regular file).

// blobExt is the file extension of version 4 blobs.
const blobExt = ".zst"

// skipMagic is the zstd skippable frame magic number that carries a
// blob's reference (any of 0x184D2A50 to 0x184D2A5F is skippable).
const skipMagic = 0x184D2A5B

// refPrefix starts the skippable frame's payload.
const refPrefix = "ref "

// blobName matches a version 4 blob path and captures its hex.
var blobName = lazyre.New(`^raw/sha256/([0-9a-f]{64})\.zst$`)

// refID is the dictionary ID of every reference: 0, which a frame does
// not write, so the zstd tool reads a blob given the reference's text as
// its dictionary (it refuses a frame naming another ID, and a raw
// dictionary has none). What names the reference is the skippable frame;
// a wrong one is caught by the frame's checksum and the content's name.
const refID = 0

// blobLevel is the zstd level of raw blobs. Measured on the 4,006
// distinct raw outputs (970 MB) of a 1,000-node verify record
// (docs/performance.md): the fastest level with a reference stores them
// in 60.8 MB at 6.3 ms per MB, the default level with a reference in
// 68.3 MB at 6.8 ms per MB (the fastest level finds more of the
// reference's lines in these outputs), gzip level 5 (version 3) in
// 103.2 MB at 16.5 ms per MB.
const blobLevel = zstd.SpeedFastest

// blobWindow is the encoders' window: an output (at most MaxRawBytes and
// the cut note) and its reference (as much) fit in it, so every byte of
// the reference can be matched. The default window (8 MiB) made each
// encoder hold 9 MB; with this one and WithLowerEncoderMem, 3 MB, and
// the 1,000-node blobs are the same size.
const blobWindow = 2 << 20

// newEncoder makes a single-threaded encoder, with ref as its raw
// dictionary when ref is not nil.
func newEncoder(ref []byte) *zstd.Encoder {
	opts := []zstd.EOption{zstd.WithEncoderLevel(blobLevel), zstd.WithEncoderConcurrency(1),
		zstd.WithWindowSize(blobWindow), zstd.WithLowerEncoderMem(true)}
	if ref != nil {
		opts = append(opts, zstd.WithEncoderDictRaw(refID, ref))
	}
	enc, err := zstd.NewWriter(nil, opts...)
	if err != nil {
		// The options are constants and a reference is at most
		// MaxRawBytes: an error here is a bug.
		panic(fmt.Sprintf("record: zstd encoder: %v", err))
	}
	return enc
}

// encodeBlob appends the version 4 blob of content to dst: with a
// reference header when refHex is set (enc then has that reference as
// its dictionary).
func encodeBlob(dst []byte, enc *zstd.Encoder, refHex string, content []byte) []byte {
	if refHex != "" {
		payload := refPrefix + blobRel(refHex)
		dst = binary.LittleEndian.AppendUint32(dst, skipMagic)
		dst = binary.LittleEndian.AppendUint32(dst, uint32(len(payload)))
		dst = append(dst, payload...)
	}
	return enc.EncodeAll(content, dst)
}

// blobRel is the record path of the version 4 blob with this hex.
func blobRel(hexSum string) string { return blobDir + "/" + hexSum + blobExt }

// splitBlob separates a version 4 blob into the reference it names ("" if
// none) and its zstd frame.
func splitBlob(b []byte) (ref string, frame []byte, err error) {
	if len(b) < 8 || binary.LittleEndian.Uint32(b) != skipMagic {
		return "", b, nil
	}
	n := binary.LittleEndian.Uint32(b[4:])
	if uint64(n) > uint64(len(b)-8) || n > 512 {
		return "", nil, errors.New("reference header runs past the blob: corrupt blob")
	}
	payload := string(b[8 : 8+n])
	ref, ok := strings.CutPrefix(payload, refPrefix)
	if !ok || !blobName.MatchString(ref) {
		return "", nil, fmt.Errorf("reference header %q does not name a raw/sha256/<hex>%s blob: corrupt blob", payload, blobExt)
	}
	return ref, b[8+n:], nil
}

// maxDecoded bounds what one blob decodes to: MaxRawBytes and the note
// cut adds, with room to spare. A blob claiming more is corrupt.
const maxDecoded = MaxRawBytes + 64<<10

// decoders are reused: a zstd.Decoder allocates its buffers once.
var decoders = sync.Pool{New: func() any {
	d, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxMemory(maxDecoded))
	if err != nil {
		panic(fmt.Sprintf("record: zstd decoder: %v", err)) // constant options
	}
	return d
}}

// decodeFrame decodes a zstd frame, against ref (the reference's content)
// when ref is not nil.
func decodeFrame(frame, ref []byte) ([]byte, error) {
	d := decoders.Get().(*zstd.Decoder)
	defer decoders.Put(d)
	opts := []zstd.DOption{zstd.WithDecoderDictDelete()}
	if ref != nil {
		opts = append(opts, zstd.WithDecoderDictRaw(refID, ref))
	}
	if err := d.ResetWithOptions(nil, opts...); err != nil {
		return nil, err
	}
	out, err := d.DecodeAll(frame, nil)
	// Drop the reference so the pooled decoder does not keep it alive.
	_ = d.ResetWithOptions(nil, zstd.WithDecoderDictDelete())
	return out, err
}

// checkSum reports whether content is what a blob named by hexSum holds.
func checkSum(content []byte, hexSum string) bool {
	sum := sha256.Sum256(content)
	return hex.EncodeToString(sum[:]) == hexSum
}
