package contract

// ErrorCodes lists every error code.
func ErrorCodes() []ErrorCode {
	out := make([]ErrorCode, 0, len(statusTable))
	for _, r := range statusTable {
		out = append(out, r.code)
	}
	return out
}
