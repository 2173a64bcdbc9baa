// Package pagepack owns genui's packed-page format: Pack, Unpack and the
// questions other packages ask of a page (IsPacked, CarriesShim) or the
// change they make to one (Strip). No other package matches its tags.
package pagepack

import (
	"bytes"
	"compress/flate"
	"crypto/sha256"
	_ "embed"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"
	"sync"
	"unicode/utf16"
	"unicode/utf8"

	kflate "github.com/klauspost/compress/flate"

	"github.com/genui-dev/genui/internal/assetunit"
)

// Packing. Nine tenths of an offline page is the same on every page: the
// renderers, the form compiler, the markdown parser and the styles. Pack
// moves them into one deflate-compressed, base64 block that a small loader
// expands in the browser (DecompressionStream, then one element per part,
// in the original order), which takes a rich page from ~100 KB to about
// half. What differs between tools stays readable in the page: the markup,
// the tool data and the view configuration, so a diff between two
// generations of a tool's UI shows what changed. JSON data blocks are not
// packed. The mcpshim element and the scripts marked FirstAttr (the offline
// page's connect.js, which starts the host's handshake) come first in the
// one deflate stream, cut after them by a sync flush into a segment the
// loader inflates and runs before it writes the rest (packBlock), so the
// handshake's round trips overlap the unpacking of the rest. Packing only uses what the default MCP Apps CSP
// allows: the parts become inline elements ('unsafe-inline'); no eval, no
// fetch.
//
// genui --debug (gen.PageOptions.ReadableSources) serves pages unpacked: the
// offline generator then does not call Pack.

// PackAttr marks the script element that holds a packed page's parts.
const PackAttr = "data-genui-pack"

// ShimAttr marks the script element of the App shim (mcpshim.Inject writes
// <script data-genui-shim>; ShimAttr is this constant). Pack carries
// that element as a part of its own kind, so the packed page carries the
// shim: CarriesShim says so.
const ShimAttr = "data-genui-shim"

// FirstAttr marks a classic script that Pack puts with the shim in the
// first stream: it runs right after the shim, before the rest is unpacked
// (<script data-genui-first>, exactly so).
const FirstAttr = "data-genui-first"

// DeferAttr marks a classic script or a style that Pack leaves out of the
// page: its text goes into a block of its own, kept in this process and
// read by the page through its host as the resource DeferredURI names
// (<script data-genui-deferred> or <style data-genui-deferred>, exactly
// so). The page's block keeps an empty part of kind "deferred" (a script)
// or "deferred-style" where each was, so Unpack puts it back in its place; the loader asks for the deferred block once its
// first segment is in (window.genuiPackRead, set by a first script, reads
// it after the handshake) and inserts its scripts once its own are in. The URI ends in the first 16 bytes of the SHA-256 of the
// block's deflated bytes, in hex, and the loader runs nothing it is handed
// that does not hash to it (the page's CSP cannot refuse those scripts: it
// trusts what the loader inserts, 'strict-dynamic'), so only the scripts
// Pack took out run, whatever the host hands back.
const DeferAttr = "data-genui-deferred"

// DeferredPrefix starts the URI of every deferred block (Deferred).
const DeferredPrefix = "ui://genui/pack/"

// DeferredMIME is a deferred block's MIME type as genui serves it (the
// blob is base64 of raw deflate).
const DeferredMIME = "application/octet-stream"

// PackedShimAttr marks the loader of a page that carries the shim inside its
// packed block: the shim was injected before packing and the page's module
// scripts rewritten, so mcpshim.Inject leaves such a page as it is.
const PackedShimAttr = "data-genui-packed-shim"

// loaderStart is the loader's start tag exactly as Pack writes it for a page
// that carries the shim.
const loaderStart = "<script " + PackAttr + "-loader " + PackedShimAttr + ">"

