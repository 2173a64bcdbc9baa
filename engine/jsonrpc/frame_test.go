package jsonrpc

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"sync"
	"testing"
)

func TestFrameReader(t *testing.T) {
	long := strings.Repeat("x", 100)
	in := "a\r\n\n  \r\nb\n" + long + "\nc\n" + strings.Repeat("y", 70<<10) + "\nlast"
	fr := NewFrameReader(strings.NewReader(in), 80<<10)
	var got []string
	for {
		f, err := fr.ReadFrame()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, string(f))
	}
	want := []string{"a", "b", long, "c", strings.Repeat("y", 70<<10), "last"}
	if len(got) != len(want) {
		t.Fatalf("got %d frames, want %d", len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("frame %d: %.20q, want %.20q", i, got[i], want[i])
		}
	}
}

// TestFrameReaderLetsGoOfABigLine: after a line larger than keepBuf the
// reader does not keep its buffer (it held a 36 MB tools/list answer for
// the life of the upstream connection); small lines reuse theirs.
func TestFrameReaderLetsGoOfABigLine(t *testing.T) {
	big := strings.Repeat("x", 3*keepBuf)
	fr := NewFrameReader(strings.NewReader(big+"\nsmall\n"+strings.Repeat("y", 100<<10)+"\nz\n"), 0)
	if f, err := fr.ReadFrame(); err != nil || len(f) != len(big) {
		t.Fatalf("big frame: %d bytes, %v", len(f), err)
	}
	if f, err := fr.ReadFrame(); err != nil || string(f) != "small" {
		t.Fatalf("small frame: %q, %v", f, err)
	}
	if cap(fr.buf) > keepBuf {
		t.Fatalf("the reader keeps a %d-byte buffer after a big line", cap(fr.buf))
	}
	if _, err := fr.ReadFrame(); err != nil {
		t.Fatal(err)
	}
	kept := cap(fr.buf)
	if f, err := fr.ReadFrame(); err != nil || string(f) != "z" || kept == 0 {
		t.Fatalf("after a 100 KiB line: %q %v, buffer %d", f, err, kept)
	}
}

// TestFrameReaderOwn: a frame taken with Own stays as it was while the
// reader goes on, whether it was long (handed over) or short (copied).
func TestFrameReaderOwn(t *testing.T) {
	long := strings.Repeat("l", 200<<10)
	fr := NewFrameReader(strings.NewReader(long+"\nshort\n"+strings.Repeat("m", 200<<10)+"\nx\n"), 0)
	var kept []string
	var owned [][]byte
	for {
		f, err := fr.ReadFrame()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		kept = append(kept, string(f))
		owned = append(owned, fr.Own(f))
	}
	for i := range kept {
		if string(owned[i]) != kept[i] {
			t.Fatalf("frame %d changed after the reader went on: %.20q, want %.20q", i, owned[i], kept[i])
		}
	}
}

func TestFrameReaderSkipsOversizedLineAndGoesOn(t *testing.T) {
	for _, size := range []int{11, 1000, 200 << 10} { // inside and across bufio's buffer
		in := strings.Repeat("z", size) + "\nnext\n"
		fr := NewFrameReader(strings.NewReader(in), 10)
		if _, err := fr.ReadFrame(); !IsFrameTooLarge(err) {
			t.Fatalf("size %d: err %v, want FrameTooLargeError", size, err)
		}
		f, err := fr.ReadFrame()
		if err != nil || string(f) != "next" {
			t.Fatalf("size %d: after the oversized line: %q %v", size, f, err)
		}
		if _, err := fr.ReadFrame(); !errors.Is(err, io.EOF) {
			t.Fatalf("size %d: want EOF, got %v", size, err)
		}
	}
	// An oversized last line without a newline.
	fr := NewFrameReader(strings.NewReader(strings.Repeat("z", 50)), 10)
	if _, err := fr.ReadFrame(); !IsFrameTooLarge(err) {
		t.Fatalf("unterminated oversized line: %v", err)
	}
}

