package viewdefs

// RichJS returns the rich renderers as pages inline them.
func RichJS() string { return cur().rich }

// TextJS returns the text renderers as pages inline them.
func TextJS() string { return cur().text }

// MarkdownJS returns the vendored markdown parser.
func MarkdownJS() string { return markdownJS }
