package pagepack

// StreamParts is streamParts for the external tests.
func StreamParts(raw []byte) ([][2]string, error) {
	parts, err := streamParts(raw)
	out := make([][2]string, len(parts))
	for i, p := range parts {
		out[i] = p
	}
	return out, err
}