func TestFrameWriter(t *testing.T) {
	var buf bytes.Buffer
	var mu sync.Mutex
	fw := NewFrameWriter(writerFunc(func(p []byte) (int, error) { mu.Lock(); defer mu.Unlock(); return buf.Write(p) }))
	if err := fw.WriteFrame([]byte("a\nb")); !errors.Is(err, ErrFrameHasNewline) {
		t.Fatalf("frame with a newline: %v", err)
	}
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			frame := bytes.Repeat([]byte{byte('a' + i)}, 5000)
			for range 50 {
				if err := fw.WriteFrame(frame); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	if len(lines) != 400 {
		t.Fatalf("%d lines, want 400", len(lines))
	}
	for _, l := range lines {
		if len(l) != 5000 || strings.Count(l, l[:1]) != 5000 {
			t.Fatalf("interleaved frame: %.30q", l)
		}
	}
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

// TestFrameReaderLineOfManyBlocks: a line of several growing blocks (a
// 36 MB tools/list answer) comes back whole and in order, its CR LF
// trimmed, the limit counts every block, and the next line reads as usual.
func TestFrameReaderLineOfManyBlocks(t *testing.T) {
	var b strings.Builder
	for i := 0; b.Len() < 2*maxBlock+12345; i++ { // seven blocks and a part of the eighth
		b.WriteString(strings.Repeat(string(rune('a'+i%26)), 1+i%4093))
	}
	line := b.String()
	fr := NewFrameReader(strings.NewReader(line+"\r\nnext\n"+line+"xy\n"), len(line)+1) // the CR counts
	f, err := fr.ReadFrame()
	if err != nil || string(f) != line {
		t.Fatalf("long line: %d bytes (want %d), equal %v, err %v", len(f), len(line), string(f) == line, err)
	}
	for i, p := range fr.parts[:cap(fr.parts)] {
		if p != nil {
			t.Fatalf("block %d (%d bytes) is still held after the line was joined", i, cap(p))
		}
	}
	if f, err := fr.ReadFrame(); err != nil || string(f) != "next" {
		t.Fatalf("after the long line: %q %v", f, err)
	}
	if _, err := fr.ReadFrame(); !IsFrameTooLarge(err) {
		t.Fatalf("a line one byte over the limit: %v, want FrameTooLargeError", err)
	}
}

// recordingWatcher keeps what a FrameReader hands it, and takes the lines
// that start with take.
type recordingWatcher struct {
	lines  [][]byte
	pieces int
	take   string
	kept   [][][]byte // the pieces themselves, per line (they must not change)
}

func (w *recordingWatcher) End() bool {
	return w.take != "" && bytes.HasPrefix(w.lines[len(w.lines)-1], []byte(w.take))
}

func (w *recordingWatcher) Reset() { w.lines, w.kept = append(w.lines, nil), append(w.kept, nil) }
func (w *recordingWatcher) Write(p []byte) {
	w.lines[len(w.lines)-1] = append(w.lines[len(w.lines)-1], p...)
	w.kept[len(w.kept)-1] = append(w.kept[len(w.kept)-1], p)
	w.pieces++
}

// TestFrameReaderWatch: a line longer than the buffer reaches the watcher
// whole, in pieces, with its line end; short lines do not; a line the
// watcher takes is not returned.
func TestFrameReaderWatch(t *testing.T) {
	long := bytes.Repeat([]byte("0123456789"), 50_000)
	taken := "T" + string(long)
	in := "short\n" + string(long) + "\r\nafter\n" + taken + "\nlast\n" + string(long[:70_000])
	fr := NewFrameReader(strings.NewReader(in), 0)
	w := &recordingWatcher{take: "T"}
	fr.Watch(w)
	for i, want := range []string{"short", string(long), "after", "last", string(long[:70_000])} {
		line, err := fr.ReadFrame()
		if err != nil {
			t.Fatal(err)
		}
		if string(line) != want {
			t.Fatalf("frame %d: %d bytes, want %d", i, len(line), len(want))
		}
	}
	if len(w.lines) != 3 || string(w.lines[0]) != string(long)+"\r\n" || string(w.lines[1]) != taken+"\n" ||
		string(w.lines[2]) != string(long[:70_000]) || w.pieces < 6 {
		t.Fatalf("watcher saw %d lines in %d pieces", len(w.lines), w.pieces)
	}
	for i, pieces := range w.kept { // read on since: the pieces kept are as they were
		if got := bytes.Join(pieces, nil); !bytes.Equal(got, w.lines[i]) {
			t.Fatalf("line %d: the pieces kept changed after they were handed over", i)
		}
	}
}

// chunkReader hands out its bytes in reads of pseudo-random sizes (up to
// a few MiB: a long line's direct reads then end mid-line, at its end,
// and past it into the lines after).
type chunkReader struct {
	b    []byte
	seed uint32
}

func (c *chunkReader) Read(p []byte) (int, error) {
	if len(c.b) == 0 {
		return 0, io.EOF
	}
	c.seed = c.seed*1664525 + 1013904223
	n := min(len(p), len(c.b), 1+int(c.seed>>8)%(3<<20))
	copy(p, c.b[:n])
	c.b = c.b[n:]
	return n, nil
}

// TestFrameReaderLongLinesAmongOthers: lines of every length from empty
// to several blocks, CR LF or LF, read in reads of random sizes, some over
// the limit, with and without a watcher taking some: every frame comes out
// whole and in order, an over-long one as FrameTooLargeError without
// losing the lines after it, and what the watcher kept stays as it was.
func TestFrameReaderLongLinesAmongOthers(t *testing.T) {
	const limit = 900 << 10
	var in bytes.Buffer
	var lines []string
	seed := uint32(7)
	for i := 0; i < 120; i++ {
		seed = seed*1664525 + 1013904223
		n := int(seed>>8) % 1200 << 10
		if i%3 == 0 {
			n = int(seed>>8) % 300
		}
		line := strings.Repeat(string(rune('a'+i%26)), n)
		if i%5 == 0 {
			line = "T" + line // the watcher takes it
		}
		lines = append(lines, line)
		in.WriteString(line)
		if i%2 == 0 {
			in.WriteString("\r")
		}
		in.WriteString("\n")
	}
	for _, watch := range []bool{false, true} {
		for round := uint32(1); round <= 3; round++ {
			fr := NewFrameReader(&chunkReader{b: in.Bytes(), seed: round}, limit)
			w := &recordingWatcher{take: "T"}
			if watch {
				fr.Watch(w)
			}
			for i, want := range lines {
				if want == "" || (watch && strings.HasPrefix(want, "T") && len(want) > 64<<10 && len(want) <= limit) {
					continue // blank lines are skipped; taken ones never come out
				}
				got, err := fr.ReadFrame()
				if len(want) > limit {
					if !IsFrameTooLarge(err) {
						t.Fatalf("watch %v round %d line %d (%d bytes): %v, want FrameTooLargeError", watch, round, i, len(want), err)
					}
					continue
				}
				if err != nil || string(got) != want {
					t.Fatalf("watch %v round %d line %d: %d bytes %.10q (err %v), want %d bytes %.10q", watch, round, i, len(got), got, err, len(want), want)
				}
			}
			if f, err := fr.ReadFrame(); !errors.Is(err, io.EOF) {
				t.Fatalf("watch %v round %d: after the last line %.20q %v, want EOF", watch, round, f, err)
			}
			for i, pieces := range w.kept {
				if got := bytes.Join(pieces, nil); !bytes.Equal(got, w.lines[i]) {
					t.Fatalf("watch %v round %d: kept line %d changed after it was handed over", watch, round, i)
				}
			}
		}
	}
}