// packableOpen are the start tags of the elements Pack packs: a style or
// classic/module script element exactly as genui's templates write them (no
// attributes but type="module"), the shim element as mcpshim.Inject writes
// it, or a script marked FirstAttr. Each body runs to the first end tag of
// its kind, exactly so.
var packableOpen = []struct{ tag, end string }{
	{"<style>", "</style>"},
	{`<script type="module">`, "</script>"},
	{"<script>", "</script>"},
	{"<script " + ShimAttr + ">", "</script>"},
	{"<script " + FirstAttr + ">", "</script>"},
	{"<script " + DeferAttr + ">", "</script>"},
	{"<style " + DeferAttr + ">", "</style>"},
}

// packableLocs finds the packable elements, in the index layout of
// FindAllStringSubmatchIndex for
// `(?s)<style>(.*?)</style>|<script( type="module")?>(.*?)</script>|<script SHIM>(.*?)</script>|<script FIRST>(.*?)</script>|<script DEFER>(.*?)</script>|<style DEFER>(.*?)</style>`
// (whole element, style body, the module attribute, script body, shim body,
// first body, deferred script body, deferred style body). It looks with strings.Index: that regexp stepped its machine
// through every byte of the page's scripts, most of packing's time.
func packableLocs(page string) [][]int {
	var locs [][]int
	for pos := 0; ; {
		i := strings.Index(page[pos:], "<s")
		if i < 0 {
			return locs
		}
		start := pos + i
		pos = start + 1
		for k, o := range packableOpen {
			if !strings.HasPrefix(page[start:], o.tag) {
				continue
			}
			body := start + len(o.tag)
			j := strings.Index(page[body:], o.end)
			if j < 0 {
				break // not closed: the regexp moved on to the next position
			}
			m := []int{start, body + j + len(o.end), -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1}
			switch k {
			case 0:
				m[2], m[3] = body, body+j
			case 1:
				m[4], m[5] = start+len("<script"), start+len(`<script type="module"`)
				m[6], m[7] = body, body+j
			case 2:
				m[6], m[7] = body, body+j
			case 3:
				m[8], m[9] = body, body+j
			case 4:
				m[10], m[11] = body, body+j
			case 5:
				m[12], m[13] = body, body+j
			case 6:
				m[14], m[15] = body, body+j
			}
			locs = append(locs, m)
			pos = m[1]
			break
		}
	}
}

// packed finds a packed page's parts, hide style and loader.
var (
	rePackHide   = regexp.MustCompile(`<style ` + PackAttr + `-hide>[^<]*</style>`)
	rePackLoader = regexp.MustCompile(`(?s)<script ` + PackAttr + `-loader[^>]*>.*?</script>`)
)

// packBlockOpen starts a packed page's block; its text runs to the next
// "</script>" and holds no "<".
const packBlockOpen = `<script type="application/octet-stream" ` + PackAttr + `>`

// findPackBlock finds page's block: the one Pack wrote, just before its
// loader (the loader reads that one too), else the first whose text holds
// no "<" (a copy of the tag earlier in the page is skipped either way). It
// returns its start and end, and its text's start and end, as a regexp's
// submatch indexes would (a regexp did this: its matcher over an 80 KB
// page took most of Unpack's time, 28 times more under the race detector).
func findPackBlock(page string) []int {
	var first []int
	for from := 0; ; {
		i := strings.Index(page[from:], packBlockOpen)
		if i < 0 {
			return first
		}
		start := from + i
		text := start + len(packBlockOpen)
		lt := strings.IndexByte(page[text:], '<')
		if lt >= 0 && strings.HasPrefix(page[text+lt:], "</script>") {
			m := []int{start, text + lt + len("</script>"), text, text + lt}
			if strings.HasPrefix(page[m[1]:], packLoaderOpen) {
				return m
			}
			if first == nil {
				first = m
			}
		}
		from = text
	}
}

// packLoaderOpen starts the loader's tag, which Pack writes just after the
// block.
const packLoaderOpen = `<script ` + PackAttr + `-loader`

// packHide keeps the page's content out of layout until its styles are in,
// so it never flashes unstyled and is not laid out unstyled when parsing
// ends. The loader removes it whatever happens.
const packHide = `<style ` + PackAttr + `-hide>main{display:none}</style>`

