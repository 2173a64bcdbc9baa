package cache

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
)

// Key identifies one generated UI: a hex sha256 built by MakeKey.
type Key string

// ToolIdentity is the part of an upstream tool that determines its UI. Any
// change to it (description, schemas) must produce a different ToolHash.
type ToolIdentity struct {
	Name         string
	Description  string
	InputSchema  json.RawMessage
	OutputSchema json.RawMessage
}

// ToolHash returns the hex sha256 of the canonical JSON of
// {name, description, inputSchema, outputSchema}. Key order and whitespace
// inside the schemas do not change the hash; numbers are kept as written.
// An empty schema counts as null. A schema that is not valid JSON is hashed
// by its raw bytes (so the hash stays deterministic and still changes when
// the schema does).
func ToolHash(t ToolIdentity) string {
	doc := struct {
		Name         string          `json:"name"`
		Description  string          `json:"description"`
		InputSchema  json.RawMessage `json:"inputSchema"`
		OutputSchema json.RawMessage `json:"outputSchema"`
	}{t.Name, t.Description, schemaForHash(t.InputSchema), schemaForHash(t.OutputSchema)}
	raw, err := json.Marshal(doc)
	if err != nil { // cannot happen: every field is valid JSON by construction
		panic(fmt.Sprintf("cache: marshal tool identity: %v", err))
	}
	canon, err := CanonicalJSON(raw)
	if err != nil {
		panic(fmt.Sprintf("cache: canonicalize tool identity: %v", err))
	}
	return hashHex(canon)
}

// schemaForHash turns a schema into a JSON value that is safe to embed:
// empty becomes null, invalid JSON becomes a string holding its raw bytes.
func schemaForHash(raw json.RawMessage) json.RawMessage {
	if len(bytes.TrimSpace(raw)) == 0 {
		return json.RawMessage("null")
	}
	if !json.Valid(raw) {
		s, _ := json.Marshal("invalid-json:" + string(raw))
		return s
	}
	return raw
}

// CanonicalJSON re-encodes one JSON value with object keys sorted (bytewise)
// at every depth, no insignificant whitespace, numbers exactly as written and
// no HTML escaping. Equal documents give equal bytes. Input that is not
// exactly one valid JSON value is an error.
func CanonicalJSON(raw json.RawMessage) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("canonical json: %w", err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, errors.New("canonical json: trailing data after the JSON value")
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	// encoding/json writes map keys in sorted order and json.Number verbatim.
	if err := enc.Encode(v); err != nil {
		return nil, fmt.Errorf("canonical json: %w", err)
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// Config is the generation setup that, besides the tool and its refinements,
// decides what UI comes out. Changing any field changes the cache key.
type Config struct {
	PromptVersion   string
	TemplateVersion string
	Provider        string
	Model           string
	Temperature     float64
	Theme           string
}

// Hash returns the hex sha256 of the config's fields.
func (c Config) Hash() string {
	return hashFields("genui-config/v1", c.PromptVersion, c.TemplateVersion, c.Provider, c.Model,
		strconv.FormatFloat(c.Temperature, 'g', -1, 64), c.Theme)
}

// MakeKey combines the tool name and the three hashes into a cache key.
// Fields are length-prefixed, so no two different inputs share a key.
func MakeKey(toolName, toolHash, refinementHash, configHash string) Key {
	return Key(hashFields("genui-cache-key/v1", toolName, toolHash, refinementHash, configHash))
}

// hashFields hashes a length-prefixed sequence of strings.
func hashFields(fields ...string) string {
	h := sha256.New()
	for _, f := range fields {
		fmt.Fprintf(h, "%d:%s;", len(f), f)
	}
	return hex.EncodeToString(h.Sum(nil))
}

func hashHex(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// validKey reports whether k looks like a key MakeKey could have produced
// (64 lowercase hex digits). Only such keys become file names.
func validKey(k Key) bool {
	if len(k) != sha256.Size*2 {
		return false
	}
	for _, r := range k {
		if (r < '0' || r > '9') && (r < 'a' || r > 'f') {
			return false
		}
	}
	return true
}
