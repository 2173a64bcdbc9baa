package config

// Expand is expand without the names, for the tests.
func Expand(s string, lookup func(string) (string, bool)) (out string, secret bool, err error) {
	out, _, secret, err = expand(s, lookup)
	return out, secret, err
}