// packLoader (loader.js, minified) expands the parts. On failure (a browser without
// DecompressionStream, a damaged block) it says so in the page instead of
// leaving it blank. The bytes are written straight into the stream: a
// Blob's stream is read back through the browser process, which took 13 ms
// of inflating against 8 (median of 30 loads, bench/pagerender); they are
// read back with the stream's reader and a TextDecoder, which queue no task
// (new Response(stream).text() did: 3.7 ms for the rest against 2.0); a
// damaged block fails a read, and a segment whose output is all in (its
// write settled) but short of what its header says fails too. A block of
// two segments (base64 joined by ",") holds the shim and the first scripts
// in the first, inflated and inserted before the second is written: the App's ui/initialize then goes out before the
// inflating of the rest queues its tasks, so the host answers while the
// page unpacks (bench/pagerender, host and frame on one thread: p50 lower in
// all five shapes than inflating both at once). A first script may set
// window.genuiPackWait to a promise (the offline page's connect.js: its
// handshake): the second segment waits for it to settle, at most 250 ms, so
// the host's answer is handled when it comes instead of behind the rest's
// styles and scripts, and the host's tool input and result travel while the
// page unpacks (bench/pagerender: the result received 5-9 ms sooner, p50
// lower in all five shapes); one task (a MessageChannel message: a timer's
// would wait up to a second in a background tab) after it settles lets
// the host handle ui/notifications/initialized and send the tool input and
// result before the unpacking, which queues no task, takes the thread. Parts
// are sliced out of the inflated text by the lengths in its header line
// (packHeader). The base64 is decoded by
// Uint8Array.fromBase64 where
// the browser has it (Chromium 140+: 0.2 ms against 2 for atob and a loop
// over the characters, which older browsers still take). The
// "genui-unpacked" performance mark tells `make bench` how long unpacking
// took.
var (
	//go:embed min/loader.js
	packLoader string
)

//go:generate go run ../internal/minify/gen .

// AssetUnits are the scripts this package inlines (the loader), declared
// once: internal/minify builds min/ from them.
var AssetUnits = []assetunit.Unit{{Out: "min/loader.js", Srcs: []string{"loader.js"}}}

// packPart is one packed element: kind "style", "shim", "first" (a script
// marked FirstAttr), "script" or "module".
type packPart [2]string

// Pack returns page with its packable elements (see above) replaced by a
// packed block and its loader, or page unchanged when there is nothing to
// pack or it is packed already.
func Pack(page string) (string, error) {
	if IsPacked(page) {
		return page, nil
	}
	locs := packableLocs(page)
	if len(locs) == 0 {
		return page, nil
	}
	var first, parts []packPart
	var out strings.Builder
	out.Grow(len(page) / 2)
	last, hid, shim := 0, false, false
	for _, m := range locs {
		out.WriteString(page[last:m[0]])
		last = m[1]
		switch {
		case m[2] >= 0:
			parts = append(parts, packPart{"style", page[m[2]:m[3]]})
			if !hid {
				out.WriteString(packHide)
				hid = true
			}
		case m[8] >= 0:
			first = append(first, packPart{"shim", page[m[8]:m[9]]})
			shim = true
		case m[10] >= 0:
			first = append(first, packPart{"first", page[m[10]:m[11]]})
		case m[12] >= 0:
			parts = append(parts, packPart{"deferred", page[m[12]:m[13]]})
		case m[14] >= 0:
			parts = append(parts, packPart{"deferred-style", page[m[14]:m[15]]})
		case m[4] >= 0:
			parts = append(parts, packPart{"module", page[m[6]:m[7]]})
		default:
			parts = append(parts, packPart{"script", page[m[6]:m[7]]})
		}
	}
	parts, deferURI, err := deferParts(parts)
	if err != nil {
		return "", err
	}
	block, err := packBlock(first, parts)
	if err != nil {
		return "", err
	}
	if deferURI != "" {
		block += deferSep + deferURI
	}
	if !hid {
		// No style was packed: nothing to hide, but the loader looks.
		out.WriteString(packHide)
	}
	out.WriteString(`<script type="application/octet-stream" ` + PackAttr + `>`)
	out.WriteString(block)
	out.WriteString(`</script>` + packLoaderOpen)
	if shim {
		out.WriteString(" " + PackedShimAttr)
	}
	out.WriteString(">" + packLoader + "</script>")
	out.WriteString(page[last:])
	return out.String(), nil
}

