package cache

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/google/renameio/v2/maybe"

	"github.com/genui-dev/genui/engine/safefile"
)

// FormatVersion is the version of the on-disk entry format. Files with any
// other version are skipped on load (and overwritten by the next Put).
const FormatVersion = 1

// staleTempAge is how old a temp file must be before New deletes it, so a
// second genui process opening the same DIR never removes a write in flight.
const staleTempAge = time.Minute

// tempMarker is part of every temp file name: renameio writes "." + key +
// ".json" + random digits beside the entry and renames it into place.
const tempMarker = ".json"

// fileEntry is the JSON stored in Dir/<key>.json.
type fileEntry struct {
	Version int `json:"version"`
	Entry
}

func (c *Cache) path(k Key) string { return filepath.Join(c.opts.Dir, string(k)+".json") }

// writeEntry writes e to Dir/<key>.json atomically: temp file in the same
// directory, fsync, rename, fsync of the directory.
func (c *Cache) writeEntry(e Entry) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(fileEntry{Version: FormatVersion, Entry: e}); err != nil {
		return err
	}
	if err := os.MkdirAll(c.opts.Dir, 0o755); err != nil {
		return err
	}
	// renameio: temp file in the same folder, fsync, rename.
	return maybe.WriteFile(c.path(e.Key), buf.Bytes(), 0o644)
}

// removeFiles deletes the files of the given keys; a missing file is fine.
func (c *Cache) removeFiles(keys []Key) {
	if c.opts.Dir == "" {
		return
	}
	for _, k := range keys {
		if err := os.Remove(c.path(k)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			c.log.Warn("cache remove failed", "key", string(k), "err", err)
		}
	}
}

// load reads every Dir/<key>.json into memory, oldest first, enforcing the
// limits as it goes. Bad files are skipped with a warning; stray temp files
// from interrupted writes are deleted.
func (c *Cache) load() error {
	if err := os.MkdirAll(c.opts.Dir, 0o755); err != nil {
		return fmt.Errorf("cache: create dir: %w", err)
	}
	dirents, err := os.ReadDir(c.opts.Dir)
	if err != nil {
		return fmt.Errorf("cache: read dir: %w", err)
	}
	var entries []Entry
	for _, de := range dirents {
		name := de.Name()
		if strings.HasPrefix(name, ".") && strings.Contains(name, tempMarker) {
			// Never loaded; deleted once stale.
			if fi, err := de.Info(); err == nil && time.Since(fi.ModTime()) > staleTempAge {
				c.log.Info("cache: removing temp file left by an interrupted write", "file", name)
				if err := os.Remove(filepath.Join(c.opts.Dir, name)); err != nil {
					c.log.Warn("cache: remove temp file failed", "file", name, "err", err)
				}
			}
			continue
		}
		if de.IsDir() || !strings.HasSuffix(name, ".json") {
			continue
		}
		e, err := c.readEntry(name)
		if err != nil {
			c.log.Warn("cache: skipping unreadable entry file", "file", name, "err", err)
			continue
		}
		if n := e.size(); n > c.opts.MaxEntryBytes {
			c.log.Warn("cache: dropping persisted entry over the size limit", "file", name, "bytes", n, "limit", c.opts.MaxEntryBytes)
			c.removeFiles([]Key{e.Key})
			continue
		}
		entries = append(entries, e)
	}
	slices.SortFunc(entries, func(a, b Entry) int {
		return cmp.Or(a.Meta.GeneratedAt.Compare(b.Meta.GeneratedAt), cmp.Compare(a.Key, b.Key))
	})
	for _, e := range entries {
		c.removeFiles(c.add(e))
	}
	c.log.Debug("cache loaded", "dir", c.opts.Dir, "entries", c.lru.Len(), "bytes", c.bytes)
	return nil
}

// readEntry parses and checks one persisted entry file.
func (c *Cache) readEntry(name string) (Entry, error) {
	key := Key(strings.TrimSuffix(name, ".json"))
	if !validKey(key) {
		return Entry{}, errors.New("not a cache entry file name")
	}
	// JSON escaping can grow the HTML up to 6x (\u00XX); anything beyond is not ours.
	data, err := safefile.Read(filepath.Join(c.opts.Dir, name), 6*c.opts.MaxEntryBytes+64<<10)
	if err != nil {
		return Entry{}, err
	}
	var fe fileEntry
	if err := json.Unmarshal(data, &fe); err != nil {
		return Entry{}, fmt.Errorf("corrupt: %w", err)
	}
	switch {
	case fe.Version != FormatVersion:
		return Entry{}, fmt.Errorf("format version %d, want %d", fe.Version, FormatVersion)
	case fe.Key != key:
		return Entry{}, fmt.Errorf("key %q does not match the file name", fe.Key)
	case fe.Tool == "":
		return Entry{}, errors.New("entry has no tool name")
	}
	return fe.Entry, nil
}
