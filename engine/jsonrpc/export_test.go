package jsonrpc

// EachElement calls f with the raw bytes of each element of the JSON array
// b, in order, until f returns false. It reports false when b is not an
// array or is cut short where it looks (values are not validated). The
// slices alias b.
func EachElement(b []byte, f func(value []byte) bool) bool {
	end, ok := eachElement(b, skipSpace(b, 0), f)
	return ok && (end < 0 || skipSpace(b, end) == len(b))
}