// IsPacked reports whether page holds a packed block.
func IsPacked(page string) bool { return strings.Contains(page, PackAttr+">") }

// CarriesShim reports whether page was packed with the App shim (inline
// before the block; in it, for pages packed before): its loader's start tag is exactly the one Pack writes then (a page
// that merely mentions the mark, a quoted tool description, does not).
func CarriesShim(page string) bool { return strings.Contains(page, loaderStart) }

// rePacked finds what Pack adds to a page: the hide style, the block and
// the loader.
var rePacked = regexp.MustCompile(`(?s)<style ` + PackAttr + `-hide>.*?</style>|<script type="application/octet-stream" ` +
	PackAttr + `>.*?</script>|<script ` + PackAttr + `-loader[^>]*>.*?</script>`)

// Strip returns a packed page with what packing added (its hide style,
// block and loader) replaced by note, once, where the first of them was; a
// page that is not packed comes back unchanged. For showing a page's own
// markup without kilobytes of base64 (an LLM refining the page).
func Strip(page, note string) string {
	if !IsPacked(page) {
		return page
	}
	first := true
	return rePacked.ReplaceAllStringFunc(page, func(string) string {
		if !first {
			return ""
		}
		first = false
		return note
	})
}

// Unpack returns a packed page as Pack found it, give or take where the
// elements sit: styles where the hide style was, scripts where the block
// was (the order among them kept). A page that is not packed comes back
// unchanged. For tests and tools that read a page's code.
func Unpack(page string) (string, error) {
	m := findPackBlock(page)
	if m == nil {
		if IsPacked(page) {
			return "", errors.New("packed page: its block is damaged")
		}
		return page, nil
	}
	parts, err := blockParts(page[m[2]:m[3]])
	if err != nil {
		return "", err
	}
	var styles, scripts strings.Builder
	for _, p := range parts {
		switch p[0] {
		case "style":
			styles.WriteString("<style>" + p[1] + "</style>")
		case "shim":
			styles.WriteString("<script " + ShimAttr + ">" + p[1] + "</script>")
		case "first":
			scripts.WriteString("<script " + FirstAttr + ">" + p[1] + "</script>")
		case "module":
			scripts.WriteString(`<script type="module">` + p[1] + "</script>")
		case "script":
			scripts.WriteString("<script>" + p[1] + "</script>")
		case "deferred":
			scripts.WriteString("<script " + DeferAttr + ">" + p[1] + "</script>")
		case "deferred-style":
			styles.WriteString("<style " + DeferAttr + ">" + p[1] + "</style>")
		default:
			return "", fmt.Errorf("packed page: unknown part kind %q", p[0])
		}
	}
	out := page[:m[0]] + scripts.String() + page[m[1]:]
	out = rePackLoader.ReplaceAllLiteralString(out, "")
	if h := rePackHide.FindStringIndex(out); h != nil {
		out = out[:h[0]] + styles.String() + out[h[1]:]
	} else if styles.Len() > 0 {
		return "", errors.New("packed page: styles but no place for them")
	}
	return out, nil
}

// PackedScripts returns the texts of the scripts a packed page's loader
// inserts (the shim, classic and module scripts, in order), for the page's
// CSP hashes; nil for a page that is not packed. Memoized by block.
func PackedScripts(page string) ([]string, error) {
	m := findPackBlock(page) // the block Unpack reads, past a decoy
	if m == nil {
		if IsPacked(page) {
			return nil, errors.New("packed page: its block is damaged")
		}
		return nil, nil
	}
	block := page[m[2]:m[3]]
	key := sha256.Sum256([]byte(block))
	scriptMemo.Lock()
	s, ok := scriptMemo.m[key]
	scriptMemo.Unlock()
	if ok {
		return s, nil
	}
	parts, err := blockParts(block)
	if err != nil {
		return nil, err
	}
	for _, p := range parts {
		if p[0] != "style" && p[0] != "deferred-style" {
			s = append(s, p[1])
		}
	}
	scriptMemo.Lock()
	if len(scriptMemo.m) >= packMemoMax {
		clear(scriptMemo.m)
	}
	scriptMemo.m[key] = s
	scriptMemo.Unlock()
	return s, nil
}

