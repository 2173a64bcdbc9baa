package tui

import (
	"fmt"
	"net/url"
	"strings"
	"unicode"
)

// The system opener (xdg-open, open, start) does whatever the desktop does
// with a URL: a file: URL opens a local file, javascript: or a custom
// scheme may run something. URLs come from the upstream (URL
// elicitation) and from a genui the TUI attached to, so the TUI hands the
// opener only web pages; anything else is shown as text with y to copy.

// webURL reports whether u may go to the system opener: an absolute
// http or https URL with a host and no spaces or control characters. why
// says what is wrong otherwise ("a file: URL").
func webURL(u string) (why string, ok bool) {
	if strings.IndexFunc(u, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }) >= 0 {
		return "a URL with spaces or control characters", false
	}
	p, err := url.Parse(u)
	switch {
	case err != nil:
		return "not a URL", false
	case !strings.EqualFold(p.Scheme, "http") && !strings.EqualFold(p.Scheme, "https"):
		if p.Scheme == "" {
			return "not an absolute URL", false
		}
		return "a " + clean(strings.ToLower(p.Scheme)) + ": URL", false
	case p.Host == "":
		return "a URL without a host", false
	}
	return "", true
}

// onlyWeb wraps the opener so that nothing but a web URL reaches it,
// whichever pane asks.
func onlyWeb(open func(string) error) func(string) error {
	return func(u string) error {
		if why, ok := webURL(u); !ok {
			return fmt.Errorf("not opened: %s (genui opens only http and https URLs)", why)
		}
		return open(u)
	}
}
