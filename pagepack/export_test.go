package pagepack

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"errors"
	"io"
	"strings"
	"sync"
)

// StreamParts is streamParts for the external tests.
func StreamParts(raw []byte) ([][2]string, error) {
	parts, err := streamParts(raw)
	out := make([][2]string, len(parts))
	for i, p := range parts {
		out[i] = p
	}
	return out, err
}

// PackedBlock is the block (its base64 segments) of a packed page.
func PackedBlock(page string) string {
	m := findPackBlock(page)
	if m == nil {
		return ""
	}
	segs, _ := splitDeferred(page[m[2]:m[3]])
	return segs
}

// InflateSegments inflates the base64 segments given (joined by ",") as
// far as they go: a segment cut by a sync flush ends without the stream's
// final block, which is not an error here.
func InflateSegments(segs string) (string, error) {
	var z []byte
	for _, s := range strings.Split(segs, segmentSep) {
		b, err := base64.StdEncoding.DecodeString(s)
		if err != nil {
			return "", err
		}
		z = append(z, b...)
	}
	raw, err := io.ReadAll(flate.NewReader(bytes.NewReader(z)))
	if errors.Is(err, io.ErrUnexpectedEOF) {
		err = nil
	}
	return string(raw), err
}

// TwoStreams is the block page would get with the first parts and the
// rest deflated as two streams (joined by "."), as Pack wrote them before.
func TwoStreams(page string) (string, error) {
	packed, err := Pack(page)
	if err != nil {
		return "", err
	}
	parts, err := unpackBlock(PackedBlock(packed))
	if err != nil {
		return "", err
	}
	var first, rest []packPart
	for _, p := range parts {
		if p[0] == "shim" || p[0] == "first" {
			first = append(first, p)
		} else {
			rest = append(rest, p)
		}
	}
	a, err := packBlock(first, nil)
	if err != nil {
		return "", err
	}
	b, err := packBlock(nil, rest)
	if err != nil {
		return "", err
	}
	return a + streamSep + b, nil
}

// Loader is the loader script as pages carry it.
func Loader() string { return packLoader }

// ForgetDeferred empties the deferred registry and its source, as in a
// process that has packed nothing yet.
func ForgetDeferred() {
	deferred.Lock()
	defer deferred.Unlock()
	clear(deferred.blocks)
	clear(deferred.uris)
	deferred.source = nil
	deferred.prime = sync.Once{}
}