// scriptMemo holds the script texts of recent blocks (PackedScripts).
var scriptMemo = struct {
	sync.Mutex
	m map[[32]byte][]string
}{m: map[[32]byte][]string{}}

// packMemo holds recent blocks by the hash of their parts: pages of tools
// with the same needs share every part, and deflate at its best level costs
// tens of milliseconds. Bounded; cleared when full.
var packMemo = struct {
	sync.Mutex
	m map[[32]byte]string
}{m: map[[32]byte]string{}}

const packMemoMax = 64

// A stream inflates to a header line, {"parts":[[kind, length], ...]}, then
// the parts' texts back to back, each length in UTF-16 code units (what a
// JavaScript string counts): the loader slices them out of the text, where
// JSON-escaped texts cost a JSON.parse over all of them (0.5 ms of a load,
// bench/pagerender). Streams packed before hold a JSON array of [kind, text].
type packHeader struct {
	Parts [][2]any `json:"parts"`
}

// groupBytes is one group of parts as a stream holds it: its header line,
// then the texts.
func groupBytes(parts []packPart) ([]byte, error) {
	h := packHeader{Parts: make([][2]any, len(parts))}
	n := 0
	for i, p := range parts {
		if !utf8.ValidString(p[1]) {
			return nil, fmt.Errorf("packed %s is not valid UTF-8", p[0])
		}
		h.Parts[i] = [2]any{p[0], utf16Len(p[1])}
		n += len(p[1])
	}
	head, err := json.Marshal(h)
	if err != nil {
		return nil, err
	}
	raw := append(append(make([]byte, 0, len(head)+1+n), head...), '\n')
	for _, p := range parts {
		raw = append(raw, p[1]...)
	}
	return raw, nil
}

// packBlock deflates the first parts (none: no first segment) and the rest
// as one stream: the rest is compressed with the first parts in its window
// (the shim's and the renderers' names are shared), and a sync flush after
// the first parts ends a segment the loader can inflate whole before it
// writes the next. The segments' base64 are joined by ",".
func packBlock(first, rest []packPart) (string, error) {
	var groups [][]byte
	for _, g := range [][]packPart{first, rest} {
		if len(g) == 0 {
			continue
		}
		raw, err := groupBytes(g)
		if err != nil {
			return "", err
		}
		groups = append(groups, raw)
	}
	hash := sha256.New()
	for _, g := range groups {
		_, _ = fmt.Fprintf(hash, "%d:", len(g))
		hash.Write(g)
	}
	var key [32]byte
	copy(key[:], hash.Sum(nil))
	packMemo.Lock()
	b, ok := packMemo.m[key]
	packMemo.Unlock()
	if ok {
		return b, nil
	}
	var z bytes.Buffer
	// klauspost/compress's deflate at its best level: 0.6% smaller blocks
	// than the standard library's (58.5 against 58.9 KB deflated for the
	// median corpus page; zlib -9 gives 58.4), the same format.
	w, err := kflate.NewWriter(&z, kflate.BestCompression)
	if err != nil {
		return "", err
	}
	var segs []string
	for i, g := range groups {
		if _, err := w.Write(g); err != nil {
			return "", err
		}
		if i < len(groups)-1 {
			if err := w.Flush(); err != nil {
				return "", err
			}
		} else if err := w.Close(); err != nil {
			return "", err
		}
		segs = append(segs, base64.StdEncoding.EncodeToString(z.Bytes()))
		z.Reset()
	}
	b = strings.Join(segs, segmentSep)
	packMemo.Lock()
	if len(packMemo.m) >= packMemoMax {
		clear(packMemo.m)
	}
	packMemo.m[key] = b
	packMemo.Unlock()
	return b, nil
}

// segmentSep joins the base64 segments of one deflate stream (Pack); a
// block packed before joined independent streams by streamSep.
const (
	segmentSep = ","
	streamSep  = "."
)

// maxUnpacked bounds what a block may expand to (a page's parts are ~150 KB).
const maxUnpacked = 8 << 20

func unpackBlock(block string) ([]packPart, error) {
	if strings.Contains(block, segmentSep) || !strings.Contains(block, streamSep) {
		// One stream in segments (or a single segment): the groups follow
		// each other in the inflated text.
		var z []byte
		segs := strings.Split(block, segmentSep)
		for _, seg := range segs {
			b, err := base64.StdEncoding.DecodeString(seg)
			if err != nil {
				return nil, fmt.Errorf("packed page: %w", err)
			}
			z = append(z, b...)
		}
		raw, err := inflateBounded(z, maxUnpacked)
		if err != nil {
			return nil, err
		}
		if len(raw) > 0 && raw[0] == '[' {
			parts, err := streamParts(raw)
			if err != nil {
				return nil, fmt.Errorf("packed page: %w", err)
			}
			return parts, nil
		}
		// The loader inserts one group per segment: a block with more
		// groups than segments (or fewer) runs otherwise in the browser than
		// it reads here. The text is walked by offset (a copy of the rest per
		// group made a block of many tiny groups cost quadratic time).
		var all []packPart
		text, groups := string(raw), 0
		for len(text) > 0 {
			if groups++; groups > len(segs) {
				return nil, fmt.Errorf("packed page: more groups of parts than its %d segments", len(segs))
			}
			parts, rest, err := groupParts(text)
			if err != nil {
				return nil, fmt.Errorf("packed page: %w", err)
			}
			all, text = append(all, parts...), rest
		}
		if groups != len(segs) {
			return nil, fmt.Errorf("packed page: %d groups of parts for its %d segments", groups, len(segs))
		}
		return all, nil
	}
	var all []packPart
	total := 0
	for _, b64 := range strings.Split(block, streamSep) {
		z, err := base64.StdEncoding.DecodeString(b64)
		if err != nil {
			return nil, fmt.Errorf("packed page: %w", err)
		}
		raw, err := inflateBounded(z, maxUnpacked-total)
		if err != nil {
			return nil, err
		}
		total += len(raw)
		parts, err := streamParts(raw)
		if err != nil {
			return nil, fmt.Errorf("packed page: %w", err)
		}
		all = append(all, parts...)
	}
	return all, nil
}

// inflateBounded inflates z, an error past limit bytes.
func inflateBounded(z []byte, limit int) ([]byte, error) {
	raw, err := io.ReadAll(io.LimitReader(flate.NewReader(bytes.NewReader(z)), int64(limit)+1))
	if err != nil {
		return nil, fmt.Errorf("packed page: %w", err)
	}
	if len(raw) > limit {
		return nil, fmt.Errorf("packed page: expands beyond %d bytes", limit)
	}
	return raw, nil
}

// streamParts reads one inflated stream: a header line and the texts it
// measures, or (streams packed before) a JSON array of [kind, text].
func streamParts(raw []byte) ([]packPart, error) {
	if len(raw) > 0 && raw[0] == '[' {
		var parts []packPart
		err := json.Unmarshal(raw, &parts)
		return parts, err
	}
	parts, rest, err := groupParts(string(raw))
	if err != nil {
		return nil, err
	}
	if len(rest) > 0 {
		return nil, fmt.Errorf("stream: %d bytes after its parts", len(rest))
	}
	return parts, nil
}

// groupParts reads one group at the start of raw: a header line and the
// texts it measures; rest is what follows them (a part of raw, not a copy).
func groupParts(raw string) (parts []packPart, rest string, err error) {
	nl := strings.IndexByte(raw, '\n')
	if nl < 0 {
		return nil, "", errors.New("stream has no header")
	}
	var head struct {
		Parts [][2]json.RawMessage `json:"parts"`
	}
	if err := json.Unmarshal([]byte(raw[:nl]), &head); err != nil {
		return nil, "", fmt.Errorf("stream header: %w", err)
	}
	texts := raw[nl+1:]
	parts = make([]packPart, 0, len(head.Parts))
	for _, hp := range head.Parts {
		var kind string
		var units int
		if err := json.Unmarshal(hp[0], &kind); err != nil {
			return nil, "", fmt.Errorf("stream header: %w", err)
		}
		if err := json.Unmarshal(hp[1], &units); err != nil || units < 0 {
			return nil, "", fmt.Errorf("stream header: part %q: bad length %s", kind, hp[1])
		}
		end, ok := utf16Prefix(texts, units)
		if !ok {
			return nil, "", fmt.Errorf("stream header: part %q is longer than the stream or ends inside a character", kind)
		}
		parts = append(parts, packPart{kind, texts[:end]})
		texts = texts[end:]
	}
	if len(head.Parts) == 0 {
		return nil, "", errors.New("stream header: no parts")
	}
	return parts, texts, nil
}

// utf16Len is the length of s in UTF-16 code units.
func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n += utf16.RuneLen(r)
	}
	return n
}

// utf16Prefix returns the byte length of the first units UTF-16 code
// units of s, false when s is shorter or the cut splits a character.
func utf16Prefix(s string, units int) (int, bool) {
	for i, r := range s {
		if units == 0 {
			return i, true
		}
		units -= utf16.RuneLen(r)
		if units < 0 {
			return 0, false
		}
	}
	return len(s), units == 0
}

// deferSep ends a block's segments when the page has deferred scripts: the
// deferred block's URI follows it.
const deferSep = ";"

// deferred holds the deferred blocks this process packed, by URI, for the
// pages' hosts to read (Deferred), and the URI of each group of texts
// packed (deflate at its best level costs tens of milliseconds). A page
// served earlier must still find its block, so nothing is dropped: past
// deferredMax blocks, Pack keeps deferred scripts in the page instead.
// genui's pages defer one unit (the rich views), so a process holds one or
// two.
var deferred = struct {
	sync.Mutex
	blocks map[string]string
	uris   map[[32]byte]string
	source func() [][]DeferredPart // SetDeferredSource
	prime  sync.Once
}{blocks: map[string]string{}, uris: map[[32]byte]string{}}

const deferredMax = 64

// Deferred returns the deferred block a page packed by this process names
// by uri (base64 of one deflate stream holding one group of parts, as a
// segment does), as the page's host reads it: a resources/read answer's
// blob. ok is false for a URI this process did not make.
func Deferred(uri string) (blob string, ok bool) {
	deferred.Lock()
	blob, ok = deferred.blocks[uri]
	fn := deferred.source
	deferred.Unlock()
	if ok || fn == nil || !strings.HasPrefix(uri, DeferredPrefix) {
		return blob, ok
	}
	deferred.prime.Do(func() {
		for _, set := range fn() {
			_, _ = Defer(set) // a full registry: the page draws plainly, as it says
		}
	})
	deferred.Lock()
	defer deferred.Unlock()
	blob, ok = deferred.blocks[uri]
	return blob, ok
}

// SetDeferredSource names the deferred elements this program's pages carry
// (each list a set, in a page's order): Deferred packs them on
// its first miss, which gives the very URIs pages packed with the same
// scripts name, so a process serving or reading pages packed before it
// started (a UI cache, another genui process's page) finds their blocks.
// A page from another build names a block that is still not there.
func SetDeferredSource(fn func() [][]DeferredPart) {
	deferred.Lock()
	defer deferred.Unlock()
	deferred.source = fn
}

// deferredKind is the kind of a deferred part's text in its block, by the
// kind of the empty part the page keeps in its place.
var deferredKind = map[string]string{"deferred": "script", "deferred-style": "style"}

// deferParts moves the texts of parts of kind "deferred" and
// "deferred-style" into a deferred block (as a script and a style) and
// returns parts with an empty part of that kind in the place of each, and
// the block's URI; parts unchanged and no URI when there are none, and with
// them as plain scripts and styles when the registry is full.
func deferParts(parts []packPart) ([]packPart, string, error) {
	var texts []packPart
	for _, p := range parts {
		if k, ok := deferredKind[p[0]]; ok {
			texts = append(texts, packPart{k, p[1]})
		}
	}
	if len(texts) == 0 {
		return parts, "", nil
	}
	raw, err := groupBytes(texts)
	if err != nil {
		return nil, "", err
	}
	key := sha256.Sum256(raw)
	deferred.Lock()
	uri, ok := deferred.uris[key]
	full := len(deferred.blocks) >= deferredMax
	deferred.Unlock()
	if !ok && !full {
		var z bytes.Buffer
		w, err := kflate.NewWriter(&z, kflate.BestCompression)
		if err != nil {
			return nil, "", err
		}
		if _, err := w.Write(raw); err != nil {
			return nil, "", err
		}
		if err := w.Close(); err != nil {
			return nil, "", err
		}
		blob := base64.StdEncoding.EncodeToString(z.Bytes())
		sum := sha256.Sum256(z.Bytes()) // the loader checks the bytes it is handed against it
		uri = fmt.Sprintf("%s%x", DeferredPrefix, sum[:16])
		deferred.Lock()
		if len(deferred.blocks) < deferredMax {
			deferred.blocks[uri] = blob
			deferred.uris[key] = uri
			ok = true
		}
		deferred.Unlock()
	}
	out := make([]packPart, len(parts))
	for i, p := range parts {
		k, deferredPart := deferredKind[p[0]]
		switch {
		case !deferredPart:
			out[i] = p
		case ok:
			out[i] = packPart{p[0], ""}
		default:
			out[i] = packPart{k, p[1]}
		}
	}
	if !ok {
		return out, "", nil
	}
	return out, uri, nil
}

// splitDeferred cuts a block's text into its segments and the URI of its
// deferred block ("" when it has none).
func splitDeferred(block string) (segs, uri string) {
	segs, uri, _ = strings.Cut(block, deferSep)
	return segs, uri
}

// blockParts reads a block's text: its parts, with the deferred block's
// texts (kinds "deferred" and "deferred-style") in the places Pack left
// for them.
func blockParts(block string) ([]packPart, error) {
	segs, uri := splitDeferred(block)
	parts, err := unpackBlock(segs)
	if err != nil {
		return nil, err
	}
	markers := 0
	for _, p := range parts {
		if _, ok := deferredKind[p[0]]; ok {
			if p[1] != "" {
				return nil, errors.New("packed page: a deferred part with text in the page's block")
			}
			markers++
		}
	}
	if uri == "" {
		if markers > 0 {
			return nil, errors.New("packed page: deferred parts but no deferred block")
		}
		return parts, nil
	}
	if !strings.HasPrefix(uri, DeferredPrefix) {
		return nil, fmt.Errorf("packed page: deferred block %q is not a %s URI", uri, DeferredPrefix)
	}
	blob, ok := Deferred(uri)
	if !ok {
		return nil, fmt.Errorf("packed page: its deferred block %s was not packed by this process", uri)
	}
	texts, err := unpackBlock(blob)
	if err != nil {
		return nil, fmt.Errorf("deferred block: %w", err)
	}
	if len(texts) != markers {
		return nil, fmt.Errorf("packed page: %d deferred parts for %d places", len(texts), markers)
	}
	k := 0
	for i, p := range parts {
		if kind, ok := deferredKind[p[0]]; ok {
			if texts[k][0] != kind {
				return nil, fmt.Errorf("packed page: its deferred block has a %s where the page has a %s", texts[k][0], kind)
			}
			parts[i] = packPart{p[0], texts[k][1]}
			k++
		}
	}
	return parts, nil
}

// DeferredPart is the text of one deferred element of a page: a script's,
// or with Style a style's.
type DeferredPart struct {
	Text  string
	Style bool
}

// Defer packs set as the deferred block a page with these deferred
// elements (in this order) names, and returns its URI: what Pack does for
// such a page, without one. For a process that serves pages packed before
// it started (a UI cache) and has not packed one of them since.
func Defer(set []DeferredPart) (string, error) {
	parts := make([]packPart, len(set))
	for i, d := range set {
		parts[i] = packPart{"deferred", d.Text}
		if d.Style {
			parts[i][0] = "deferred-style"
		}
	}
	_, uri, err := deferParts(parts)
	if err == nil && uri == "" {
		err = errors.New("pagepack: no room for another deferred block")
	}
	return uri, err
}
